// `rlm-plan propose` end to end: proposeCommand with a temporary host profile whose provider is
// a real local chat server that answers with a fenced JSON plan; printed plan, estimate, run.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { proposeCommand } from "rlm-plan/propose";
import { startChatServer, type Answer, type ChatServer } from "../support/chatServer";

const INPUT_CONTENT = "INPUT-CONTENT-SENTINEL-c41d";
const KEY_ENV = "RLM_TEST_PROPOSE_KEY";
const ENV = { [KEY_ENV]: "sk-propose-test" };

const PLAN = {
  steps: [
    {
      op: "context",
      handle: { ref: "input", name: "notes" },
      action: { type: "search", pattern: "TODO" },
      bind: "hits",
    },
    { op: "tool", name: "count_items", args: { ref: "var", name: "hits" }, bind: "count" },
    { op: "model", provider: "local", prompt: "Say done", options: { temperature: 0 }, bind: "reply" },
    {
      op: "final",
      value: {
        todos: { ref: "var", name: "count" },
        note: { ref: "field", value: { ref: "var", name: "reply" }, key: "text" },
      },
    },
  ],
};

const fenced = (plan: unknown): Answer => ({
  kind: "ok",
  text: `Here is a plan for the goal.\n\n\`\`\`json\n${JSON.stringify(plan, null, 2)}\n\`\`\`\n`,
});

let server: ChatServer;
let dir: string;
let hostFile: string;

before(async () => {
  server = await startChatServer();
  dir = mkdtempSync(join(tmpdir(), "rlm-plan-propose-"));
  writeFileSync(join(dir, "notes.txt"), `TODO: write tests\n${INPUT_CONTENT}\nTODO: ship\ndone\n`);
  hostFile = join(dir, "rlmplan.host.json");
  writeFileSync(
    hostFile,
    JSON.stringify({
      capabilities: ["context(search)", "tool(count_items)", "model(local)"],
      budget: { max_model_calls: 4 },
      inputs: { notes: { type: "text-file", path: "notes.txt", description: "the project's notes" } },
      tools: { count_items: { type: "builtin", builtin: "count_items" } },
      providers: { local: { type: "openai-chat", baseUrl: server.baseUrl, model: "planner", apiKeyEnv: KEY_ENV } },
    }),
  );
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => server.reset());

async function propose(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await proposeCommand(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: ENV,
    cwd: dir,
  });
  return { code, stdout, stderr };
}

const TABLE = (steps: number, model: number, verdict = "within budget") =>
  [
    "proposed plan: worst case / budget",
    `  steps               ${steps} / 64`,
    "  depth               1 / 4",
    "  parallel width      0 / 8",
    `  model calls         ${model} / 4${model > 4 ? "   over budget" : ""}`,
    "  tool calls          1 / 16",
    "  context operations  1 / 32",
    `proposed plan: ${verdict}`,
  ].join("\n");

