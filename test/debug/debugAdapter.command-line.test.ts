// `rlm-plan-debug-adapter` on its command line, as a user runs the binary (the committed bin shim
// in a child process): --help and --version print and exit 0 (they printed nothing), an argument
// it does not take is one line about it and where help is (exit 2), and with no argument it still
// serves DAP: an initialize request on stdin is answered.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ROOT } from "../support/cliWorkspace";

const ADAPTER = join(ROOT, "debug-adapter", "bin", "rlm-plan-debug-adapter.js");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "debug-adapter", "package.json"), "utf8")) as { version: string })
  .version;

const adapter = (...args: string[]) =>
  spawnSync(process.execPath, [ADAPTER, ...args], { encoding: "utf8", input: "", timeout: 20_000 });

test("--help and -h print the adapter's help on stdout, exit 0", () => {
  for (const flag of ["--help", "-h"]) {
    const run = adapter(flag);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "");
    assert.equal(run.stdout.split("\n")[0], "usage: rlm-plan-debug-adapter [--help | --version]");
    assert.match(run.stdout, /speaks the Debug Adapter Protocol\nover stdin and stdout/);
  }
});

test("--version prints the package's version, exit 0", () => {
  const run = adapter("--version");
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, `rlm-plan-debug-adapter ${VERSION}\n`);
});

test("an argument it does not take: one line and where help is, exit 2", () => {
  const run = adapter("--port", "4711");
  assert.equal(run.status, 2);
  assert.equal(run.stdout, "");
  assert.equal(
    run.stderr,
    'rlm-plan-debug-adapter: unknown option "--port" (and 1 more argument): it takes none, the client speaks DAP on stdin\nsee rlm-plan-debug-adapter --help\n',
  );
});

test("with no argument it serves DAP: initialize is answered", async () => {
  const child = spawn(process.execPath, [ADAPTER], { stdio: ["pipe", "pipe", "pipe"] });
  const body = JSON.stringify({
    seq: 1,
    type: "request",
    command: "initialize",
    arguments: { adapterID: "rlm-plan", pathFormat: "path", linesStartAt1: true, columnsStartAt1: true },
  });
  child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes('"command":"initialize"')) resolve();
    });
    child.on("exit", () => reject(new Error(`the adapter exited: ${out}`)));
  });
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  assert.match(out, /"type":"response","request_seq":1,"command":"initialize","success":true/);
});
