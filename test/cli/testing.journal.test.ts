// `rlm-plan test` records every case in the workspace's run journal, as `rlm-plan run` records a
// run (both through the plan session): through the built CLI on real files, each case is a run
// listed by `rlm-plan runs list` with origin `test` and its FILE#CASE label (filterable), shown,
// refused for --resume; datasets, repeats and --jobs record one run per case; --no-journal
// records nothing; a live case's provider key (leaked by a real command tool, answered by a real
// chat-completions server on 127.0.0.1) is in no form in the journal's files or its export.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { userInfo } from "node:os";
import { describe, test } from "node:test";
import { startChatServer } from "../support/chatServer";
import { cliWorkspace, runCliAsync, type CliWorkspace } from "../support/cliWorkspace";

const KEY = "sk-testjournal-sentinel-5Qm27vXk";

interface Listed {
  id: number;
  origin: string;
  label: string | null;
  plan: string;
  status: string;
  mocked: boolean;
}

const PLAN = JSON.stringify({
  steps: [
    { op: "tool", name: "shout", args: { text: { ref: "input", name: "word" } }, bind: "s" },
    { op: "model", provider: "llm", prompt: "Describe the word", bind: "d" },
    { op: "final", value: { shout: { ref: "field", value: { ref: "var", name: "s" }, key: "shout" } } },
  ],
});

const MOCKS = {
  tools: { shout: [{ value: { shout: "HI" }, repeat: true }] },
  providers: { llm: [{ value: "x", repeat: true }] },
};

/** A workspace with the plan, a command tool that leaks the key in several forms, and a profile. */
function workspace(name: string, baseUrl = "http://127.0.0.1:9/v1"): CliWorkspace {
  const ws = cliWorkspace(name);
  ws.write(
    "tools/shout.js",
    `let input = "";
process.stdin.on("data", (c) => (input += c)).on("end", () => {
  const key = process.env.REC_KEY ?? "";
  const args = JSON.parse(input);
  process.stdout.write(JSON.stringify({ shout: String(args.text).toUpperCase(), leak: [key, key.toUpperCase(), key.slice(3), Buffer.from(key).toString("base64")] }));
});
`,
  );
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(shout)", "model(llm)"],
      inputs: { word: { type: "value", value: "hi" } },
      tools: { shout: { type: "command", command: ["node", "tools/shout.js"], inheritEnv: ["REC_KEY"] } },
      providers: { llm: { type: "openai-chat", baseUrl, model: "m1", apiKeyEnv: "REC_KEY" } },
    }),
  );
  ws.write("plan.rlmplan.json", PLAN);
  return ws;
}

