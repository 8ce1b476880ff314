// A workspace of mocked `rlm-plan test` cases for the benches (test-runner, journal): a dataset
// of `cases` rows, each case a tool call and a model call answered by mocks after `delayMs` (0: at
// once), its value checked.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function mockedCases(cases: number, delayMs: number): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-bench-cases-"));
  writeFileSync(
    join(dir, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["tool(fetch)", "model(llm)"],
      budget: { time_limit: 60 },
      tools: { fetch: { type: "command", command: ["node", "fetch.js"] } },
      providers: { llm: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "BENCH_KEY" } },
    }),
  );
  writeFileSync(
    join(dir, "plan.rlmplan.json"),
    JSON.stringify({
      steps: [
        { op: "tool", name: "fetch", args: { id: { ref: "input", name: "id" } }, bind: "page" },
        { op: "model", provider: "llm", prompt: "Label the page", bind: "label" },
        { op: "final", value: { page: { ref: "var", name: "page" }, label: { ref: "var", name: "label" } } },
      ],
    }),
  );
  const delay = delayMs > 0 ? { delayMs } : {};
  writeFileSync(
    join(dir, "plan.rlmplan.test.json"),
    JSON.stringify({
      plan: "plan.rlmplan.json",
      mocks: {
        tools: { fetch: [{ value: { title: "T" }, repeat: true, ...delay }] },
        providers: { llm: [{ value: "news", repeat: true, ...delay }] },
      },
      dataset: { file: "rows.jsonl", expect: { value: { contains: { label: "news" } } } },
    }),
  );
  writeFileSync(join(dir, "rows.jsonl"), Array.from({ length: cases }, (_, i) => JSON.stringify({ id: i })).join("\n"));
  return { dir, file: join(dir, "plan.rlmplan.test.json") };
}
