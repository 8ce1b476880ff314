// The CLI_BIN's help as a user reads it (the real process): each command's own usage line is the one
// the top-level usage shows, and `estimate --help` is estimate's help, not the global one.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { CLI_BIN } from "../support/cliWorkspace";

const help = (...args: string[]) => spawnSync(process.execPath, [CLI_BIN, ...args], { encoding: "utf8" });

/** The first line of a help's usage, without "usage: ". */
function usageLine(text: string): string {
  const line = text.split("\n").find((l) => l.startsWith("usage: "));
  assert.ok(line, text);
  return line.slice("usage: ".length);
}

test("every command's usage line is in the top-level usage", () => {
  const top = help("--help").stdout;
  for (const command of ["estimate", "graph", "run", "propose"]) {
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
