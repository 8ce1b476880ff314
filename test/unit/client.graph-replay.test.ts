// "Open Run as Graph" (client/src/graph/runReplay.ts), in process with mocked timers, on the
// events of a real run of the runtime (startRun with an in-process tool): nothing is shown until
// the view has drawn the graph once, then the run from its start (no step marked), one event at
// a time in their order, then the end. Before, the replay started with the server's answer and
// the first drawing showed most steps already ok.

import { strict as assert } from "node:assert";
import { afterEach, beforeEach, mock, test } from "node:test";
import { startRun } from "@rlm-plan/core/run/startRun";
import { type JsonValue, type RunEvent } from "@rlm-plan/core";
import { type RunHost, type ToolHandler } from "@rlm-plan/core/run/host";
import type { ToWebview } from "rlm-plan-client/graph/messages";
import { RunReplay, replayInterval } from "rlm-plan-client/graph/runReplay";
import { runSummary } from "rlm-plan-client/graph/runSteps";

type RunRecord = ConstructorParameters<typeof RunReplay>[0]["record"];

const PLAN = {
  steps: [
    { op: "tool", name: "echo", args: 1, bind: "a" },
    { op: "tool", name: "echo", args: 2, bind: "b" },
    { op: "final", value: { ref: "var", name: "b" } },
  ],
};
const IDS = ["steps/0", "steps/1", "steps/2"];

let events: RunEvent[];

async function record(): Promise<RunRecord> {
  events = [];
  const echo: ToolHandler = (args) => args as JsonValue;
  const host: RunHost = { tools: new Map([["echo", echo]]) };
  await startRun({
    source: { kind: "value", value: PLAN as never },
    policy: { capabilities: ["tool(echo)"] },
    host,
    observers: [{ event: (event) => events.push(event) }],
  }).done;
  return {
    id: "r7",
    number: 7,
    plan: "file:///w/plan.rlmplan.json",
    hostProfile: null,
    startedAt: "2026-12-01T10:00:00.000Z",
    serverRunId: "1",
    status: "succeeded",
    transitions: [],
    events,
  } as unknown as RunRecord;
}

/** The states each "run" message showed, as "id=state" lists, in order. */
function shown(sent: ToWebview[]): string[] {
  return sent.map((message) =>
    message.type === "run"
      ? Object.entries(message.states)
          .map(([id, state]) => `${id}=${state.state}`)
          .join(" ")
      : message.type,
  );
}

beforeEach(() => mock.timers.enable({ apis: ["setInterval"] }));
afterEach(() => mock.timers.reset());

test("the replay waits for the first drawing, then shows the run from its start, one event at a time, then its end", async () => {
  const run = await record();
  assert.deepEqual(
    events.map((event) => event.type),
    [
      "step_started",
      "transition",
      "step_finished",
      "step_started",
      "transition",
      "step_finished",
      "step_started",
      "transition",
      "step_finished",
    ],
  );
  const sent: ToWebview[] = [];
  let ended = 0;
  let drew!: () => void;
  const drawn = new Promise<void>((resolve) => (drew = resolve));
  new RunReplay({ record: run, stepIds: () => IDS, drawn, send: (m) => sent.push(m), ended: () => ended++ });
  const tick = replayInterval(events.length);
  assert.equal(tick, 400);
  // The graph is not drawn yet: however long that takes, nothing is replayed.
  mock.timers.tick(tick * 20);
  await Promise.resolve();
  assert.equal(sent.length, 0);
  drew();
  await drawn;
  await Promise.resolve();
  // Drawn: the run from its start, no step marked.
  assert.deepEqual(sent, [{ type: "run", states: {}, summary: "Replaying run 7" }]);
  for (let i = 0; i <= events.length; i++) mock.timers.tick(tick);
  assert.deepEqual(shown(sent), [
    "",
    "steps/0=running",
    "steps/0=running",
    "steps/0=ok",
    "steps/0=ok steps/1=running",
    "steps/0=ok steps/1=running",
    "steps/0=ok steps/1=ok",
    "steps/0=ok steps/1=ok steps/2=running",
    "steps/0=ok steps/1=ok steps/2=running",
    "steps/0=ok steps/1=ok steps/2=ok",
  ]);
  assert.deepEqual(new Set(sent.map((m) => (m as { summary?: string }).summary)), new Set(["Replaying run 7"]));
  assert.equal(ended, 1);
  assert.equal(runSummary(run).startsWith("Run 7"), true);
  // Nothing after the end.
  mock.timers.tick(tick * 5);
  assert.equal(sent.length, events.length + 1);
});

test("a replay stopped before the drawing (a newer replay, the panel closed) shows nothing and never ends", async () => {
  const run = await record();
  const sent: ToWebview[] = [];
  let ended = 0;
  let drew!: () => void;
  const drawn = new Promise<void>((resolve) => (drew = resolve));
  const replay = new RunReplay({
    record: run,
    stepIds: () => IDS,
    drawn,
    send: (m) => sent.push(m),
    ended: () => ended++,
  });
  replay.stop();
  drew();
  await drawn;
  await Promise.resolve();
  mock.timers.tick(replayInterval(events.length) * (events.length + 2));
  assert.deepEqual(sent, []);
  assert.equal(ended, 0);
});
