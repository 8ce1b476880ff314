// The output sink (cli/src/sink.ts) at the boundary users meet it, the built CLI as a child
// process: a test case named to inject a workflow command (`x\n::error file=X::...`) starts no
// line with `::` in `test`, `test --list`, `runs list` and `runs show`, while --format github
// still writes its own escaped annotation and --format json keeps the raw name; and a key that is
// written in the plan text itself is masked by `estimate` (text and --json) and `graph` (SVG, DOT,
// Mermaid, and --output FILE), as every other command masks it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CLI, cliWorkspace } from "../support/cliWorkspace";

const { dir, write, cli } = cliWorkspace("output-sink");

const NAME = "x\n::error file=X::pwned";
const ESCAPED = String.raw`x\n::error file=X::pwned`;
write("rlmplan.host.json", JSON.stringify({ capabilities: [] }));
write("p.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: 2 }] }));
write(
  "t.rlmplan.test.json",
  JSON.stringify({ plan: "p.rlmplan.json", cases: [{ name: NAME, expect: { value: { equals: 1 } } }] }),
);

/** Lines a GitHub runner would run as workflow commands (it trims leading whitespace first). */
function commandLines(output: string): string[] {
  return output.split("\n").filter((line) => /^\s*::/.test(line));
}

test("`test` (text): the case's name stays in its line, no line starts with ::", () => {
  const run = cli("test", "t.rlmplan.test.json");
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(commandLines(run.stdout + run.stderr), []);
  const lines = run.stdout.split("\n");
  assert.match(lines[0] ?? "", new RegExp(`^FAIL  t\\.rlmplan\\.test\\.json#${escapeRegExp(ESCAPED)}  \\(\\d+ ms\\)$`));
  assert.equal(lines[1], "      t.rlmplan.test.json:1:35: value: expected 1, got 2");
  assert.equal(lines[4], `  t.rlmplan.test.json#${ESCAPED}`);
});

test("`test --list`: one line for the case, its name escaped", () => {
  const run = cli("test", "t.rlmplan.test.json", "--list");
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(commandLines(run.stdout + run.stderr), []);
  assert.equal(
    run.stdout.split("\n")[0],
    `t.rlmplan.test.json:1  t.rlmplan.test.json#${ESCAPED}  1 step, 0 model calls, 0 tool calls, 0 context ops  (live)`,
  );
});

test("`runs list` and `runs show`: the case's label escaped in its column and its header", () => {
  const list = cli("runs", "list");
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(commandLines(list.stdout + list.stderr), []);
  const rows = list.stdout.trimEnd().split("\n");
  assert.ok(rows.length >= 2, list.stdout);
  for (const row of rows.slice(1)) assert.ok(row.endsWith(`test t.rlmplan.test.json#${ESCAPED}`), row);
  const show = cli("runs", "show", "1");
  assert.equal(show.code, 0, show.stderr);
  assert.deepEqual(commandLines(show.stdout + show.stderr), []);
  assert.equal(show.stdout.split("\n")[0], `run 1  ok  from test t.rlmplan.test.json#${ESCAPED}`);
});

test("--format github: our one annotation, the name escaped inside it; --format json: the raw name", () => {
  const github = cli("test", "t.rlmplan.test.json", "--format", "github", "--no-journal");
  assert.equal(github.code, 1, github.stderr);
  assert.deepEqual(commandLines(github.stdout + github.stderr), [
    "::error file=t.rlmplan.test.json,line=1,col=35,title=rlm-plan test%3A t.rlmplan.test.json#x%0A%3A%3Aerror file=X%3A%3Apwned::value: expected 1, got 2",
  ]);
  const json = cli("test", "t.rlmplan.test.json", "--format", "json", "--no-journal");
  assert.equal(json.code, 1, json.stderr);
  assert.deepEqual(commandLines(json.stdout), []);
  const report = JSON.parse(json.stdout) as { cases: { id: string; name: string }[] };
  assert.equal(report.cases[0]?.name, NAME);
  assert.equal(report.cases[0]?.id, `t.rlmplan.test.json#${NAME}`);
});

test("--format junit: the name is an XML attribute, no line starts with ::", () => {
  const junit = cli("test", "t.rlmplan.test.json", "--format", "junit", "--no-journal");
  assert.equal(junit.code, 1, junit.stderr);
  assert.deepEqual(commandLines(junit.stdout), []);
  assert.ok(junit.stdout.includes('<testcase name="x&#10;::error file=X::pwned"'), junit.stdout);
});

// A key as a variable's name: the unbound_variable error quotes it, the graph's labels show its start.
const KEY = "sklive9f8e7d6c5b4a39281706f5e4d3c2b1a0";
write("k.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: { ref: "var", name: KEY } }] }));
// As a tool's name: every format's node label shows the start of it.
write(
  "g.rlmplan.json",
  JSON.stringify({
    steps: [
      { op: "tool", name: KEY, args: {}, bind: "r" },
      { op: "final", value: { ref: "var", name: "r" } },
    ],
  }),
);

/** The CLI with a secret-named variable holding the key (the environment masks are built from). */
function withKey(...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, NO_COLOR: "1", OPENAI_API_KEY: KEY },
  });
  const output = run.stdout + run.stderr;
  // Any 12 letters of the key in a row would be a leak: the mask matches on those too.
  assert.ok(!output.includes(KEY.slice(0, 12)) && !output.includes(KEY.slice(-12)), output);
  return run;
}

test("estimate masks a key written in the plan, in text and in --json", () => {
  const text = withKey("estimate", "k.rlmplan.json");
  assert.equal(text.status, 1);
  assert.equal(
    text.stdout.split("\n")[0],
    'k.rlmplan.json:1:53: error: variable "***" is not bound here: bind it in an earlier step of this plan or an enclosing one [unbound_variable]',
  );
  const json = withKey("estimate", "k.rlmplan.json", "--json");
  const parsed = JSON.parse(json.stdout) as { problems: { message: string }[] };
  assert.equal(
    parsed.problems[0]?.message,
    'variable "***" is not bound here: bind it in an earlier step of this plan or an enclosing one',
  );
});

test("graph masks a key written in the plan in every format, and in --output FILE", () => {
  for (const format of ["svg", "dot", "mermaid"]) {
    const run = withKey("graph", "g.rlmplan.json", "--format", format);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.stdout.includes("tool(***"), `${format}: ${run.stdout}`);
  }
  const run = withKey("graph", "g.rlmplan.json", "--format", "dot", "--output", "k.dot");
  assert.equal(run.status, 0, run.stderr);
  const file = readFileSync(join(dir, "k.dot"), "utf8");
  assert.ok(file.includes("tool(***") && !file.includes(KEY.slice(0, 12)), file);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
