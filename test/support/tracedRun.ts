// The run every front end's "the session attaches the journal, the trace and the mask" test
// starts (issue 35 item 1): a host profile whose `telemetry.otlp` names a receiver, a plan with a
// model step answered by mocks whose reply holds the provider's key, and the check of what the
// receiver got: the run's spans, its root naming the journal entry, the reply captured masked.

import assert from "node:assert/strict";
import { after, before } from "node:test";
import { cliWorkspace, type CliWorkspace } from "./cliWorkspace";
import { spanAttribute, startOtlpReceiver, type OtlpReceiver } from "./otlpReceiver";

/** The provider's key: in the environment the profile names, never in a span or the journal. */
export const TRACED_KEY = "life-sentinel-key-5e1b93aa";
export const TRACED_KEY_ENV = "LIFE_TRACED_KEY";
/** The variables a front end's run is given: the key, and message content in spans (masked) by the GenAI conventions' switch. */
export const TRACED_ENV = { [TRACED_KEY_ENV]: TRACED_KEY, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" };

export const TRACED_PLAN = `{
  "steps": [
    { "op": "model", "provider": "m", "prompt": "say hello", "bind": "said" },
    { "op": "final", "value": { "ref": "var", "name": "said" } }
  ]
}
`;

/** Mocks answering the model with its key (a leak the mask must catch). */
export const TRACED_MOCKS = { providers: { m: [{ value: `the key is ${TRACED_KEY}`, repeat: true }] } };

/** The host profile: telemetry to `url`; nothing asks the front end to trace or record. */
export function tracedProfile(url: string, baseUrl = "http://127.0.0.1:9/v1"): Record<string, unknown> {
  return {
    capabilities: ["model(m)"],
    providers: {
      m: { type: "openai-chat", baseUrl, model: "life-model", apiKeyEnv: TRACED_KEY_ENV },
    },
    telemetry: { otlp: url },
  };
}

/**
 * The run's trace as the receiver got it: the workflow span named after the plan and naming the
 * journal's run `runId` (none for an unrecorded run), the chat span under it with the reply captured and masked, and the key
 * nowhere in any body.
 */
export async function assertTraced(
  receiver: OtlpReceiver,
  planName: string,
  runId: number | undefined,
  output = '"the key is ***"',
): Promise<void> {
  const root = `invoke_workflow ${planName}`;
  const spans = await receiver.spansWith(root);
  const mine = spans.filter((s) => s.traceId === spans.find((r) => r.name === root)?.traceId);
  assert.deepEqual(mine.map((s) => s.name).sort(), ["chat life-model", "final", root]);
  const workflow = mine.find((s) => s.name === root);
  const chat = mine.find((s) => s.name === "chat life-model");
  assert.equal(chat?.parentSpanId, workflow?.spanId);
  assert.equal(spanAttribute(workflow, "rlm_plan.run.id"), runId);
  assert.equal(spanAttribute(chat, "gen_ai.output.messages"), output);
  const all = receiver.bodies.join("\n");
  assert.equal(all.includes(TRACED_KEY), false, "the key reached the receiver");
}

/**
 * A workspace with the profile (telemetry to a receiver started before the tests), the plan and
 * its mocks (`traced.rlmplan.json`, `traced.mocks.json`); the receiver closes after them.
 */
export function tracedWorkspace(name: string): { readonly ws: CliWorkspace; receiver(): OtlpReceiver } {
  const ws = cliWorkspace(name);
  let receiver: OtlpReceiver | undefined;
  before(async () => {
    receiver = await startOtlpReceiver();
    ws.write("rlmplan.host.json", JSON.stringify(tracedProfile(receiver.url)));
    ws.write("traced.rlmplan.json", TRACED_PLAN);
    ws.write("traced.mocks.json", JSON.stringify(TRACED_MOCKS));
  });
  after(() => receiver?.close());
  return { ws, receiver: () => receiver as OtlpReceiver };
}
