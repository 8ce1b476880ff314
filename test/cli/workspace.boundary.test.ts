// The workspace boundary at the CLI (issue 33): a pull request's host profile or test file that
// names a file outside the workspace (/etc/passwd, ../../../x.jsonl, a symlink that leads out,
// .git/config) is refused by `run`, `check --preflight` and `test --replay` with the located
// error, and what that file holds is never printed; paths inside still work, and --allow-path
// lets the outside one through.

import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace, runCli, type CliRun } from "../support/cliWorkspace";

const OUTSIDE_TEXT = "OUTSIDE-SECRET-7f3a";
const HINT =
  "allow an outside folder with --allow-path DIR on the command line or rlmPlan.allowPaths in the user settings";

// <dir>/secret.txt and <dir>/x.jsonl lie outside every workspace below, which are <dir>/a/<name>.
const root = cliWorkspace("boundary");
root.write("secret.txt", `${OUTSIDE_TEXT}\n`);
root.write("x.jsonl", `{"q": "${OUTSIDE_TEXT}"}\n`);

/** A plan that searches its text-file input `doc` and returns the lines with an "a" (the content, if read). */
const SEARCH_PLAN = `{"steps": [
  {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "a"}, "bind": "lines"},
  {"op": "final", "value": {"ref": "var", "name": "lines"}}
]}`;
const CASES = JSON.stringify({
  plan: "../plans/p.rlmplan.json",
  mocks: {},
  cases: [{ name: "reads", expect: { value: { equals: [] } } }],
});

/** A workspace <dir>/a/<name> whose profile's input `doc` is the text file `path`. */
function workspace(name: string, path: string): string {
  const dir = join("a", name);
  root.write(
    join(dir, "rlmplan.host.json"),
    `{\n  "capabilities": ["context(search)"],\n  "inputs": { "doc": { "type": "text-file", "path": ${JSON.stringify(path)} } }\n}\n`,
  );
  root.write(join(dir, "plans", "p.rlmplan.json"), SEARCH_PLAN);
  root.write(join(dir, "tests", "t.rlmplan.test.json"), CASES);
  root.write(join(dir, "data", "notes.txt"), "a note inside\n");
  return join(root.dir, dir);
}

/** The value of `run --json`'s result line (its last). */
function resultValue(run: CliRun): unknown {
  return (JSON.parse(run.stdout.trimEnd().split("\n").pop() as string) as { value: unknown }).value;
}

function neverShown(run: CliRun, secret: string): void {
  assert.ok(!run.stdout.includes(secret), run.stdout);
  assert.ok(!run.stderr.includes(secret), run.stderr);
}

/** `run`, `check --preflight` and `test --replay` in `dir`, each refused with `error` on stderr. */
function refusedEverywhere(dir: string, error: string, secret: string): void {
  const ran = runCli(dir, ["run", "plans/p.rlmplan.json", "--no-journal"]);
  assert.deepEqual([ran.code, ran.stdout], [2, ""]);
  assert.deepEqual(ran.stderr.split("\n").slice(0, 2), ["rlm-plan: host profile rlmplan.host.json", error]);
  neverShown(ran, secret);

  const gate = runCli(dir, ["check", "--preflight", "plans/p.rlmplan.json"]);
  assert.deepEqual([gate.code, gate.stdout, gate.stderr], [1, "", `${error.replace(": ", ": error: ")}\n`]);
  neverShown(gate, secret);

  const replay = runCli(dir, ["test", "--replay", "tests"]);
  assert.deepEqual([replay.code, replay.stdout], [2, ""]);
  assert.deepEqual(replay.stderr.trimEnd().split("\n"), [
    error.replace(": ", ": error: "),
    "rlm-plan: 1 problem in the test files; nothing ran",
  ]);
  neverShown(replay, secret);
}

