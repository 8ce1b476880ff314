// `rlm-plan check --against REF` under a host profile that prices its provider and holds a tool
// for approval, on a git repository the test makes: the change's worst case in money (before and
// after, in the profile's currency; unknown with the reason when a call is unpriced) and its steps
// that can need approval with the worst-case number of approvals, in text, JSON, GitHub and SARIF.

import assert from "node:assert/strict";
import { test } from "node:test";
import { cliWorkspace } from "../support/cliWorkspace";
import { commitAll } from "../support/gitRepo";

const { dir, write, check } = cliWorkspace("check-against-money");

const provider = { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "LLM_KEY" };
write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["model(llm)", "model(free)", "retry", "tool(refund)"],
    currency: "USD",
    tools: { refund: { type: "builtin", builtin: "count_items" } },
    providers: {
      // A call with prompt "p": (1 + 8) input tokens at 100 and 100 output tokens at 3 per million = 0.0012.
      llm: { ...provider, price: { input_per_mtok: 100, output_per_mtok: 3 }, maxTokens: 100 },
      free: provider,
    },
    approvals: [{ tool: "refund", approvers: ["alice"], timeout: 60 }],
  }),
);
const model = (bind: string, on = "llm") => ({ op: "model", provider: on, prompt: "p", bind });
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });
const planText = (...steps: unknown[]) => `${JSON.stringify({ steps }, null, 2)}\n`;

write("plans/refund.rlmplan.json", planText(model("a"), final("a")));
write("plans/free.rlmplan.json", planText(model("a"), final("a")));
const base = commitAll(dir, "base");
write(
  "plans/refund.rlmplan.json",
  planText(
    model("a"),
    model("b"),
    {
      op: "retry",
      attempts: 3,
      plan: { steps: [{ op: "tool", name: "refund", args: [], bind: "t" }, final("t")] },
      bind: "r",
    },
    final("a"),
  ),
);
write("plans/free.rlmplan.json", planText(model("a"), model("b", "free"), final("a")));

const REFUND =
  "this change adds retry, tool(refund), adds 1 step that can need approval (steps/2/plan/steps/0 tool(refund)) " +
  "and raises the worst case from 1 to 2 model calls, from 0 to 3 tool calls, from 2 to 10 steps, depth from 1 to 2, " +
  "from 0.0012 to 0.0024 USD and from 0 to 3 approvals";
const FREE =
  "this change adds model(free), raises the worst case from 1 to 2 model calls and from 2 to 3 steps and changes " +
  'the worst case in money from 0.0012 USD to unknown (provider "free" has no price in the host profile)';

test("text: the money and the approval steps in each plan's sentence", () => {
  const result = check("--against", "HEAD", "plans/refund.rlmplan.json", "plans/free.rlmplan.json");
  assert.equal(result.code, 0);
  assert.equal(
    result.stdout.slice(result.stdout.indexOf("what-if against")),
    ["what-if against HEAD:", `  plans/refund.rlmplan.json: ${REFUND}`, `  plans/free.rlmplan.json: ${FREE}`, ""].join(
      "\n",
    ),
  );
});

test("JSON: money before and after in the profile's currency, approval steps added and the worst cases", () => {
  const result = check("--against", "HEAD", "--json", "plans/refund.rlmplan.json", "plans/free.rlmplan.json");
  assert.equal(result.code, 0);
  const { plans } = (JSON.parse(result.stdout) as { against: { plans: Record<string, unknown>[] } }).against;
  assert.deepEqual(
    plans.map(({ file, commit, money, approvals, summary }) => ({ file, commit, money, approvals, summary })),
    [
      {
        file: "plans/refund.rlmplan.json",
        commit: base,
        money: { currency: "USD", before: { cost: 0.0012 }, after: { cost: 0.0024 } },
        approvals: { added: ["steps/2/plan/steps/0 tool(refund)"], removed: [], before: 0, after: 3 },
        summary: REFUND,
      },
      {
        file: "plans/free.rlmplan.json",
        commit: base,
        money: {
          currency: "USD",
          before: { cost: 0.0012 },
          after: { unknown: ['provider "free" has no price in the host profile'] },
        },
        approvals: undefined,
        summary: FREE,
      },
    ],
  );
});

test("GitHub and SARIF say the same sentence, SARIF with the money and approvals in its properties", () => {
  const github = check("--against", "HEAD", "--format", "github", "plans/refund.rlmplan.json");
  assert.equal(github.code, 0);
  assert.deepEqual(
    github.stdout.split("\n").filter((line) => line.includes("title=rlm-plan what-if")),
    [`::notice file=plans/refund.rlmplan.json,line=1,title=rlm-plan what-if against HEAD::${REFUND}`],
  );
  const sarif = check("--against", "HEAD", "--format", "sarif", "plans/refund.rlmplan.json");
  assert.equal(sarif.code, 0);
  const [note] = (
    JSON.parse(sarif.stdout) as {
      runs: [{ results: { message: { text: string }; properties: { whatIf: Record<string, unknown> } }[] }];
    }
  ).runs[0].results;
  assert.equal(note?.message.text, `against HEAD: ${REFUND}`);
  assert.deepEqual(note?.properties.whatIf["money"], {
    currency: "USD",
    before: { cost: 0.0012 },
    after: { cost: 0.0024 },
  });
  assert.deepEqual(note?.properties.whatIf["approvals"], {
    added: ["steps/2/plan/steps/0 tool(refund)"],
    removed: [],
    before: 0,
    after: 3,
  });
});
