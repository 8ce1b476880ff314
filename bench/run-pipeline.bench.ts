// Figures for the run pipeline (`npx tsc -b && node bench/out/run-pipeline.bench.js`):
// (1) parallel branches: 8 branches that each make one model call, answered in 300 ms by the
// local scripted chat server, concurrent and sequential, against one call timed in the same
// process; (2) a `final 42` plan with an unused 1 GiB text input against the same plan without
// it (and against building every input, as runs did before startRun); (3) what a run's preflight
// adds by typing the plan (certainTypeErrors: tool arguments against input schemas, prompts)
// against the run's static stage (checkPlan) of the same plan of chained tool calls, in this
// process. Medians; nothing asserts.

import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import { startRun } from "@rlm-plan/core/run/startRun";
import { type RunHost } from "@rlm-plan/core/run/host";
import { createRunHost, parseHostProfile, profileHost } from "@rlm-plan/core/host";
import { createOpenAIChatProvider } from "@rlm-plan/core/providers/openaiChat";
import { certainTypeErrors } from "@rlm-plan/core/plan/types/certainTypeErrors";
import { checkPlan } from "@rlm-plan/core/run/pipeline";
// The tests' scripted chat server, compiled by the test project (bench/out is two levels down).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startChatServer } = require(
  join(__dirname, "..", "..", "test", "out", "support", "chatServer"),
) as typeof import("../test/out/support/chatServer");

const DELAY_MS = 300;
const BRANCHES = 8;
const SAMPLES = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const begun = performance.now();
    await run();
    samples.push(performance.now() - begun);
  }
  return median(samples);
}

async function parallelBranches(): Promise<void> {
  const server = await startChatServer([], { kind: "slow", delayMs: DELAY_MS, then: { kind: "ok", text: "hi" } });
  try {
    const provider = createOpenAIChatProvider({ type: "openai-chat", baseUrl: server.baseUrl, model: "m" }, {});
    const host: RunHost = { providers: new Map([["p", provider]]) };
    const call = { op: "model", provider: "p", prompt: "hello", bind: "a" };
    const one = { steps: [call, { op: "final", value: { ref: "var", name: "a" } }] };
    const wide = {
      steps: [
        { op: "parallel", plans: Array.from({ length: BRANCHES }, () => one), bind: "all" },
        { op: "final", value: { ref: "var", name: "all" } },
      ],
    };
    const policy = { capabilities: ["model(p)", "parallel"], budget: { max_model_calls: BRANCHES } };
    const run = (plan: unknown, parallel: "concurrent" | "sequential") => async () => {
      const { outcome } = await startRun({ source: { kind: "value", value: plan }, policy, host, parallel }).done;
      if (!outcome.ok) throw new Error(outcome.error.message);
    };
    const single = await timed(run(one, "concurrent"));
    const concurrent = await timed(run(wide, "concurrent"));
    const sequential = await timed(run(wide, "sequential"));
    console.log(`1. ${BRANCHES} branches x one model call answered in ${DELAY_MS} ms (median of ${SAMPLES})`);
    console.log(`   one call                 ${single.toFixed(0).padStart(6)} ms   1.00x`);
    console.log(
      `   ${BRANCHES} branches, concurrent  ${concurrent.toFixed(0).padStart(6)} ms   ${(concurrent / single).toFixed(2)}x   (target <= 1.5x)`,
    );
    console.log(
      `   ${BRANCHES} branches, sequential  ${sequential.toFixed(0).padStart(6)} ms   ${(sequential / single).toFixed(2)}x`,
    );
  } finally {
    await server.close();
  }
}

async function unusedInput(): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), "rlm-plan-bench-input-"));
  try {
    // A sparse 1 GiB file: reading it still costs a full scan, which an unused input must not pay.
    writeFileSync(join(dir, "big.txt"), "");
    truncateSync(join(dir, "big.txt"), 1024 * 1024 * 1024);
    const profileWith = (inputs: object) => {
      const text = JSON.stringify({ capabilities: [], inputs });
      const parsed = parseHostProfile(text, join(dir, "rlmplan.host.json"));
      if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
      return parsed.profile;
    };
    const withBig = profileWith({ big: { type: "text-file", path: "big.txt" } });
    const without = profileWith({});
    const source = { kind: "value" as const, value: { steps: [{ op: "final", value: 42 }] } };
    const run = (host: Parameters<typeof startRun>[0]["host"]) => async () => {
      const { outcome } = await startRun({ source, policy: { capabilities: [] }, host }).done;
      if (!outcome.ok) throw new Error(outcome.error.message);
    };
    const base = await timed(run(profileHost(without)));
    const lazy = await timed(run(profileHost(withBig)));
    const eager = await timed(async () => {
      const created = await createRunHost(withBig);
      await run(created.host)();
      await created.close();
    });
    console.log(`2. "final 42" with an unused 1 GiB text-file input (median of ${SAMPLES})`);
    console.log(`   without the input        ${base.toFixed(1).padStart(8)} ms   1.00x`);
    console.log(`   with it (startRun)       ${lazy.toFixed(1).padStart(8)} ms   ${(lazy / base).toFixed(2)}x`);
    console.log(
      `   every input built first  ${eager.toFixed(1).padStart(8)} ms   ${(eager / base).toFixed(2)}x   (before startRun)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** (3) The typing a run's preflight does (issue 34.4), as a ratio of the static stage before it. */
function runTyping(): void {
  console.log(`3. a run's typing before its first step vs its static stage, chained tool calls (median of ${SAMPLES})`);
  const signature = { source: "bench", inputSchema: { type: "object", properties: { n: { type: "integer" } } } };
  const typing = { tools: { has: () => true, signature: () => signature, unavailable: () => undefined }, host: {} };
  const sync = (run: () => unknown) => {
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const begun = performance.now();
      run();
      samples.push(performance.now() - begun);
    }
    return median(samples);
  };
  for (const n of [100, 10_000]) {
    const steps: object[] = Array.from({ length: n }, (_, i) => ({
      op: "tool",
      name: "t",
      args: { n: i, previous: i === 0 ? 0 : { ref: "var", name: `v${i - 1}` } },
      bind: `v${i}`,
    }));
    steps.push({ op: "final", value: { ref: "var", name: `v${n - 1}` } });
    const source = { kind: "document" as const, text: JSON.stringify({ steps }) };
    const policy = { capabilities: ["tool(t)"], budget: { max_steps: n + 1, max_tool_calls: n } };
    const checked = checkPlan(source, policy);
    if (!checked.ok) throw new Error(checked.error.message);
    const stage = sync(() => checkPlan(source, policy));
    const typed = sync(() => certainTypeErrors(checked.validated.plan, typing));
    console.log(
      `   ${String(n).padStart(6)} steps: static stage ${stage.toFixed(1).padStart(7)} ms, typing ${typed.toFixed(1).padStart(7)} ms   ${(typed / stage).toFixed(2)}x`,
    );
  }
}

async function main(): Promise<void> {
  console.log(
    `node ${process.version}, ${os.cpus()[0]?.model ?? "cpu"} x${os.cpus().length}, load ${os.loadavg()[0]?.toFixed(2)}`,
  );
  await parallelBranches();
  await unusedInput();
  runTyping();
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
