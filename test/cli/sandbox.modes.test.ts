// The profile's `sandbox` setting as a user meets it through the CLI: "preferred" where no sandbox
// can be made runs and says so once (run) and in `check --preflight`; "off" says nothing; a
// `writes` path outside the workspace is an error of the profile, located at its string.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { sandboxAvailability } from "@rlm-plan/core/host";
import { CLI, cliWorkspace } from "../support/cliWorkspace";

const ws = cliWorkspace("sandbox-modes");
const NONE = { RLM_PLAN_BWRAP: "/nonexistent/bwrap" };
const NOTE =
  'tools run without a sandbox: RLM_PLAN_BWRAP names "/nonexistent/bwrap", which is not an executable file (set "sandbox": "required" in the host profile to refuse instead)';

function workspace(name: string, profile: Record<string, unknown>): string {
  const folder = join(ws.dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["tool(echo)"],
      tools: { echo: { type: "command", command: ["sh", "-c", "cat > /dev/null; echo 7"] } },
      ...profile,
    }),
  );
  writeFileSync(
    join(folder, "p.rlmplan.json"),
    '{"steps": [{"op": "tool", "name": "echo", "args": {}, "bind": "r"}, {"op": "final", "value": {"ref": "var", "name": "r"}}]}\n',
  );
  return folder;
}

function cli(cwd: string, env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('"preferred" where no sandbox can be made: the run goes on and says so once', () => {
  const folder = workspace("preferred", {});
  const ran = cli(folder, NONE, "run", "p.rlmplan.json", "--no-journal");
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(ran.stdout, "7\n");
  const notes = ran.stderr.split("\n").filter((line) => line.startsWith("rlm-plan: note: "));
  assert.deepEqual(notes, [`rlm-plan: note: ${NOTE}`]);
  const checked = cli(folder, NONE, "check", "--preflight", "p.rlmplan.json");
  assert.equal(checked.code, 0, checked.stderr);
  assert.equal(
    checked.stderr,
    `rlm-plan: preflight of p.rlmplan.json: no MCP server to start\nrlm-plan: preflight of p.rlmplan.json: ${NOTE}\n` +
      "rlm-plan: no rlmplan.lock.json: run rlm-plan lock to pin tools\n",
  );
});

test('"off": no sandbox and nothing said about one', () => {
  const folder = workspace("off", { sandbox: "off" });
  const ran = cli(folder, NONE, "run", "p.rlmplan.json", "--no-journal");
  assert.equal(ran.code, 0, ran.stderr);
  assert.doesNotMatch(ran.stderr, /sandbox/);
});

test("a writes path outside the workspace is an error of the profile, at its string", () => {
  const folder = workspace("outside", {
    tools: { echo: { type: "command", command: ["sh", "-c", "echo 7"], writes: ["out", "../elsewhere"] } },
  });
  mkdirSync(join(folder, "out"));
  const checked = cli(folder, {}, "check", "p.rlmplan.json");
  assert.equal(checked.code, 1);
  const located = checked.stdout
    .split("\n")
    .concat(checked.stderr.split("\n"))
    .find((line) => line.includes("../elsewhere"));
  assert.match(
    located ?? "",
    /^rlmplan\.host\.json:1:\d+: error: "\.\.\/elsewhere" is outside the workspace \(.+\): a path in a workspace file must stay in the folder of the host profile or of the repository; allow an outside folder with --allow-path DIR/,
  );
});

test("a tool that writes what it did not declare fails with what to declare", { skip: sandboxSkip() }, () => {
  const folder = workspace("undeclared", {
    tools: { echo: { type: "command", command: ["sh", "-c", "cat > /dev/null; echo x > out.txt && echo 7"] } },
  });
  const ran = cli(folder, {}, "run", "p.rlmplan.json", "--no-journal");
  assert.equal(ran.code, 1);
  assert.match(
    ran.stderr,
    /tool "echo" failed: exited with status \d+: \S*sh: 1: cannot create out\.txt: Read-only file system \(it ran in its sandbox, where the workspace is read-only: list the paths it writes in its "writes"\)/,
  );
});

/** Skipped only where no sandbox can be made and this is not CI (CI installs bubblewrap). */
function sandboxSkip(): string | false {
  const available = sandboxAvailability();
  return available.available || process.env.CI === "true" ? false : `no sandbox here: ${available.reason}`;
}

test(
  "the sandbox's memory limit: a tool that allocates past it is killed and the run says why; off, it runs",
  {
    skip: sandboxAvailability().available ? false : process.env.CI === "true" ? false : "no sandbox here",
  },
  () => {
    // 2.25 GiB in 64 MiB pieces, each touched: over the 2 GiB limit (resourceLimits.ts).
    const hog =
      "const a = []; for (let i = 0; i < 36; i++) a.push(Buffer.alloc(64 * 1048576, 1)); console.log(a.length)";
    const tools = { echo: { type: "command", command: [process.execPath, "-e", hog] } };
    // Writing 2 GiB takes seconds on a loaded machine: the run's time limit must not come first.
    const budget = { time_limit: 120 };
    const sandboxed = workspace("memory-required", { sandbox: "required", tools, budget });
    const killed = cli(sandboxed, {}, "run", "p.rlmplan.json", "--no-journal");
    assert.equal(killed.code, 1, killed.stderr);
    assert.equal(
      killed.stderr.split("\n").find((line) => line.includes("run failed")),
      `p.rlmplan.json:1:12: run failed: tool "echo" failed: went over the sandbox's memory limit of 2048 MiB (with everything it started) and was killed [execute/tool_error]`,
    );
    const off = workspace("memory-off", { sandbox: "off", tools, budget });
    const ran = cli(off, {}, "run", "p.rlmplan.json", "--no-journal");
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, "36\n");
  },
);
