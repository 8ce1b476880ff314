// `rlm-plan check` is static: in every format, and with --watch, it starts no program a host
// profile names (the CI gate runs on pull requests). A profile whose MCP server command writes a
// marker file and a plan calling its tool: plain check leaves no marker and says what it left
// to --preflight; `check --preflight` starts the server (the marker appears) and says so. And
// what such a server prints, a provider key included, reaches no format of check in clear.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { CLI_BIN } from "../support/cliWorkspace";

const SENTINEL = "sk-SENTINEL-check-7f3a9c2e";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-check-static-"));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function rlmPlan(cwd: string, args: readonly string[], untilStderr?: RegExp): Promise<Ran> {
  return new Promise((done) => {
    const env = { ...process.env, NO_COLOR: "1", RLM_PLAN_SENTINEL_API_KEY: SENTINEL };
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      if (untilStderr?.test(stderr)) child.kill("SIGINT");
    });
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** A workspace whose MCP server writes `marker` (and, with `leak`, prints the key and fails). */
function workspace(name: string, leak = false): string {
  const folder = join(dir, name);
  mkdirSync(folder);
  const script = leak ? `touch marker; echo "cannot start: ${SENTINEL}" >&2; exit 3` : "touch marker; exit 3";
  writeFileSync(
    join(folder, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["tool(x.y)"],
      // It writes its marker into the workspace: in the sandbox, a path it declares.
      mcpServers: { x: { command: "sh", args: ["-c", script], writes: ["."] } },
    }),
  );
  writeFileSync(
    join(folder, "p.rlmplan.json"),
    '{"steps": [{"op": "tool", "name": "x.y", "args": {}, "bind": "r"}, {"op": "final", "value": 1}]}\n',
  );
  return folder;
}

const FORMATS = ["text", "json", "sarif", "github"] as const;

for (const format of FORMATS) {
  test(`check --format ${format} starts no MCP server and says what it left to --preflight`, async () => {
    const folder = workspace(`plain-${format}`);
    const ran = await rlmPlan(folder, ["check", "--format", format, "p.rlmplan.json"]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(existsSync(join(folder, "marker")), false, "check started the profile's MCP server");
    assert.match(ran.stdout + ran.stderr, /no program started; left to --preflight: MCP tool lists/);
  });
}

test("check --watch starts no MCP server", async () => {
  const folder = workspace("watch");
  const ran = await rlmPlan(folder, ["check", "--watch", "p.rlmplan.json"], /watching for changes/);
  assert.match(ran.stderr, /watching for changes/);
  assert.equal(existsSync(join(folder, "marker")), false, "check --watch started the profile's MCP server");
});

for (const format of FORMATS) {
  test(`check --preflight --format ${format} starts the server, says so, and masks the key it printed`, async () => {
    const folder = workspace(`preflight-${format}`, true);
    const ran = await rlmPlan(folder, ["check", "--preflight", "--format", format, "p.rlmplan.json"]);
    assert.equal(ran.code, 1, ran.stderr);
    assert.equal(existsSync(join(folder, "marker")), true, "check --preflight did not start the MCP server");
    const output = ran.stdout + ran.stderr;
    assert.match(output, /started MCP server \\?"x\\?" to list tools, then stopped/);
    assert.match(output, /MCP server \\?"x\\?" could not be started/);
    assert.match(output, /cannot start: \*\*\*/);
    assert.ok(!output.toLowerCase().includes("sentinel"), `the key leaked: ${output}`);
  });
}
