// `rlm-plan ui` as a command: its usage errors, no journal to show, --host beyond loopback warned
// of, and Ctrl-C (SIGINT) stopping it with exit 0 and nothing left listening.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { CLI, cliWorkspace } from "../support/cliWorkspace";

describe("rlm-plan ui", () => {
  const ws = cliWorkspace("ui-command");

  test("a bad port, a stray word or an unknown option is a usage error (exit 2)", () => {
    mkdirSync(join(ws.dir, ".rlm-plan"), { recursive: true });
    const port = ws.cli("ui", "--port", "http", "--no-open");
    assert.equal(port.code, 2);
    assert.equal(port.stderr, "rlm-plan: --port needs a port number (0-65535), not http\nsee rlm-plan ui --help\n");
    const stray = ws.cli("ui", "runs", "--no-open");
    assert.equal(stray.code, 2);
    assert.equal(stray.stderr, "rlm-plan: ui takes no runs\nsee rlm-plan ui --help\n");
    const unknown = ws.cli("ui", "--open");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^rlm-plan: .*--open/);
  });

  test("with no journal here or below, it says so and exits 2", () => {
    const empty = cliWorkspace("ui-empty");
    const result = empty.cli("ui", "--no-open");
    assert.equal(result.code, 2);
    assert.equal(
      result.stderr,
      "rlm-plan: no run journal here: no .rlm-plan/ in this folder, above it or below it, and no host profile; pass --journal DIR\n",
    );
  });

  test("--host beyond loopback is warned of; Ctrl-C stops it with exit 0 and the port is free again", async () => {
    const child = spawn(process.execPath, [CLI, "ui", "--no-open", "--host", "0.0.0.0", "--journal", ws.dir], {
      cwd: ws.dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    const url = await new Promise<string>((done, fail) => {
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const found = /^rlm-plan ui: (http:\/\/0\.0\.0\.0:\d+\/\?token=[A-Za-z0-9_-]{43})\n$/.exec(stdout);
        if (found) done(found[1] as string);
      });
      void exited.then((code) => fail(new Error(`exited ${code}: ${stderr}`)));
    });
    assert.match(
      stderr,
      /^rlm-plan: warning: listening on 0\.0\.0\.0: anyone who can reach this address and has the URL's token can read every run in the journal$/m,
    );
    const port = new URL(url).port;
    const answered = await fetch(`http://127.0.0.1:${port}/api/runs`);
    assert.equal(answered.status, 403);
    await answered.text();
    child.kill("SIGINT");
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/`), /fetch failed/);
  });
});
