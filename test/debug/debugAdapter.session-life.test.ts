// A run the debug adapter starts (a real DAP client launching the built adapter) gets what the
// session attaches to every run, without the adapter asking: the host profile's `telemetry.otlp`
// trace (spans at a real OTLP/HTTP receiver on 127.0.0.1), the run journal's entry (announced to
// the client, and named by the trace), and the mask (the key the launch passes in `env`, echoed by
// the mocked model, is in no span).

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { DebugRunJournalEvent, DebugRunResultEvent } from "@rlm-plan/language-server/protocol";
import { debugClient } from "../support/debugClient";
import { assertTraced, TRACED_ENV, TRACED_KEY, tracedWorkspace } from "../support/tracedRun";

const traced = tracedWorkspace("dap-life");

test("a debug run is recorded and traced to the profile's receiver, the key masked", async () => {
  const plan = join(traced.ws.dir, "traced.rlmplan.json");
  const dc = debugClient(traced.ws.dir);
  const journal = dc.waitForEvent(DebugRunJournalEvent.event);
  const result = dc.waitForEvent(DebugRunResultEvent.event);
  await dc.start();
  try {
    await Promise.all([
      dc.waitForEvent("initialized").then(() => dc.configurationDoneRequest()),
      dc
        .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
        .then(() =>
          dc.launchRequest({
            program: plan,
            mocks: "traced.mocks.json",
            env: TRACED_ENV,
          } as never),
        ),
    ]);
    const recorded = (await journal).body as { id: number };
    assert.equal(recorded.id, 1);
    await assertTraced(traced.receiver(), "traced.rlmplan.json", 1);
    assert.equal(JSON.stringify((await result).body).includes(TRACED_KEY), false);
  } finally {
    await dc.stop();
  }
});
