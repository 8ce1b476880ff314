// What `rlm-plan check` writes when stdout is a pipe, now that the short commands write with
// fs.writeSync instead of Node's streams (cli/src/directOutput.ts): a reader gone before the
// output costs no error, a slow reader still gets every byte in order, and a pipe another process
// made non-blocking (the write would block: EAGAIN) gets the rest through Node's stream.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, test } from "node:test";
import { CLI_BIN } from "../support/cliWorkspace";

const NOTE = "rlm-plan: no host profile (rlmplan.host.json) found: capabilities, tools and providers not checked\n";
let dir = "";
let expected = "";

before(() => {
  dir = mkdtempSync(join(tmpdir(), "rlm-plan-output-pipes-"));
  // 3,000 unbound variables: about 470 KB of problem lines, more than a pipe or socket holds.
  const steps: unknown[] = Array.from({ length: 3000 }, (_, i) => ({
    op: "tool",
    name: "count_items",
    args: { ref: "var", name: `missing_${i}` },
    bind: `v${i}`,
  }));
  steps.push({ op: "final", value: { ref: "var", name: "v0" } });
  writeFileSync(join(dir, "many.rlmplan.json"), JSON.stringify({ steps }, null, 1));
  const file = spawnSync(process.execPath, [CLI_BIN, "check", "many.rlmplan.json"], {
    cwd: dir,
    env: env(),
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  assert.equal(file.status, 1, file.stderr);
  expected = file.stdout;
  assert.ok(expected.length > 400_000, `${expected.length} bytes`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

function env(): NodeJS.ProcessEnv {
  return { ...process.env, NO_COLOR: "1", RLM_PLAN_CODE_CACHE: "off" };
}

/** The command's exit status, stdout and stderr, stdout read only after `wait` ms when given. */
async function checked(
  args: readonly string[],
  options: { readonly closeStdout?: boolean; readonly wait?: number } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: dir, env: env(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  if (options.closeStdout) child.stdout.destroy();
  else {
    child.stdout.pause();
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    await sleep(options.wait ?? 0);
    child.stdout.resume();
  }
  const status = await new Promise<number | null>((done) => child.on("close", done));
  return { status, stdout, stderr };
}

describe("rlm-plan check writing to a pipe", () => {
  test("a reader gone before the output: no error, the check's own status", async () => {
    const result = await checked([CLI_BIN, "check", "many.rlmplan.json"], { closeStdout: true });
    assert.deepEqual([result.status, result.stderr], [1, NOTE]);
  });

  test("a reader slower than the output: every byte, in order", async () => {
    const result = await checked([CLI_BIN, "check", "many.rlmplan.json"], { wait: 1500 });
    assert.equal(result.status, 1);
    assert.equal(result.stderr, NOTE);
    assert.equal(result.stdout.length, expected.length);
    assert.equal(result.stdout, expected);
  });

  test("a non-blocking pipe that fills up: the rest through Node's stream, every byte in order", async () => {
    // Node opens a pipe non-blocking when it creates process.stdout on it, as a parent sharing it would.
    const wrapper = `process.stdout; process.argv.splice(1, 0, ${JSON.stringify(CLI_BIN)}); require(${JSON.stringify(CLI_BIN)});`;
    const result = await checked(["-e", wrapper, "check", "many.rlmplan.json"], { wait: 1500 });
    assert.equal(result.status, 1);
    assert.equal(result.stderr, NOTE);
    assert.equal(result.stdout.length, expected.length);
    assert.equal(result.stdout, expected);
  });
});
