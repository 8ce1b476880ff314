// The debug adapter's bin as a child process, spoken to in raw frames: malformed messages (a body
// of `{{{{{`, `null`, a negative or missing Content-Length, garbage between frames) ended it with
// exit 0 or lost later messages; a launch of a FIFO or /dev/zero, a `mocks` FIFO and setBreakpoints
// on a FIFO hung it for good. Each is now skipped or answered at once, and the next request is
// answered.

import assert from "node:assert/strict";
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test } from "node:test";
import { ContentLengthFrames } from "@rlm-plan/core/text/contentLengthFrames";

const ROOT = resolve(__dirname, "..", "..", "..");
const ADAPTER = join(ROOT, "debug-adapter", "bin", "rlm-plan-debug-adapter.js");
const dir = mkdtempSync(join(tmpdir(), "rlm-dap-hostile-"));
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "rlmplan.host.json"), JSON.stringify({ capabilities: [] }));
writeFileSync(join(dir, "ok.rlmplan.json"), JSON.stringify({ steps: [{ op: "final", value: 1 }] }));
const FIFO = join(dir, "fifo.json");
execFileSync("mkfifo", [FIFO]);

interface Response {
  readonly type: string;
  readonly request_seq: number;
  readonly command: string;
  readonly success: boolean;
  readonly message?: string;
  readonly body?: { breakpoints?: { verified: boolean; message?: string }[] };
}

/** The adapter, raw bytes in, parsed responses out (events dropped). */
class RawAdapter {
  readonly child: ChildProcessWithoutNullStreams = spawn(process.execPath, [ADAPTER], { cwd: dir });
  private readonly frames = new ContentLengthFrames(1 << 26);
  private readonly waiting = new Map<number, (response: Response) => void>();
  stderr = "";
  exited: number | null | undefined;

  constructor() {
    this.child.stdout.on("data", (chunk: Buffer) => {
      for (const frame of this.frames.push(chunk)) {
        if (frame.kind !== "message") continue;
        const message = frame.message as Response;
        if (message.type === "response") this.waiting.get(message.request_seq)?.(message);
      }
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.on("exit", (code) => (this.exited = code));
  }

  raw(bytes: string): void {
    this.child.stdin.write(bytes);
  }

  request(seq: number, command: string, args?: object): Promise<Response> {
    const body = JSON.stringify({ seq, type: "request", command, ...(args ? { arguments: args } : {}) });
    const answered = new Promise<Response>((done) => this.waiting.set(seq, done));
    this.raw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    return answered;
  }

  async close(): Promise<void> {
    if (this.exited !== undefined) return;
    const gone = new Promise((done) => this.child.once("exit", done));
    this.child.stdin.end();
    await gone;
  }
}

test("malformed frames are skipped: every later request is answered, the adapter stays up", async () => {
  const adapter = new RawAdapter();
  try {
    const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    adapter.raw(frame("{{{{{"));
    adapter.raw(frame("null"));
    // The adapter before the framer answered the next request, then exited 0 about 1.1-1.6 s later:
    // give it that long (and more) before asking, then check it is still there.
    await new Promise((done) => setTimeout(done, 3000));
    assert.equal(adapter.exited, undefined);
    assert.equal(
      (
        await adapter.request(1, "initialize", {
          adapterID: "rlm-plan",
          pathFormat: "path",
          linesStartAt1: true,
          columnsStartAt1: true,
        })
      ).success,
      true,
    );
    adapter.raw(`Content-Length: -5\r\n\r\n{"x":1}`);
    adapter.raw(frame(`[1,2]`) + frame(`{"type":"request"}`) + "garbage between frames\r\n\r\n");
    adapter.raw(`Content-Length: abc\r\n\r\n`);
    assert.equal((await adapter.request(2, "threads")).success, true);
    adapter.raw(frame(`{"seq":3,"type":"request","command":"setBreakpoints","arguments":null}`));
    const threads = await adapter.request(4, "threads");
    assert.equal(threads.success, true);
    assert.equal(adapter.exited, undefined);
    assert.match(adapter.stderr, /a body that is not JSON was skipped/);
    assert.match(adapter.stderr, /a header without a valid Content-Length was skipped/);
  } finally {
    await adapter.close();
  }
});

test("launch of a FIFO or /dev/zero, mocks as a FIFO: an error response at once, then answers", async () => {
  const adapter = new RawAdapter();
  try {
    await adapter.request(1, "initialize", {
      adapterID: "rlm-plan",
      pathFormat: "path",
      linesStartAt1: true,
      columnsStartAt1: true,
    });
    const fifo = await adapter.request(2, "launch", { program: FIFO, cwd: dir });
    assert.equal(fifo.success, false);
    assert.equal(fifo.message, `cannot read the plan ${FIFO}: it is a FIFO (named pipe), not a regular file`);
    const zero = await adapter.request(3, "launch", { program: "/dev/zero", cwd: dir });
    assert.equal(zero.message, "cannot read the plan /dev/zero: it is a character device, not a regular file");
    const mocks = await adapter.request(4, "launch", { program: "ok.rlmplan.json", cwd: dir, mocks: FIFO });
    assert.equal(mocks.success, false);
    assert.match(mocks.message ?? "", /cannot read the mocks file: it is a FIFO \(named pipe\), not a regular file/);
    const breakpoints = await adapter.request(5, "setBreakpoints", {
      source: { path: FIFO },
      breakpoints: [{ line: 1 }],
    });
    assert.equal(breakpoints.success, true);
    assert.deepEqual(
      breakpoints.body?.breakpoints?.map((b) => [b.verified, b.message]),
      [[false, `cannot read ${FIFO}: it is a FIFO (named pipe), not a regular file`]],
    );
    assert.equal((await adapter.request(6, "threads")).success, true);
  } finally {
    await adapter.close();
  }
});
