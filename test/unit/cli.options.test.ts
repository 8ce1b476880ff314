// The one option reader every rlm-plan command uses (cli/src/options.ts, on
// node:util parseArgs): what it splits, and the exact message for each mistake.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import { parseArgs, parseGraphArgs } from "rlm-plan/args";
import { readOptions, type OptionSpec } from "rlm-plan/options";

const SPEC: OptionSpec = {
  values: { "--host": "a FILE", "--input": "NAME=PATH", "-o": "a FILE" },
  flags: ["--json", "-h"],
  nonEmpty: ["--host"],
};

function read(...argv: string[]) {
  const options = readOptions(argv, SPEC);
  if (typeof options === "string") return options;
  return {
    positionals: options.positionals,
    values: Object.fromEntries(options.values),
    repeated: Object.fromEntries(options.repeated),
    flags: [...options.flags],
  };
}

test("values (spaced or after =), repeated values, flags, short options and positionals in order", () => {
  assert.deepEqual(read("a.json", "--host", "h.json", "--input=x=1", "-", "--input", "y=2", "--json", "-ofile", "b"), {
    positionals: ["a.json", "-", "b"],
    values: { "--host": "h.json", "--input": "y=2", "-o": "file" },
    repeated: { "--host": ["h.json"], "--input": ["x=1", "y=2"], "-o": ["file"] },
    flags: ["--json"],
  });
});

test("after --, everything is a positional", () => {
  assert.deepEqual(read("--", "--json", "-h"), { positionals: ["--json", "-h"], values: {}, repeated: {}, flags: [] });
});

test("a value option takes the next argument even when it starts with a dash", () => {
  assert.deepEqual(read("--host", "--json"), {
    positionals: [],
    values: { "--host": "--json" },
    repeated: { "--host": ["--json"] },
    flags: [],
  });
});

test("each mistake has its own message", () => {
  assert.equal(read("--bogus"), "unknown option --bogus");
  assert.equal(read("--bogus=1"), "unknown option --bogus");
  assert.equal(read("-x"), "unknown option -x");
  assert.equal(read("plan.json", "--host"), "--host needs a FILE");
  assert.equal(read("--host="), "--host needs a FILE");
  assert.equal(read("--input"), "--input needs NAME=PATH");
  assert.equal(read("--json=yes"), "--json takes no value");
  assert.deepEqual(read("--input="), {
    positionals: [],
    values: { "--input": "" },
    repeated: { "--input": [""] },
    flags: [],
  });
});

test("check, estimate and graph read their options with it", () => {
  assert.deepEqual(parseArgs(["check", "--watch=1", "a.json"]), { kind: "usage", message: "--watch takes no value" });
  assert.deepEqual(parseArgs(["estimate", "a.json", "--format", "json"]), {
    kind: "usage",
    message: "unknown option --format",
  });
  assert.deepEqual(parseArgs(["check", "a.json", "--host"]), { kind: "usage", message: "--host needs a value" });
  assert.deepEqual(parseGraphArgs(["-o", "out.svg", "plan.json"]), {
    kind: "graph",
    file: "plan.json",
    format: "svg",
    output: "out.svg",
    collapseDepth: undefined,
    capabilities: undefined,
    budget: undefined,
    host: undefined,
  });
});
