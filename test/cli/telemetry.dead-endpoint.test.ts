// Telemetry never holds a run (issue 33, item 5): `rlm-plan run --otlp URL` (or the host profile's
// telemetry.otlp) against an endpoint that accepts and never answers, and against a closed port,
// prints the value first, then one warning line, and exits well before the exporter's own 10 s
// timeout. The order is asserted (the value reaches the pipe before the warning); the bound on
// the whole command is generous (5 s) against the deadline (0.5 s after the result).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { CLI, cliWorkspace } from "../support/cliWorkspace";

let silent: Server;
let silentUrl = "";
let closedUrl = "";
const accepted: Socket[] = [];

before(async () => {
  // Accepts, reads everything, never answers: the collector that froze.
  silent = createServer((socket) => {
    accepted.push(socket);
    socket.on("data", () => undefined).on("error", () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/traces`;
  // A port that was free a moment ago: nothing listens there.
  const gone = createServer();
  await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
  closedUrl = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/v1/traces`;
  await new Promise((resolve) => gone.close(resolve));
});
after(async () => {
  for (const socket of accepted) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

const ws = cliWorkspace("otlp-dead");
ws.write("rlmplan.host.json", JSON.stringify({ capabilities: [], journal: { enabled: false } }));
ws.write("p.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: { answer: 42 } }] }));

interface TimedRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What reached the pipes, in the order it arrived: "value" (stdout's first bytes) and "warning". */
  readonly order: string[];
  readonly totalMs: number;
}

function timedRun(cwd: string, args: readonly string[]): Promise<TimedRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const order: string[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    if (stdout === "") order.push("value");
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    if (chunk.includes("warning: the run's trace")) order.push("warning");
    stderr += chunk;
  });
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr, order, totalMs: performance.now() - started })),
  );
}

function warnings(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.includes("trace"));
}

describe("rlm-plan run: a dead OTLP endpoint costs one warning line after the result", () => {
  test("an endpoint that accepts and never answers", async () => {
    const before = accepted.length;
    const run = await timedRun(ws.dir, ["run", "p.rlmplan.json", "--otlp", silentUrl]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '{\n  "answer": 42\n}\n');
    assert.deepEqual(warnings(run.stderr), [
      `rlm-plan: warning: the run's trace was not exported to ${silentUrl}: no answer within 0.5 s`,
    ]);
    assert.deepEqual(run.order, ["value", "warning"]);
    assert.ok(accepted.length > before, "the exporter did connect");
    assert.ok(run.totalMs < 5000, `exited after ${Math.round(run.totalMs)} ms (the exporter's own timeout is 10 s)`);
  });

  test("a closed port", async () => {
    const run = await timedRun(ws.dir, ["run", "p.rlmplan.json", "--otlp", closedUrl]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '{\n  "answer": 42\n}\n');
    const port = new URL(closedUrl).port;
    assert.deepEqual(warnings(run.stderr), [
      `rlm-plan: warning: the run's trace was not exported to ${closedUrl}: connect ECONNREFUSED 127.0.0.1:${port}`,
    ]);
    assert.deepEqual(run.order, ["value", "warning"]);
    assert.ok(run.totalMs < 5000, `exited after ${Math.round(run.totalMs)} ms`);
  });

  test("the host profile's telemetry.otlp, with --json: the same", async () => {
    const other = cliWorkspace("otlp-dead-profile");
    other.write(
      "rlmplan.host.json",
      JSON.stringify({ capabilities: [], telemetry: { otlp: silentUrl }, journal: { enabled: false } }),
    );
    other.write("p.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: "done" }] }));
    const run = await timedRun(other.dir, ["run", "p.rlmplan.json", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "") as { value?: unknown }).value, "done");
    assert.deepEqual(warnings(run.stderr), [
      `rlm-plan: warning: the run's trace was not exported to ${silentUrl}: no answer within 0.5 s`,
    ]);
    assert.deepEqual(run.order, ["value", "warning"]);
    assert.ok(run.totalMs < 5000, `exited after ${Math.round(run.totalMs)} ms`);
  });
});
