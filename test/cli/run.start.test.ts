// What `rlm-plan run` does before its first step, as the bin (the bundle) runs it: whether tools
// can be sandboxed is asked of bubblewrap once, in the background while the run opens its journal,
// checks the plan and builds the host, never by a synchronous child process that holds the start
// (bench/history, "The CLI's start"); and not at all when the profile starts no tool process.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CLI_BIN, cliWorkspace } from "../support/cliWorkspace";

const ws = cliWorkspace("run-start");
ws.write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(echo)"],
    tools: { echo: { type: "command", command: ["sh", "-c", "cat > /dev/null; echo 7"] } },
  }),
);
ws.write(
  "p.rlmplan.json",
  '{"steps": [{"op": "tool", "name": "echo", "args": {}, "bind": "r"}, {"op": "final", "value": {"ref": "var", "name": "r"}}]}\n',
);
/** A bubblewrap that cannot make namespaces, and counts how often it is asked. */
const asked = join(ws.dir, "asked.txt");
const bwrap = ws.write(
  "fake-bwrap.sh",
  `#!/bin/sh\necho asked >> '${asked}'\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n`,
);
chmodSync(bwrap, 0o755);
/** Preloaded into the CLI: each spawnSync it makes, by program, one a line; at exit, Node's modules it loaded. */
const syncSpawns = join(ws.dir, "sync-spawns.txt");
const builtins = join(ws.dir, "builtins.txt");
const hook = ws.write(
  "hook.js",
  `const cp = require("node:child_process"); const fs = require("node:fs"); const spawnSync = cp.spawnSync;
cp.spawnSync = function (file, ...rest) { fs.appendFileSync(${JSON.stringify(syncSpawns)}, file + "\\n"); return spawnSync.call(this, file, ...rest); };
process.on("exit", () => fs.writeFileSync(${JSON.stringify(builtins)}, process.moduleLoadList.join("\\n")));`,
);
/** Whether the CLI's last process loaded Node's module `name` (the hook loads child_process itself). */
const loaded = (name: string) => lines(builtins).includes(`NativeModule ${name}`);

/** The same plan under a profile whose tools are built in: nothing to sandbox. */
ws.write(
  "builtin/rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(echo)"],
    tools: { echo: { type: "builtin", builtin: "count_items" } },
  }),
);
ws.write(
  "builtin/p.rlmplan.json",
  '{"steps": [{"op": "tool", "name": "echo", "args": [1, 2], "bind": "r"}, {"op": "final", "value": {"ref": "var", "name": "r"}}]}\n',
);

function run(cwd: string) {
  writeFileSync(asked, "");
  writeFileSync(syncSpawns, "");
  return spawnSync(process.execPath, ["-r", hook, CLI_BIN, "run", "p.rlmplan.json", "--no-journal"], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", RLM_PLAN_BWRAP: bwrap },
  });
}

function lines(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

test("a run asks bubblewrap once, without a synchronous child process, and says its answer once, before its steps", () => {
  const ran = run(ws.dir);
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "7\n");
  const said = ran.stderr.split("\n");
  assert.deepEqual(
    said.filter((line) => line.startsWith("rlm-plan: note: ")),
    [
      'rlm-plan: note: tools run without a sandbox: bubblewrap cannot make a sandbox here: No permissions to create new namespace (set "sandbox": "required" in the host profile to refuse instead)',
    ],
  );
  assert.deepEqual(
    said.slice(0, 3).map((line) => line.replace(/\s+\d+ ms$/, "")),
    [
      "rlm-plan: host profile rlmplan.host.json",
      'rlm-plan: note: tools run without a sandbox: bubblewrap cannot make a sandbox here: No permissions to create new namespace (set "sandbox": "required" in the host profile to refuse instead)',
      "  1  tool(echo)  -> r  ok",
    ],
  );
  assert.deepEqual(lines(asked), ["asked"]);
  assert.deepEqual(lines(syncSpawns), []);
});

test("a run whose profile starts no tool process asks bubblewrap nothing; --no-journal loads no journal", () => {
  const ran = run(join(ws.dir, "builtin"));
  assert.equal(ran.status, 0, ran.stderr);
  assert.equal(ran.stdout, "2\n");
  assert.doesNotMatch(ran.stderr, /sandbox/);
  assert.deepEqual(lines(asked), []);
  assert.deepEqual(lines(syncSpawns), []);
  // The journal's recorder and its run keys are what need node:crypto in a run without contexts.
  assert.equal(loaded("crypto"), false);
});
