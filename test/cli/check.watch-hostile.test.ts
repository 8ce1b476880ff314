// `rlm-plan check` and `check --watch` on hostile trees, through the built CLI in a child process:
// a folder the walk cannot read is warned about (located, once, also across the watch's checks)
// instead of skipped silently; Ctrl-C during a long first check ends it at once (exit 130, no
// process left) instead of after the whole check.
//
// Tests run as root, which reads every folder whatever its mode (no EACCES), so the unreadable
// folder is one whose path is longer than PATH_MAX (4,096 bytes): readdir fails with
// ENAMETOOLONG, the same failure branch of the walk as a folder without read permission.
// The long first check has 2,000 plans; RLM_PLAN_HOSTILE=1 makes it the 50,000.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CLI, cliWorkspace } from "../support/cliWorkspace";

const { dir, write, cli } = cliWorkspace("check-watch-hostile");

const PLAN = '{ "steps": [{ "op": "final", "value": 1 }] }\n';
/** 17 folders of 250 characters below "long": the 17th's path is over PATH_MAX. */
const SEGMENT = "d".repeat(250);
const LONG_FOLDER = ["long", ...Array.from({ length: 17 }, () => SEGMENT)].join("/");

// mkdir with the whole path fails past PATH_MAX (and so does a shell's cd): a child Node makes
// one folder at a time, changing into each by its short relative name.
write("long/a.rlmplan.json", PLAN);
const made = spawnSync(
  process.execPath,
  ["-e", `for (let i = 0; i < 17; i++) { require("fs").mkdirSync("${SEGMENT}"); process.chdir("${SEGMENT}"); }`],
  { cwd: join(dir, "long"), encoding: "utf8" },
);
assert.equal(made.status, 0, made.stderr);
const WARNING = `rlm-plan: warning: ${LONG_FOLDER}: cannot read this folder (ENAMETOOLONG); the plans below it are not checked\n`;

/** The CLI as a child: its output so far, a wait for a condition on it, and its exit. */
function watched(args: readonly string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exit = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  const until = async (predicate: () => boolean, what: string) => {
    for (let i = 0; i < 1200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(predicate(), `timed out waiting for ${what}: ${output.stdout} / ${output.stderr}`);
  };
  return { child, output, exit, until };
}

test("check: a folder it cannot read is warned about, located, and the rest is checked", () => {
  const run = cli("check", "long", "--capabilities", "");
  assert.equal(run.stderr, WARNING);
  assert.equal(run.stdout, "long/a.rlmplan.json: ok (1 step)\n");
  assert.equal(run.code, 0);
});

test("check --watch: the unreadable folder is warned about once, across checks", async () => {
  const { child, output, exit, until } = watched(["check", "long", "--watch", "--capabilities", ""]);
  await until(() => output.stderr.includes("watching for changes"), "the first check");
  writeFileSync(join(dir, "long/a.rlmplan.json"), PLAN.replace("1 }", "2 }"));
  await until(() => output.stdout.split("ok (1 step)").length === 3, "the second check");
  child.kill("SIGINT");
  assert.equal(await exit, 0);
  assert.equal(output.stderr.split(WARNING).length - 1, 1, output.stderr);
  assert.equal(output.stderr.startsWith(WARNING), true, output.stderr);
});

test("check --watch: Ctrl-C during a long first check ends it at once, exit 130, no process left", async () => {
  const plans = process.env.RLM_PLAN_HOSTILE === "1" ? 50_000 : 2_000;
  for (let i = 0; i < plans; i++) write(`many/f${i % 100}/p${i}.rlmplan.json`, PLAN);
  const { child, output, exit, until } = watched(["check", "many", "--watch"]);
  // Said when the first plan is checked (there is no host profile): the check is under way.
  await until(() => output.stderr.includes("no host profile"), "the first plan checked");
  child.kill("SIGINT");
  assert.equal(await exit, 130);
  const stopped = /rlm-plan: check stopped after (\d+) of (\d+) files\n/.exec(output.stderr);
  assert.ok(stopped, output.stderr);
  assert.equal(Number(stopped[2]), plans);
  assert.ok(Number(stopped[1]) < plans, `stopped after ${stopped[1]} of ${plans}`);
  assert.equal(output.stdout, "", "nothing of the stopped check is printed");
  assert.doesNotMatch(output.stderr, /watching for changes/);
  assert.throws(() => process.kill(child.pid as number, 0), { code: "ESRCH" });
});