async function listed(ws: CliWorkspace, ...filters: string[]): Promise<Listed[]> {
  const run = await runCliAsync(ws.dir, ["runs", "list", "--json", ...filters]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Listed[];
}

describe("rlm-plan test: every case is a run in the run journal", () => {
  const ws = workspace("testjournal-two");
  ws.write(
    "two.rlmplan.test.json",
    JSON.stringify({
      plan: "plan.rlmplan.json",
      mocks: MOCKS,
      cases: [
        { name: "passes", expect: { value: { equals: { shout: "HI" } } } },
        {
          name: "fails at the tool",
          mocks: { tools: { shout: [{ error: { message: "shout is down" } }] }, providers: { llm: [] } },
          expect: { value: { equals: { shout: "HI" } } },
        },
      ],
    }),
  );

  test("two cases: exactly their two runs, listed with origin test, their case and their status", async () => {
    const run = await runCliAsync(ws.dir, ["test", "two.rlmplan.test.json"]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, /\nrlm-plan: the cases' runs are runs 1-2 in the run journal \.rlm-plan\n$/);
    const runs = (await listed(ws)).sort((a, b) => (a.label ?? "").localeCompare(b.label ?? ""));
    assert.deepEqual(
      runs.map((r) => [r.origin, r.label, r.plan, r.status, r.mocked]),
      [
        ["test", "two.rlmplan.test.json#fails at the tool", "plan.rlmplan.json", "failed", true],
        ["test", "two.rlmplan.test.json#passes", "plan.rlmplan.json", "ok", true],
      ],
    );
    assert.deepEqual(
      (await listed(ws, "--case", "passes")).map((r) => r.label),
      ["two.rlmplan.test.json#passes"],
    );
    assert.deepEqual(await listed(ws, "--origin", "cli"), []);
    assert.equal((await listed(ws, "--origin", "test", "--status", "failed")).length, 1);

    const passes = runs[1] as Listed;
    const shown = await runCliAsync(ws.dir, ["runs", "show", String(passes.id)]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout.split("\n")[0], `run ${passes.id}  ok (mocked)  from test two.rlmplan.test.json#passes`);
    const text = await runCliAsync(ws.dir, ["runs", "list", "--case", "tool"]);
    const [header, row] = text.stdout.split("\n");
    assert.match(header ?? "", /^RUN {2}STATUS +STARTED +TIME +PLAN +ERROR +FROM$/);
    assert.match(row ?? "", / tool_error +test two\.rlmplan\.test\.json#fails at the tool$/);
    const exported = JSON.parse((await runCliAsync(ws.dir, ["runs", "export", String(passes.id)])).stdout) as {
      details: { options: unknown };
      events: unknown[];
    };
    // Who started it (the OS user): the requester an approval rule may keep from voting.
    assert.deepEqual(exported.details.options, {
      test: { file: join(ws.dir, "two.rlmplan.test.json"), case: "passes" },
      started_by: userInfo().username,
    });
    assert.ok(exported.events.length > 0, "the run's events are recorded");

    // A test case's run is run again by its test, never resumed as a plain (live) run.
    const resumed = await runCliAsync(ws.dir, ["run", "--resume", String(passes.id)]);
    assert.equal(resumed.code, 1);
    assert.equal(
      resumed.stderr,
      `rlm-plan: cannot resume: run ${passes.id} is the run of the test case two.rlmplan.test.json#passes: run its test again with rlm-plan test\n`,
    );
  });

  test("--no-journal records nothing; with --record it is refused", async () => {
    const other = workspace("testjournal-off");
    other.write(
      "t.rlmplan.test.json",
      JSON.stringify({ plan: "plan.rlmplan.json", mocks: MOCKS, cases: [{ name: "a" }] }),
    );
    const run = await runCliAsync(other.dir, ["test", "--no-journal"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(!run.stderr.includes("run journal"), run.stderr);
    assert.equal(existsSync(join(other.dir, ".rlm-plan")), false);
    const refused = await runCliAsync(other.dir, ["test", "--no-journal", "--record"]);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /^rlm-plan: --record derives the cassettes from the run journal: it cannot be given with --no-journal\n/,
    );
    const elsewhere = await runCliAsync(other.dir, ["test", "--journal", "history"]);
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.match(elsewhere.stderr, /\nrlm-plan: the cases' runs are run 1 in the run journal history\n$/);
    assert.equal(existsSync(join(other.dir, ".rlm-plan")), false);
  });
});

describe("rlm-plan test: datasets, repeats and --jobs record one run per case", () => {
  test("a repeated case and a dataset's rows, three at a time", async () => {
    const ws = workspace("testjournal-many");
    ws.write("rows.jsonl", '{"word": "a"}\n{"word": "b"}\n');
    ws.write(
      "many.rlmplan.test.json",
      JSON.stringify({
        plan: "plan.rlmplan.json",
        mocks: MOCKS,
        cases: [{ name: "again", repeat: 2 }],
        dataset: { file: "rows.jsonl", name: "rows" },
      }),
    );
    const run = await runCliAsync(ws.dir, ["test", "--jobs", "3"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const runs = await listed(ws, "--origin", "test");
    assert.deepEqual(runs.map((r) => r.label).sort(), [
      "many.rlmplan.test.json#again [1/2]",
      "many.rlmplan.test.json#again [2/2]",
      "many.rlmplan.test.json#rows:1",
      "many.rlmplan.test.json#rows:2",
    ]);
    assert.deepEqual(
      runs.map((r) => r.status),
      ["ok", "ok", "ok", "ok"],
    );
  });
});

describe("rlm-plan test: a live case's key is in no form in the journal", () => {
  test("the journal's files and its export hold no form of the key the tool leaked and the provider got", async () => {
    const server = await startChatServer([], { kind: "ok", text: "a word" });
    try {
      const ws = workspace("testjournal-key", server.baseUrl);
      ws.write("live.rlmplan.test.json", JSON.stringify({ plan: "plan.rlmplan.json", cases: [{ name: "live" }] }));
      const run = await runCliAsync(ws.dir, ["test"], { REC_KEY: KEY });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(server.requests.length, 1);
      const [only] = await listed(ws);
      assert.deepEqual(
        [only?.origin, only?.label, only?.status, only?.mocked],
        ["test", "live.rlmplan.test.json#live", "ok", false],
      );
      const exported = await runCliAsync(ws.dir, ["runs", "export", String(only?.id)]);
      assert.ok(exported.stdout.includes('"***"'), "the leaked key is recorded masked");
      const journal = join(ws.dir, ".rlm-plan");
      const files = readdirSync(journal).map((name) => readFileSync(join(journal, name)).toString("latin1"));
      const forms = [
        KEY,
        KEY.toUpperCase(),
        KEY.slice(3),
        "5Qm27vXk",
        Buffer.from(KEY).toString("base64").slice(4, 24),
      ];
      for (const [where, text] of [
        ["the export", exported.stdout],
        ["the journal's files", files.join("\n")],
      ] as const)
        for (const form of forms) assert.ok(!text.includes(form), `${where} hold the key as ${form}`);
    } finally {
      await server.close();
    }
  });
});
