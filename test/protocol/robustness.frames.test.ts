// The built language server over stdio, spoken to in raw frames: after `Content-Length: -5` it
// read no further message (it stayed up, deaf). Malformed frames (a negative, missing or
// non-numeric length, a body that is not JSON, `null`, garbage between frames) are now skipped and
// every later request is answered.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { ContentLengthFrames } from "@rlm-plan/core/text/contentLengthFrames";

const ROOT = resolve(__dirname, "..", "..", "..");
const SERVER = join(ROOT, "server", "bin", "rlm-plan-language-server.js");

test("malformed frames are skipped; initialize and shutdown are answered after them", async () => {
  const child = spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  const frames = new ContentLengthFrames(1 << 26);
  const answers = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => {
    for (const frame of frames.push(chunk)) {
      if (frame.kind !== "message") continue;
      const message = frame.message as { id?: unknown; result?: unknown; error?: unknown };
      if (typeof message.id === "number") answers.get(message.id)?.(message);
    }
  });
  const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const request = (id: number, method: string, params: unknown) => {
    const answered = new Promise<{ result?: unknown; error?: unknown }>((done) => answers.set(id, done));
    child.stdin.write(frame(JSON.stringify({ jsonrpc: "2.0", id, method, params })));
    return answered;
  };
  try {
    child.stdin.write(`Content-Length: -5\r\n\r\n{"x":1}`);
    child.stdin.write(frame("{{{{{") + frame("null") + "garbage\r\n\r\n" + `Content-Length: abc\r\n\r\n`);
    const initialized = await request(1, "initialize", { processId: null, rootUri: null, capabilities: {} });
    assert.ok(initialized.result !== undefined, JSON.stringify(initialized));
    child.stdin.write(frame("[1,2]") + frame(JSON.stringify({ jsonrpc: "2.0", method: "initialized", params: {} })));
    const shutdown = await request(2, "shutdown", null);
    assert.equal(shutdown.result, null);
    assert.match(stderr, /a header without a valid Content-Length was skipped/);
    assert.match(stderr, /a body that is not JSON was skipped/);
    assert.match(stderr, /a body that is not a JSON object was skipped/);
    assert.equal(child.exitCode, null);
  } finally {
    child.kill("SIGKILL");
  }
});