describe("the workspace boundary: paths in workspace files", () => {
  test("a host profile's text-file input /etc/passwd is refused, located at the string", () => {
    const dir = workspace("passwd", "/etc/passwd");
    refusedEverywhere(
      dir,
      `rlmplan.host.json:3:53: "/etc/passwd" is outside the workspace (.): a path in a workspace file must stay in the folder of the host profile or of the repository; ${HINT}`,
      "root:",
    );
  });

  test("a symlink inside the workspace that leads outside is refused, naming where it leads", () => {
    const dir = workspace("link", "data/link.txt");
    symlinkSync(join(root.dir, "secret.txt"), join(dir, "data", "link.txt"));
    refusedEverywhere(
      dir,
      `rlmplan.host.json:3:53: "data/link.txt" leads to ${join(root.dir, "secret.txt")}, which is outside the workspace (.): a path in a workspace file must stay in the folder of the host profile or of the repository; ${HINT}`,
      OUTSIDE_TEXT,
    );
  });

  test(".git/config inside the repository is refused too", () => {
    const dir = workspace("git", ".git/config");
    root.write(
      join("a", "git", ".git", "config"),
      `[remote "origin"]\n\turl = https://${OUTSIDE_TEXT}@example.invalid/\n`,
    );
    refusedEverywhere(
      dir,
      `rlmplan.host.json:3:53: ".git/config" is inside a repository's .git folder, which no workspace file may name; ${HINT}`,
      OUTSIDE_TEXT,
    );
  });

  test("a test file's dataset ../../../x.jsonl is refused by test --replay and test --list, located", () => {
    const dir = workspace("dataset", "data/notes.txt");
    root.write(
      join("a", "dataset", "tests", "t.rlmplan.test.json"),
      `{\n  "plan": "../plans/p.rlmplan.json",\n  "mocks": {},\n  "dataset": { "file": "../../../x.jsonl" }\n}\n`,
    );
    const error = `tests/t.rlmplan.test.json:4:24: error: "../../../x.jsonl" is outside the workspace (.): a path in a workspace file must stay in the folder of the host profile or of the repository; ${HINT}`;
    for (const args of [
      ["test", "--replay", "tests"],
      ["test", "--list", "tests"],
    ]) {
      const run = runCli(dir, args);
      assert.deepEqual([run.code, run.stdout], [2, ""], args.join(" "));
      assert.deepEqual(run.stderr.trimEnd().split("\n"), [error, "rlm-plan: 1 problem in the test files; nothing ran"]);
      neverShown(run, OUTSIDE_TEXT);
    }
  });

  test("paths inside the workspace still work: a text-file input and a dataset beside the test file", () => {
    const dir = workspace("inside", "data/notes.txt");
    const ran = runCli(dir, ["run", "plans/p.rlmplan.json", "--no-journal", "--json"]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(resultValue(ran), [{ index: 0, value: "a note inside" }]);
    const gate = runCli(dir, ["check", "--preflight", "plans/p.rlmplan.json"]);
    assert.deepEqual([gate.code, gate.stdout], [0, "plans/p.rlmplan.json: ok (2 steps)\n"]);
    // The same workspace reached through a link above it: its paths are still inside.
    symlinkSync(dir, join(root.dir, "linked"));
    const linked = runCli(join(root.dir, "linked"), ["run", "plans/p.rlmplan.json", "--no-journal", "--json"]);
    assert.deepEqual([linked.code, resultValue(linked)], [0, [{ index: 0, value: "a note inside" }]]);
    root.write(join("a", "inside", "tests", "rows.jsonl"), `{"q": 1}\n`);
    root.write(
      join("a", "inside", "tests", "t.rlmplan.test.json"),
      JSON.stringify({
        plan: "../plans/p.rlmplan.json",
        mocks: {},
        dataset: { file: "rows.jsonl", expect: { value: { equals: [{ index: 0, value: "a note inside" }] } } },
      }),
    );
    const replay = runCli(dir, ["test", "--replay", "tests", "--no-journal"]);
    assert.equal(replay.code, 0, replay.stderr + replay.stdout);
    assert.deepEqual(replay.stdout.replace(/\(\d+ ms\)|\d+\.\d s/g, "T").split("\n"), [
      "pass  tests/t.rlmplan.test.json#rows.jsonl:1  T",
      "1 passed, 0 failed (1 case, T)",
      "",
    ]);
  });

  test("--allow-path lets an outside folder through, for that command only", () => {
    const dir = workspace("allowed", "../../secret.txt");
    const ran = runCli(dir, ["run", "plans/p.rlmplan.json", "--no-journal", "--json", "--allow-path", root.dir]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(resultValue(ran), [{ index: 0, value: OUTSIDE_TEXT }]);
    const gate = runCli(dir, ["check", "--preflight", `--allow-path=${root.dir}`, "plans/p.rlmplan.json"]);
    assert.deepEqual([gate.code, gate.stdout], [0, "plans/p.rlmplan.json: ok (2 steps)\n"]);
    const again = runCli(dir, ["check", "--preflight", "plans/p.rlmplan.json"]);
    assert.equal(again.code, 1);
    const missing = runCli(dir, ["run", "plans/p.rlmplan.json", "--allow-path", join(root.dir, "nowhere")]);
    assert.deepEqual(
      [missing.code, missing.stdout, missing.stderr],
      [2, "", `rlm-plan: --allow-path ${join(root.dir, "nowhere")}: no such file or folder\nsee rlm-plan --help\n`],
    );
  });
});
