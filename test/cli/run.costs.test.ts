// Tokens and money of real runs: the CLI as a child process against the scripted chat server.
// The profile prices provider "a" at 100000 per million tokens (0.1 a token) with maxTokens 10, so
// a call with a literal 2-byte prompt may cost (2 + 8 overhead + 10) * 0.1 = 2 at worst, and one
// that reports 5 + 5 tokens costs 1. A max_cost of 2.5 lets the first call be made (2 <= 2.5) and
// stops the run before the second (2 > 1.5 left): the server sees one request. Usage is recorded
// per call and shown by `runs list` and `runs show`; a reply without usage counts at its bounds,
// marked "~".

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startChatServer, tenthPerTokenHost, type ChatServer } from "../support/chatServer";
import { cliWorkspace, runCliAsync, type CliWorkspace } from "../support/cliWorkspace";

const THREE_CALLS = {
  steps: [
    { op: "model", provider: "a", prompt: "p1", bind: "one" },
    { op: "model", provider: "a", prompt: "p2", bind: "two" },
    { op: "model", provider: "a", prompt: "p3", bind: "three" },
    { op: "final", value: "done" },
  ],
};

let chat: ChatServer;
before(async () => {
  chat = await startChatServer();
});
after(() => chat.close());

function workspace(name: string, maxCost?: number): CliWorkspace {
  const ws = cliWorkspace(name);
  ws.write(
    "rlmplan.host.json",
    tenthPerTokenHost(chat.baseUrl, maxCost === undefined ? {} : { budget: { max_cost: maxCost } }),
  );
  ws.write("plan.rlmplan.json", JSON.stringify(THREE_CALLS));
  return ws;
}

function lastJson(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split("\n").pop() as string) as Record<string, unknown>;
}

describe("max_cost", () => {
  test("a run stops before the call whose worst case would cross max_cost", async () => {
    chat.reset();
    chat.script(
      ...[1, 2, 3].map(() => ({ kind: "ok" as const, text: "x", usage: { prompt_tokens: 5, completion_tokens: 5 } })),
    );
    const ws = workspace("cost-stop", 2.5);
    const run = await runCliAsync(ws.dir, ["run", "--json", "plan.rlmplan.json"]);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(chat.requests.length, 1);
    // The request carried the provider's max_tokens: the bound the worst case counted.
    assert.equal((chat.requests[0]?.body as { max_tokens?: number }).max_tokens, 10);
    const error = lastJson(run.stdout)["error"] as Record<string, unknown>;
    assert.deepEqual(
      { kind: error["kind"], budget: error["budget"], requested: error["requested"], remaining: error["remaining"] },
      { kind: "budget_exhausted", budget: "cost", requested: 2, remaining: 1.5 },
    );
    assert.equal(error["message"], "this call may cost up to 2, more than the 1.5 left of max_cost");
    assert.deepEqual(error["path"], ["steps", 1]);
  });
});

describe("usage in the journal", () => {
  test("reported usage is recorded per call and shown by runs list and runs show", async () => {
    chat.reset();
    chat.script(
      { kind: "ok", text: "x", usage: { prompt_tokens: 5, completion_tokens: 5 } },
      { kind: "ok", text: "y", usage: { prompt_tokens: 6, completion_tokens: 4 } },
      // No usage: counted at its bounds, 2 + 8 input and max_tokens 10 output, so 2.
      { kind: "ok", text: "z", usage: null },
    );
    const ws = workspace("cost-usage");
    const run = await runCliAsync(ws.dir, ["run", "--json", "plan.rlmplan.json"]);
    assert.equal(run.code, 0, run.stderr);
    const list = ws.cli("runs", "list");
    const [header, row] = list.stdout.trim().split("\n");
    assert.match(header ?? "", /^RUN {2}STATUS {2}STARTED +TIME +TOKENS +COST +PLAN/);
    assert.match(row ?? "", / ~21\+19 +4 EUR +plan\.rlmplan\.json/);
    const listed = JSON.parse(ws.cli("runs", "list", "--json").stdout) as { usage: unknown }[];
    assert.deepEqual(listed[0]?.usage, {
      calls: 3,
      inputTokens: 21,
      outputTokens: 19,
      estimated: true,
      cost: 4,
      unpriced: 0,
      currency: "EUR",
    });
    const show = ws.cli("runs", "show", "1");
    assert.equal(show.code, 0, show.stderr);
    const tail = show.stdout.slice(show.stdout.indexOf("model calls (tokens in+out, cost):"));
    assert.equal(
      tail,
      [
        "model calls (tokens in+out, cost):",
        "  steps/0  a  tokens 5+5  1 EUR",
        "  steps/1  a  tokens 6+4  1 EUR",
        "  steps/2  a  tokens ~10+10  2 EUR",
        "  total  tokens ~21+19  4 EUR  (~ estimated: a provider reported no usage)",
        "",
      ].join("\n"),
    );
  });
});