describe("rlm-plan propose", () => {
  test("prints the proposed plan and its worst case beside the budget", async () => {
    server.script(fenced(PLAN));
    const result = await propose("count", "the TODOs", "--provider", "local");
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `proposed plan:\n${JSON.stringify(PLAN, null, 2)}\n${TABLE(4, 1)}\n`);
    assert.equal(
      result.stderr,
      // Relative to the working folder, as `run` names it.
      `rlm-plan propose: host profile rlmplan.host.json\n` +
        `rlm-plan propose: asking local (openai-chat planner at ${new URL(server.baseUrl).origin})\n`,
    );

    assert.equal(server.requests.length, 1);
    const request = server.requests[0]!;
    assert.equal(request.headers.authorization, "Bearer sk-propose-test");
    const body = request.body as { model: string; messages: { role: string; content: string }[] };
    assert.equal(body.model, "planner");
    const prompt = body.messages[0]!.content;
    assert.ok(prompt.includes("Goal:\ncount the TODOs"));
    assert.ok(prompt.includes("Granted capabilities: context(search), tool(count_items), model(local)"));
    assert.ok(prompt.includes("- count_items: The number of items in a list. Args: a list. Result: a number."));
    assert.ok(prompt.includes("- notes: (text context) the project's notes"));
    assert.ok(prompt.includes("max_model_calls 4"));
    assert.ok(!prompt.includes(INPUT_CONTENT), "input contents never reach the prompt");
    assert.ok(!prompt.includes("notes.txt"), "nor input locations");
  });

  test('a provider with "responseFormat": "json_schema" is sent the plan\'s JSON Schema; others get none', async () => {
    const structured = join(dir, "structured.host.json");
    writeFileSync(
      structured,
      JSON.stringify({
        capabilities: ["context(search)", "tool(count_items)", "model(local)"],
        budget: { max_model_calls: 4 },
        inputs: { notes: { type: "text-file", path: "notes.txt" } },
        tools: { count_items: { type: "builtin", builtin: "count_items" } },
        providers: {
          local: {
            type: "openai-chat",
            baseUrl: server.baseUrl,
            model: "planner",
            apiKeyEnv: KEY_ENV,
            responseFormat: "json_schema",
          },
        },
      }),
    );
    // A structured reply is the plan's JSON itself, no fence or prose.
    server.script({ kind: "ok", text: JSON.stringify(PLAN) }, fenced(PLAN));
    const result = await propose("count the TODOs", "--provider", "local", "--host", structured);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `proposed plan:\n${JSON.stringify(PLAN, null, 2)}\n${TABLE(4, 1)}\n`);
    const format = (server.requests[0]!.body as { response_format: Record<string, unknown> }).response_format;
    const published = JSON.parse(
      readFileSync(join(__dirname, "..", "..", "..", "shared-runtime", "schemas", "plan.schema.json"), "utf8"),
    ) as Record<string, unknown>;
    const { $schema: _meta, $id: _id, title: _title, ...schema } = published;
    assert.deepEqual(format, {
      type: "json_schema",
      json_schema: {
        name: "rlm_plan",
        description: "One typed plan: a JSON object with its steps.",
        strict: false,
        schema: { type: "object", ...schema },
      },
    });
    // The default ("none"): the request has no response_format at all.
    const plain = await propose("count the TODOs", "--provider", "local", "--host", hostFile);
    assert.equal(plain.code, 0, plain.stderr);
    assert.deepEqual(Object.keys(server.requests[1]!.body as object), ["model", "messages"]);
  });

  test("--run executes the plan, printing transitions and the final value", async () => {
    server.script(fenced(PLAN), { kind: "ok", text: "done" });
    const result = await propose("count the TODOs", "--provider=local", "--run", "--host", hostFile);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.split("\n");
    const run = lines.indexOf("run:");
    assert.ok(run > 0, result.stdout);
    assert.deepEqual(
      // The lines `run` prints (one printer of run events), their times aside.
      lines.slice(run + 1, run + 5).map((line) => line.replace(/ +\d+ ms$/, " N ms")),
      [
        "  1  context(search)    -> hits   ok N ms",
        "  2  tool(count_items)  -> count  ok N ms",
        "  3  model(local)       -> reply  ok N ms",
        "  4  final                        ok N ms",
      ],
    );
    const printed = result.stdout.slice(result.stdout.indexOf("\nresult:\n") + "\nresult:\n".length);
    assert.deepEqual(JSON.parse(printed), { todos: 2, note: "done" });
    assert.equal(server.requests.length, 2);
    assert.deepEqual((server.requests[1]!.body as { messages: unknown }).messages, [
      { role: "user", content: "Say done" },
    ]);
  });

  test("--json --run: one object with the plan, estimate and run", async () => {
    server.script(fenced(PLAN), { kind: "ok", text: "done" });
    const result = await propose("goal", "--provider", "local", "--run", "--json");
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    assert.equal(json.ok, true);
    assert.deepEqual(json.plan, PLAN);
    assert.deepEqual(json.problems, []);
    assert.deepEqual(json.estimate, {
      steps: 4,
      depth: 1,
      parallel_width: 0,
      model_calls: 1,
      tool_calls: 1,
      context_ops: 1,
    });
    assert.equal((json.budget as Record<string, number>).max_model_calls, 4);
    const run = json.run as { ok: boolean; value: unknown; transitions: { operation: string }[] };
    assert.equal(run.ok, true);
    assert.deepEqual(run.value, { todos: 2, note: "done" });
    assert.deepEqual(
      run.transitions.map((t) => t.operation),
      ["context(search)", "tool(count_items)", "model(local)", "final"],
    );
  });

  test("an invalid plan: its problems, located in the printed plan; exit 1 and nothing runs", async () => {
    const bad = {
      steps: [
        { op: "tool", name: "delete_everything", args: {}, bind: "gone" },
        { op: "final", value: { ref: "var", name: "missing" } },
      ],
    };
    server.script(fenced(bad));
    const result = await propose("goal", "--provider", "local", "--run");
    assert.equal(result.code, 1);
    assert.ok(result.stdout.includes(`proposed plan:\n${JSON.stringify(bad, null, 2)}\n`), "the plan is printed");
    const problems = result.stdout.split("\n").filter((line) => line.includes(": error: "));
    assert.deepEqual(
      problems,
      [
        "proposed plan:5:15: error: this step needs the capability tool(delete_everything), which the host does not grant [capability_denied]",
        'proposed plan:13:17: error: variable "missing" is not bound here: bind it in an earlier step of this plan or an enclosing one [unbound_variable]',
      ],
      result.stdout,
    );
    const planLines = result.stdout.split("\n").slice(1);
    assert.equal(planLines[4], '      "name": "delete_everything",', "line 5 is the tool's name");
    assert.equal(planLines[12], '        "name": "missing"', "line 13 is the unbound name");
    assert.ok(!result.stdout.includes("run:"));
    assert.equal(server.requests.length, 1);
  });

  test("a plan over budget shows which limit it exceeds", async () => {
    const model = (bind: string) => ({ op: "model", provider: "local", prompt: "x", bind });
    const greedy = {
      steps: [
        { op: "context", handle: { ref: "input", name: "notes" }, action: { type: "search", pattern: "x" }, bind: "h" },
        { op: "tool", name: "count_items", args: [], bind: "c" },
        ...["a", "b", "c2", "d", "e"].map(model),
        { op: "final", value: null },
      ],
    };
    server.script(fenced(greedy));
    const result = await propose("goal", "--provider", "local");
    assert.equal(result.code, 1);
    assert.ok(result.stdout.endsWith(`${TABLE(8, 5, "over budget (model calls)")}\n`), result.stdout);
  });

  test("a reply without a JSON object: the reply and where it went wrong", async () => {
    server.script({ kind: "ok", text: "I cannot help with that." });
    const result = await propose("goal", "--provider", "local");
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout,
      "model reply:\nI cannot help with that.\n" +
        "model reply:1:1: error: no JSON object found in the text: a plan is one JSON object, alone or in a ```json fence [no_json_object]\n",
    );
  });

  test("a provider failure is exit 1 with the provider's safe message", async () => {
    server.script({ kind: "status", status: 500, body: { error: { type: "server_error" } } });
    const result = await propose("goal", "--provider", "local");
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.ok(
      result.stderr.endsWith(
        'rlm-plan propose: provider "local" failed: HTTP 500 from the provider (type server_error)\n',
      ),
      result.stderr,
    );
  });

  test("a run that fails is exit 1 with the structured error", async () => {
    server.script(fenced(PLAN), { kind: "status", status: 503 });
    const result = await propose("goal", "--provider", "local", "--run");
    assert.equal(result.code, 1);
    assert.ok(
      result.stdout.endsWith('run failed: provider "local" failed: HTTP 503 from the provider [execute/model_error]\n'),
      result.stdout,
    );
  });

  test("usage and host errors are exit 2", async () => {
    const cases: [string[], RegExp][] = [
      [["--provider", "local"], /propose needs a GOAL/],
      [["goal"], /propose needs --provider NAME/],
      [["goal", "--provider"], /--provider needs a value/],
      [["goal", "--provider", "local", "--frobnicate"], /unknown option --frobnicate/],
      [["goal", "--provider", "nope"], /has no provider "nope": its providers are local/],
      [["goal", "--provider", "local", "--host", "missing.json"], /cannot read the host profile: no such file/],
    ];
    for (const [argv, expected] of cases) {
      const result = await propose(...argv);
      assert.equal(result.code, 2, argv.join(" "));
      assert.match(result.stderr, expected);
    }
    const broken = join(dir, "broken.host.json");
    writeFileSync(broken, JSON.stringify({ capabilities: ["paralel"] }));
    const result = await propose("goal", "--provider", "local", "--host", broken);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /broken\.host\.json:1:\d+: error: "paralel" is not a capability/);
    const lonely = mkdtempSync(join(tmpdir(), "rlm-plan-propose-none-"));
    try {
      let stderr = "";
      const code = await proposeCommand(["goal", "--provider", "local"], {
        stdout: () => undefined,
        stderr: (text) => void (stderr += text),
        cwd: lonely,
      });
      assert.equal(code, 2);
      assert.match(stderr, /no host profile/);
    } finally {
      rmSync(lonely, { recursive: true, force: true });
    }
    assert.equal(server.requests.length, 0);
  });

  test("--help prints the command's help", async () => {
    const result = await propose("--help");
    assert.equal(result.code, 0);
    assert.ok(result.stdout.startsWith("rlm-plan propose: ask a model provider"));
  });
});
