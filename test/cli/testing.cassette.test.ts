// Cassettes through the built CLI: --record runs against a real command tool and a real
// chat-completions server on 127.0.0.1, records each case as a run of the run journal and
// derives the cassette from it (every reply keyed by the canonical request, versioned, the
// provider key masked; a tool that leaks it is the sentinel); --replay then
// answers with the server gone and the tool's program deleted; a request the cassette does not
// hold fails the case, naming the nearest recorded request and the first difference.

import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { listRuns, runDetail } from "@rlm-plan/core/journal/queries";
import { JournalStore } from "@rlm-plan/core/journal/journalStore";
import { cassetteEntries } from "@rlm-plan/core/testing/cassetteRecording";
import type { ChildOutput } from "../support/childOutput";
import { startChatServer } from "../support/chatServer";
import { cliWorkspace, runCliAsync } from "../support/cliWorkspace";

const KEY = "sk-cassette-sentinel-8d41f7";

const PLAN = (prompt: string) =>
  JSON.stringify({
    steps: [
      { op: "tool", name: "shout", args: { text: { ref: "input", name: "word" } }, bind: "s" },
      { op: "model", provider: "llm", prompt, bind: "d" },
      {
        op: "final",
        value: {
          shout: { ref: "field", value: { ref: "var", name: "s" }, key: "shout" },
          d: { ref: "var", name: "d" },
        },
      },
    ],
  });

const TESTS = (plan: string, words: string[]) =>
  JSON.stringify({
    plan,
    cassette: "cassettes/desc.cassette.json",
    cases: words.map((word) => ({
      name: word,
      inputs: { word },
      expect: { value: { contains: { shout: word.toUpperCase() } } },
    })),
  });

