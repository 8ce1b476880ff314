// A run's trace flush (telemetry/runTrace.ts over telemetry/boundedExport.ts) against a real
// socket on 127.0.0.1 that accepts and never answers: `finished` returns before anything is sent,
// and an interrupt (the CLI's Ctrl-C) ends the wait at once, even with a deadline of a minute:
// one notice, "interrupted", and the exporter's socket closed. Without the interrupt the test
// would wait the minute and time out.

import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { SecretMask } from "@rlm-plan/core/secrets";
import { RunTrace } from "@rlm-plan/core/telemetry";

let silent: Server;
let url = "";
const sockets: Socket[] = [];
let connected: () => void = () => undefined;
const firstConnection = new Promise<void>((resolve) => (connected = resolve));

before(async () => {
  silent = createServer((socket) => {
    sockets.push(socket);
    socket.on("data", () => undefined).on("error", () => undefined);
    connected();
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1/traces`;
});
after(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

test("an interrupt ends the flush at once, whatever the deadline; said once", async () => {
  const notices: string[] = [];
  const trace = new RunTrace({
    url,
    planName: "p.rlmplan.json",
    mask: new SecretMask([]),
    env: {},
    flushDeadlineMs: 60_000,
    onNotice: (message) => notices.push(message),
  });
  const finished = trace.finished({
    stage: "execute",
    ok: true,
    value: 1,
    remaining: {},
    checkpoints: [],
    transitions: 1,
    mocked: false,
  });
  assert.equal(finished, undefined, "finished returns at once: it does not wait for the export");
  await firstConnection;
  const socketClosed = new Promise((resolve) => sockets[0]?.once("close", resolve));
  const interrupt = new AbortController();
  const settled = trace.settled(interrupt.signal);
  interrupt.abort();
  await settled;
  assert.deepEqual(notices, [`warning: the run's trace was not exported to ${url}: interrupted`]);
  await socketClosed; // the exporter's socket is gone: nothing holds the process
  await trace.settled();
  assert.equal(notices.length, 1);
});
