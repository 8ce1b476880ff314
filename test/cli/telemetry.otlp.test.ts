// `rlm-plan run --otlp URL`: each run exported as an OpenTelemetry trace over OTLP/HTTP to a real
// receiver on 127.0.0.1 (test/support/otlpReceiver.ts: a node http server decoding the exporter's
// JSON payload). The span names,
// parents, kinds and attributes follow the GenAI conventions (invoke_workflow, invoke_agent, chat,
// execute_tool, context operations internal); no prompt or key is in the payload by default, and
// with the conventions' switch on the prompt is there, the key still masked.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startChatServer, type ChatServer } from "../support/chatServer";
import { childOutput } from "../support/childOutput";
import { CLI, cliWorkspace } from "../support/cliWorkspace";
import { spanAttribute as attr, startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from "../support/otlpReceiver";

const KEY = "otlp-sentinel-key-8d2f61c0";
const PROMPT = "a prompt that must not leave unless asked";

let chat: ChatServer;
let receiver: OtlpReceiver;
let url = "";
let bodies: string[] = [];
before(async () => {
  chat = await startChatServer([], { kind: "ok", text: '"fine"' });
  receiver = await startOtlpReceiver();
  url = receiver.url;
  bodies = receiver.bodies;
  writeWorkspace();
});
after(async () => {
  await chat.close();
  await receiver.close();
});

const ws = cliWorkspace("otlp");
function writeWorkspace(): void {
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(count_items)", "model(m)", "rlm", "context(search)"],
      budget: { max_steps: 20 },
      inputs: { doc: { type: "text", text: "one needle\ntwo\nneedle three" } },
      tools: { count_items: { type: "builtin", builtin: "count_items" } },
      providers: { m: { type: "openai-chat", baseUrl: chat.baseUrl, model: "test-model", apiKeyEnv: "OTLP_TEST_KEY" } },
    }),
  );
  ws.write(
    "traced.rlmplan.json",
    JSON.stringify({
      steps: [
        {
          op: "context",
          handle: { ref: "input", name: "doc" },
          action: { type: "search", pattern: "needle" },
          bind: "hits",
        },
        {
          op: "rlm",
          plan: {
            steps: [
              { op: "tool", name: "count_items", args: { ref: "var", name: "hits" }, bind: "n" },
              { op: "model", provider: "m", prompt: `${PROMPT} ${KEY}`, bind: "said" },
              { op: "final", value: { ref: "var", name: "said" } },
            ],
          },
          bind: "inner",
        },
        { op: "final", value: { ref: "var", name: "inner" } },
      ],
    }),
  );
}

async function tracedRun(env: NodeJS.ProcessEnv): Promise<OtlpSpan[]> {
  bodies.length = 0;
  const child = spawn(process.execPath, [CLI, "run", "--otlp", url, "traced.rlmplan.json"], {
    cwd: ws.dir,
    env: { ...process.env, NO_COLOR: "1", OTLP_TEST_KEY: KEY, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run = await childOutput(child);
  assert.equal(run.code, 0, run.stderr);
  return receiver.spans();
}

describe("rlm-plan run --otlp", () => {
  test("spans named, nested and attributed by the GenAI conventions; no prompt or key by default", async () => {
    const spans = await tracedRun({});
    const byName = new Map(spans.map((s) => [s.name, s]));
    assert.deepEqual(spans.map((s) => s.name).sort(), [
      "chat test-model",
      "context(search)",
      "execute_tool count_items",
      "final",
      "final",
      "invoke_agent rlm",
      "invoke_workflow traced.rlmplan.json",
    ]);
    const root = byName.get("invoke_workflow traced.rlmplan.json");
    const agent = byName.get("invoke_agent rlm");
    const chatSpan = byName.get("chat test-model");
    const tool = byName.get("execute_tool count_items");
    const context = byName.get("context(search)");
    assert.ok(root && agent && chatSpan && tool && context);
    assert.equal(new Set(spans.map((s) => s.traceId)).size, 1);
    assert.equal(root.parentSpanId ?? "", "");
    assert.equal(agent.parentSpanId, root.spanId);
    assert.equal(context.parentSpanId, root.spanId);
    assert.equal(tool.parentSpanId, agent.spanId);
    assert.equal(chatSpan.parentSpanId, agent.spanId);
    assert.equal(chatSpan.kind, 3); // CLIENT
    assert.equal(attr(root, "gen_ai.operation.name"), "invoke_workflow");
    assert.equal(attr(agent, "gen_ai.operation.name"), "invoke_agent");
    assert.equal(attr(chatSpan, "gen_ai.operation.name"), "chat");
    assert.equal(attr(chatSpan, "gen_ai.request.model"), "test-model");
    assert.equal(attr(tool, "gen_ai.operation.name"), "execute_tool");
    assert.equal(attr(tool, "gen_ai.tool.name"), "count_items");
    assert.equal(attr(root, "rlm_plan.budget.max_steps"), 20);
    assert.equal(attr(root, "rlm_plan.estimate.steps"), 6);
    assert.equal(attr(root, "rlm_plan.spent.steps"), 6);
    assert.equal(attr(root, "rlm_plan.spent.model_calls"), 1);
    assert.equal(attr(root, "rlm_plan.run.id"), 1);
    const all = bodies.join("\n");
    assert.equal(all.includes("prompt that must not leave"), false);
    assert.equal(all.includes("sentinel"), false);
    assert.equal(attr(chatSpan, "gen_ai.input.messages"), undefined);
  });

  test("the host profile's telemetry.otlp exports without --otlp; journal.enabled false records nothing", async () => {
    const other = cliWorkspace("otlp-profile");
    other.write(
      "rlmplan.host.json",
      JSON.stringify({ capabilities: [], telemetry: { otlp: url }, journal: { enabled: false } }),
    );
    other.write("p.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: 1 }] }));
    bodies.length = 0;
    const run = await childOutput(
      spawn(process.execPath, [CLI, "run", "p.rlmplan.json"], {
        cwd: other.dir,
        env: { ...process.env, NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
    assert.equal(run.code, 0, run.stderr);
    const names = receiver.spans().map((sp) => sp.name);
    assert.deepEqual(names.sort(), ["final", "invoke_workflow p.rlmplan.json"]);
    assert.equal(existsSync(join(other.dir, ".rlm-plan")), false);
  });

  test("with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: messages are there, masked", async () => {
    const spans = await tracedRun({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" });
    const chatSpan = spans.find((s) => s.name === "chat test-model");
    assert.equal(attr(chatSpan, "gen_ai.input.messages"), `[{"content":"${PROMPT} ***","role":"user"}]`);
    assert.ok(attr(chatSpan, "gen_ai.output.messages") !== undefined);
    assert.equal(bodies.join("\n").includes("sentinel"), false);
  });
});