describe("rlm-plan test: cassettes", () => {
  const ws = cliWorkspace("cassette");
  let recorded: ChildOutput;
  let requests = 0;

  before(async () => {
    const server = await startChatServer([], { kind: "ok", text: "a greeting" });
    ws.write(
      "tools/shout.js",
      `let input = "";
process.stdin.on("data", (c) => (input += c)).on("end", () => {
  const args = JSON.parse(input);
  process.stdout.write(JSON.stringify({ shout: String(args.text).toUpperCase(), leak: process.env.REC_KEY }));
});
`,
    );
    ws.write(
      "rlmplan.host.json",
      JSON.stringify({
        capabilities: ["tool(shout)", "model(llm)"],
        tools: { shout: { type: "command", command: ["node", "tools/shout.js"], inheritEnv: ["REC_KEY"] } },
        providers: { llm: { type: "openai-chat", baseUrl: server.baseUrl, model: "m1", apiKeyEnv: "REC_KEY" } },
      }),
    );
    ws.write("plan.rlmplan.json", PLAN("Describe the word"));
    ws.write("desc.rlmplan.test.json", TESTS("plan.rlmplan.json", ["hi", "yo"]));
    recorded = await runCliAsync(ws.dir, ["test", "--record", "--jobs", "1"], { REC_KEY: KEY });
    requests = server.requests.length;
    await server.close();
    // Nothing below can reach the program or the provider.
    rmSync(join(ws.dir, "tools", "shout.js"));
  });

  test("--record: every tool and model reply, keyed by the canonical request, versioned, the key masked", () => {
    assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
    assert.equal(requests, 2);
    assert.match(
      recorded.stderr,
      /\nrlm-plan: the recorded runs are runs 1-2 in the run journal \.rlm-plan\nrlm-plan: recorded cassettes\/desc\.cassette\.json\n$/,
    );
    const text = readFileSync(join(ws.dir, "cassettes", "desc.cassette.json"), "utf8");
    assert.ok(!text.includes(KEY) && !text.toLowerCase().includes("cassette-sentinel"), "the key is masked");
    const cassette = JSON.parse(text) as { version: number; entries: unknown[] };
    assert.equal(cassette.version, 1);
    const model = {
      kind: "model",
      provider: "llm",
      model: "m1",
      messages: [{ role: "user", content: "Describe the word" }],
      options: {},
    };
    const reply = {
      value: {
        text: "a greeting",
        model: "m1",
        usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        finish_reason: "stop",
      },
    };
    assert.deepEqual(cassette.entries, [
      {
        case: "../desc.rlmplan.test.json#hi",
        request: { kind: "tool", tool: "shout", args: { text: "hi" } },
        reply: { value: { shout: "HI", leak: "***" } },
      },
      { case: "../desc.rlmplan.test.json#hi", request: model, reply },
      {
        case: "../desc.rlmplan.test.json#yo",
        request: { kind: "tool", tool: "shout", args: { text: "yo" } },
        reply: { value: { shout: "YO", leak: "***" } },
      },
      { case: "../desc.rlmplan.test.json#yo", request: model, reply },
    ]);
  });

  test("--record: one recording mechanism: each case is a journal run and its cassette entries are derived from it", () => {
    const store = JournalStore.open(join(ws.dir, ".rlm-plan"));
    try {
      const runs = listRuns(store).sort((a, b) => a.id - b.id);
      assert.deepEqual(
        runs.map((r) => [r.id, r.origin, r.plan, r.status]),
        [
          [1, "test", "plan.rlmplan.json", "ok"],
          [2, "test", "plan.rlmplan.json", "ok"],
        ],
      );
      const cassette = JSON.parse(readFileSync(join(ws.dir, "cassettes", "desc.cassette.json"), "utf8")) as {
        entries: unknown[];
      };
      const derived = runs.flatMap((r, i) =>
        cassetteEntries(runDetail(store, r.id)?.calls ?? [], `../desc.rlmplan.test.json#${["hi", "yo"][i]}`),
      );
      assert.deepEqual(cassette.entries, derived);
      const journal = JSON.stringify(runs.map((r) => runDetail(store, r.id)));
      assert.ok(!journal.includes(KEY), "the journal holds the key masked too");
    } finally {
      store.close();
    }
  });

  test("--replay: every case answers from the cassette, with no server and no tool program", async () => {
    const run = await runCliAsync(ws.dir, ["test", "--replay", "--json"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout) as { cases: { id: string; ok: boolean; answered: string }[] };
    assert.deepEqual(
      report.cases.map((c) => [c.id, c.ok, c.answered]),
      [
        ["desc.rlmplan.test.json#hi", true, "cassette"],
        ["desc.rlmplan.test.json#yo", true, "cassette"],
      ],
    );
  });

  test("a tool request the cassette does not hold: the nearest recorded one and the difference", async () => {
    ws.write("miss-tool.rlmplan.test.json", TESTS("plan.rlmplan.json", ["yoo"]));
    const run = await runCliAsync(ws.dir, ["test", "miss-tool.rlmplan.test.json", "--replay", "--json"]);
    assert.equal(run.code, 1);
    const report = JSON.parse(run.stdout) as { cases: { failures: { message: string }[] }[] };
    assert.deepEqual(
      report.cases[0]?.failures.map((f) => f.message),
      [
        'value: the run failed: tool "shout" failed: the cassette cassettes/desc.cassette.json holds no reply for tool "shout" with {"text":"yoo"}; the nearest recorded request is tool "shout" with {"text":"yo"}, which differs at /args/text: recorded "yo", asked "yoo"; record it again with rlm-plan test --record [execute/tool_error]',
      ],
    );
  });

  test("a changed prompt: the nearest model request and where the messages differ", async () => {
    ws.write("plan2.rlmplan.json", PLAN("Describe the words"));
    ws.write("miss-model.rlmplan.test.json", TESTS("plan2.rlmplan.json", ["hi"]));
    const run = await runCliAsync(ws.dir, ["test", "miss-model.rlmplan.test.json", "--json"]);
    assert.equal(run.code, 1);
    const report = JSON.parse(run.stdout) as { cases: { failures: { message: string }[] }[] };
    assert.deepEqual(
      report.cases[0]?.failures.map((f) => f.message),
      [
        'value: the run failed: provider "llm" failed: the cassette cassettes/desc.cassette.json holds no reply for provider "llm" (model "m1") with prompt "Describe the words"; the nearest recorded request is provider "llm" (model "m1") with prompt "Describe the word", which differs at /messages/0/content: recorded "Describe the word", asked "Describe the words"; record it again with rlm-plan test --record [execute/model_error]',
      ],
    );
  });

  test("--replay refuses a case that would call real tools; a cassette of another version is a located error", async () => {
    ws.write("live.rlmplan.test.json", JSON.stringify({ plan: "plan.rlmplan.json", cases: [{ name: "live" }] }));
    const live = await runCliAsync(ws.dir, ["test", "live.rlmplan.test.json", "--replay", "--json"]);
    const report = JSON.parse(live.stdout) as { cases: { failures: { message: string }[] }[] };
    assert.deepEqual(
      report.cases[0]?.failures.map((f) => f.message),
      ["--replay: the case has neither a cassette nor mocks, so it would call real tools and providers"],
    );
    ws.write("cassettes/old.cassette.json", '{\n  "version": 2,\n  "entries": []\n}\n');
    ws.write(
      "old.rlmplan.test.json",
      JSON.stringify({ plan: "plan.rlmplan.json", cassette: "cassettes/old.cassette.json", cases: [{ name: "old" }] }),
    );
    const old = await runCliAsync(ws.dir, ["test", "old.rlmplan.test.json", "--json"]);
    const oldReport = JSON.parse(old.stdout) as { cases: { failures: { message: string }[] }[] };
    assert.deepEqual(
      oldReport.cases[0]?.failures.map((f) => f.message),
      ['cassettes/old.cassette.json:2:14: "version" must be 1, got the number 2'],
    );
  });
});
