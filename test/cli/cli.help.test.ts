// The CLI_BIN's help as a user reads it (the real process): each command's own usage line is the one
// the top-level usage shows, every command answers COMMAND --help with its own help (`check` had the
// global one), the global help's first line names every command, and a usage mistake is one line
// about it and where help is, not the whole usage. The language server's binary answers too.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CLI_BIN, ROOT } from "../support/cliWorkspace";

const help = (...args: string[]) => spawnSync(process.execPath, [CLI_BIN, ...args], { encoding: "utf8" });

/** The first line of a help's usage, without "usage: ". */
function usageLine(text: string): string {
  const line = text.split("\n").find((l) => l.startsWith("usage: "));
  assert.ok(line, text);
  return line.slice("usage: ".length);
}

test("every command's usage line is in the top-level usage", () => {
  const top = help("--help").stdout;
  for (const command of ["estimate", "graph", "run", "propose", "lock"]) {
    const own = help(command, "--help");
    assert.equal(own.status, 0, own.stderr);
    const line = usageLine(own.stdout);
    assert.ok(line.startsWith(`rlm-plan ${command} `), line);
    assert.ok(top.includes(line), `the top-level usage lacks: ${line}`);
  }
});

test("estimate --help is estimate's own help", () => {
  const own = help("estimate", "--help");
  assert.equal(usageLine(own.stdout), "rlm-plan estimate FILE [--host FILE] [--budget JSON|default] [--json]");
  assert.notEqual(own.stdout, help("--help").stdout);
});

test("check --help is check's own help", () => {
  const own = help("check", "--help");
  assert.equal(own.status, 0, own.stderr);
  assert.equal(
    usageLine(own.stdout),
    "rlm-plan check PATH... [--host FILE] [--capabilities LIST] [--budget JSON|default]",
  );
  assert.notEqual(own.stdout, help("--help").stdout);
  assert.match(own.stdout, /^ {2}--preflight {13}also run each plan's preflight/m);
});

test("every command answers COMMAND --help with its own help, exit 0", () => {
  const top = help("--help").stdout;
  for (const command of "check estimate graph run runs ui propose test worker schedule lock".split(" ")) {
    const own = help(command, "--help");
    assert.equal(own.status, 0, `${command}: ${own.stderr}`);
    assert.equal(own.stderr, "", command);
    assert.notEqual(own.stdout, top, command);
    assert.match(own.stdout, new RegExp(`usage: rlm-plan ${command}\\b`), command);
  }
});

test("the global help's first line names every command, and its usage has test merge", () => {
  const top = help("--help");
  assert.equal(top.status, 0);
  const [first] = top.stdout.split("\n");
  assert.equal(
    first,
    "rlm-plan: check, estimate, graph, run, runs, ui, propose, test, worker, schedule and lock: typed LLM plans (*.rlmplan.json, JSON with comments)",
  );
  // Every command the usage shows is named on the first line.
  const used = new Set([...top.stdout.matchAll(/^ *(?:usage: )?rlm-plan (\w+)/gm)].map((m) => m[1]));
  for (const command of used)
    if (command !== "help") assert.match(first ?? "", new RegExp(`\\b${command}\\b`), command);
  assert.match(top.stdout, /^ {7}rlm-plan test merge REPORT\.json\.\.\. \[--format text\|json\|junit\|github\]$/m);
});

test("a bad --budget or an unknown command: one line about it and where help is, exit 2", () => {
  const cases: [string[], string][] = [
    [
      ["check", "x.rlmplan.json", "--budget", '{"max_steps": 0}'],
      "rlm-plan: --budget: max_steps must be a positive integer, got the number 0\nsee rlm-plan check --help\n",
    ],
    [
      ["estimate", "x.rlmplan.json", "--budget", "lots"],
      'rlm-plan: --budget: expected "default" or a JSON object: invalid JSON: invalid symbol at position 0\nsee rlm-plan estimate --help\n',
    ],
    [["lint", "x.rlmplan.json"], 'rlm-plan: unknown command "lint"\nsee rlm-plan --help\n'],
    [[], "rlm-plan: missing command\nsee rlm-plan --help\n"],
    [
      ["graph", "x.rlmplan.json", "--format", "png"],
      'rlm-plan: --format: expected svg, dot, mermaid or json, not "png"\nsee rlm-plan graph --help\n',
    ],
    [["run", "x.rlmplan.json", "--bogus"], "rlm-plan: unknown option --bogus\nsee rlm-plan run --help\n"],
    [["runs"], "rlm-plan: runs needs list, show, diff, export, prune, approve or deny\nsee rlm-plan runs --help\n"],
    [["test", "--jobs", "0"], "rlm-plan: --jobs needs a number from 1 to 256\nsee rlm-plan test --help\n"],
  ];
  for (const [args, stderr] of cases) {
    const run = help(...args);
    assert.equal(run.status, 2, args.join(" "));
    assert.equal(run.stdout, "", args.join(" "));
    assert.equal(run.stderr, stderr, args.join(" "));
  }
});

test("the language server answers --help and --version, exit 0", () => {
  const server = join(ROOT, "server", "bin", "rlm-plan-language-server.js");
  const own = spawnSync(process.execPath, [server, "--help"], { encoding: "utf8" });
  assert.equal(own.status, 0, own.stderr);
  assert.match(own.stdout, /^Usage: rlm-plan-language-server --stdio \| --node-ipc/);
  const version = spawnSync(process.execPath, [server, "--version"], { encoding: "utf8" });
  assert.equal(version.status, 0, version.stderr);
  assert.equal(
    version.stdout,
    `${(JSON.parse(readFileSync(join(ROOT, "server", "package.json"), "utf8")) as { version: string }).version}\n`,
  );
});
