// A run the language server starts (the editor's Run, over stdio) gets what the session attaches
// to every run, without the server asking: the host profile's `telemetry.otlp` trace (spans at a
// real OTLP/HTTP receiver on 127.0.0.1), the run journal's entry (the trace names it), and the
// mask (the provider's key, which the client passes as a variable and the mocked model echoes,
// is in no span and no journal record).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { hostProfile } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlpReceiver";
import { assertTraced, TRACED_ENV, TRACED_KEY, TRACED_MOCKS, TRACED_PLAN, tracedProfile } from "../support/tracedRun";

interface Identity {
  runId: string;
  journal?: { dir: string; id: number; uid: string };
}

describe("a language server run: journal, trace and mask attached by the session", () => {
  let receiver: OtlpReceiver;
  const finished = new Map<string, { result: { ok: boolean; value?: unknown } }>();
  const server = useServer({
    files: { "traced.rlmplan.json": TRACED_PLAN },
    onConnection: (connection) => {
      connection.onNotification(
        "rlmPlan/runFinished",
        (params: { runId: string; result: { ok: boolean; value?: unknown } }) =>
          void finished.set(params.runId, params),
      );
    },
  });
  before(async () => {
    receiver = await startOtlpReceiver();
    server.workspace.write("rlmplan.host.json", hostProfile(tracedProfile(receiver.url)));
  });
  after(() => receiver.close());

  it("exports the run's spans to the profile's receiver, naming its journal entry, the key masked", async () => {
    const { workspace } = server;
    const uri = await server.client.open(workspace.path("traced.rlmplan.json"), TRACED_PLAN);
    const identity = (await server.client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: "rlmPlan.server.run",
      arguments: [{ uri, mocks: TRACED_MOCKS, env: TRACED_ENV }],
    })) as Identity;
    assert.equal(identity.journal?.id, 1);
    await assertTraced(receiver, "traced.rlmplan.json", 1);
    while (!finished.has(identity.runId)) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(finished.get(identity.runId)?.result.value, "the key is ***");
    const run = (await server.client.connection.sendRequest("rlmPlan/journalRun", {
      dir: identity.journal?.dir,
      id: 1,
    })) as { origin: string; value: unknown };
    assert.deepEqual([run.origin, run.value], ["editor", "the key is ***"]);
    assert.equal(JSON.stringify(run).includes(TRACED_KEY), false);
  });
});