describe("runs diff", () => {
  test("each differing step shows its tokens and money beside its time; each run its total", async () => {
    chat.reset();
    chat.script(
      { kind: "ok", text: "x", usage: { prompt_tokens: 5, completion_tokens: 5 } },
      { kind: "ok", text: "y", usage: { prompt_tokens: 5, completion_tokens: 5 } },
      { kind: "ok", text: "z", usage: { prompt_tokens: 5, completion_tokens: 5 } },
      { kind: "ok", text: "x", usage: { prompt_tokens: 5, completion_tokens: 5 } },
      { kind: "ok", text: "other", usage: { prompt_tokens: 6, completion_tokens: 9 } },
      { kind: "ok", text: "z", usage: null },
    );
    const ws = workspace("cost-diff");
    for (let i = 0; i < 2; i++) {
      const run = await runCliAsync(ws.dir, ["run", "--json", "plan.rlmplan.json"]);
      assert.equal(run.code, 0, run.stderr);
    }
    const diff = ws.cli("runs", "diff", "1", "2");
    // Time varies: the rows of what differs and the tokens beside it are exact.
    const lines = diff.stdout.split("\n").filter((line) => /^\/steps\/\d|^ +tokens /.test(line));
    assert.deepEqual(
      lines
        .map((line) => line.trim().split(/ {2,}/))
        .map((cells) => (cells[0] === "tokens" ? cells : cells.slice(0, 4))),
      [
        ["/steps/1", "model(a)", "changed", "value"],
        ["tokens", "5+5, 1 EUR", "6+9, 1.5 EUR"],
        ["/steps/2", "model(a)", "changed", "value"],
        ["tokens", "5+5, 1 EUR", "~10+10, 2 EUR"],
      ],
    );
    assert.match(
      diff.stdout,
      /\nrun 1: ok, value .*; tokens 15\+15, 3 EUR\nrun 2: ok, value .*; tokens ~21\+24, 4\.5 EUR\n$/,
    );
  });
});

describe("rlm-plan test --max-cost cost=N", () => {
  test("the live cases' worst case in money is held against it before any request", async () => {
    chat.reset();
    const ws = workspace("cost-test");
    ws.write(
      "plan.rlmplan.test.json",
      JSON.stringify({
        plan: "plan.rlmplan.json",
        cases: [
          { name: "live one" },
          { name: "live two" },
          { name: "mocked", mocks: { providers: { a: [{ value: { text: "m" }, repeat: true }] } } },
        ],
      }),
    );
    // Each live case may make 3 calls of 2 EUR at worst: 12 EUR; the mocked case spends nothing.
    const refused = await runCliAsync(ws.dir, ["test", "--max-cost", "cost=11.5"]);
    assert.equal(refused.code, 2);
    assert.equal(
      refused.stderr,
      "rlm-plan: refused: the worst case of the 2 live cases is over --max-cost: cost 12 EUR (limit 11.5 EUR); nothing ran\n",
    );
    assert.equal(chat.requests.length, 0);
    chat.script(...Array.from({ length: 6 }, () => ({ kind: "ok" as const, text: "x" })));
    const ran = await runCliAsync(ws.dir, ["test", "--max-cost", "model_calls=6,cost=12", "--jobs", "1"]);
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    assert.equal(chat.requests.length, 6);
    const wrong = ws.cli("test", "--max-cost", "steps=1.5");
    assert.equal(wrong.code, 2);
    assert.match(
      wrong.stderr,
      /--max-cost needs a number of model calls or COUNTER=N pairs \(steps, model_calls, tool_calls, context_ops, cost\), for example model_calls=20,cost=0\.50/,
    );
  });
});
