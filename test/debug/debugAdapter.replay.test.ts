// Debug Recorded Run: a run recorded by the CLI (a real child process) opened in the debug adapter
// (its bin, driven by a real DAP client) with `replay`. It steps forward through the recorded run,
// then backward (stepBack, reverseContinue) and sees the earlier bindings and budget; nothing runs
// again (the tool's marker file is unchanged). A plan changed since the run is refused.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, test } from "node:test";
import type { DebugClient } from "@vscode/debugadapter-testsupport";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { startChatServer } from "../support/chatServer";
import { cliWorkspace, ROOT, runCliAsync } from "../support/cliWorkspace";
import { debugClient } from "../support/debugClient";

// A command tool that appends its label to marks.txt: every real call leaves a line.
const MARK_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  const args = JSON.parse(input);
  require("fs").appendFileSync("marks.txt", args.label + "\\n");
  process.stdout.write(JSON.stringify({ label: args.label, n: args.label.length }));
});
`;

// Lines (1-based) 3 to 6 hold the four steps.
const PLAN = `{
  "steps": [
    { "op": "tool", "name": "mark", "args": { "label": "one" }, "bind": "a" },
    { "op": "tool", "name": "mark", "args": { "label": "three" }, "bind": "b" },
    { "op": "tool", "name": "count_items", "args": [1, 2, 3], "bind": "n" },
    { "op": "final", "value": { "a": { "ref": "var", "name": "a" }, "b": { "ref": "var", "name": "b" }, "n": { "ref": "var", "name": "n" } } }
  ]
}
`;

const ws = cliWorkspace("dap-replay");
ws.write("mark.js", MARK_TOOL);
ws.write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(mark)", "tool(count_items)"],
    budget: { max_steps: 20, max_tool_calls: 9 },
    tools: {
      // The sandbox lets a tool write only what it declares: the marker file is in the workspace.
      mark: { type: "command", command: [process.execPath, "mark.js"], writes: ["."], timeoutMs: 60000 },
      count_items: { type: "builtin", builtin: "count_items" },
    },
  }),
);
const plan = ws.write("plan.rlmplan.json", PLAN);
const journal = join(ws.dir, ".rlm-plan");
const marks = () => (existsSync(join(ws.dir, "marks.txt")) ? readFileSync(join(ws.dir, "marks.txt"), "utf8") : "");

let dc: DebugClient;
let stops: DebugProtocol.StoppedEvent[];
let wake: (() => void) | undefined;
let capabilities: DebugProtocol.Capabilities | undefined;

beforeEach(async () => {
  dc = debugClient(ws.dir);
  stops = [];
  capabilities = undefined;
  dc.on("stopped", (event: DebugProtocol.StoppedEvent) => {
    stops.push(event);
    wake?.();
  });
  dc.on("capabilities", (event: DebugProtocol.CapabilitiesEvent) => (capabilities = event.body.capabilities));
  await dc.start();
});
afterEach(() => dc.stop());

async function launchReplay(run: number, breakpoints: number[] = []): Promise<void> {
  await Promise.all([
    dc.waitForEvent("initialized").then(async () => {
      await dc.setBreakpointsRequest({ source: { path: plan }, breakpoints: breakpoints.map((line) => ({ line })) });
      await dc.configurationDoneRequest();
    }),
    dc
      .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
      .then(() => dc.launchRequest({ replay: { journal, run }, stopOnEntry: true } as never)),
  ]);
}

/** The next stop, its reason and line. */
async function stopped(): Promise<[string, number | undefined]> {
  while (stops.length === 0) await new Promise<void>((r) => (wake = r));
  const stop = stops.shift() as DebugProtocol.StoppedEvent;
  const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  return [stop.body.reason, frames[0]?.line];
}

async function scope(name: string): Promise<Record<string, string>> {
  const frames = await dc.stackTraceRequest({ threadId: 1 });
  const scopes = await dc.scopesRequest({ frameId: frames.body.stackFrames[0]?.id as number });
  const ref = scopes.body.scopes.find((s) => s.name === name)?.variablesReference as number;
  const vars = await dc.variablesRequest({ variablesReference: ref });
  return Object.fromEntries(vars.body.variables.map((v) => [v.name, v.value]));
}

test("a recorded run steps forward and back with the bindings and budget of each step; nothing runs again", async () => {
  const recorded = ws.cli("run", "plan.rlmplan.json");
  assert.equal(recorded.code, 0, recorded.stderr);
  assert.match(recorded.stderr, /^rlm-plan: recorded as run 1 in \.rlm-plan /m);
  assert.equal(marks(), "one\nthree\n");

  await launchReplay(1);
  assert.deepEqual(await stopped(), ["entry", 3]);
  assert.equal(capabilities?.supportsStepBack, true);
  assert.deepEqual(await scope("Bindings"), {});
  for (const line of [4, 5, 6]) {
    await dc.nextRequest({ threadId: 1 });
    assert.deepEqual(await stopped(), ["step", line]);
  }
  assert.deepEqual(await scope("Bindings"), {
    a: '{"label":"one","n":3}',
    b: '{"label":"three","n":5}',
    n: "3",
  });
  assert.equal((await scope("Budget"))["tool_calls"], "6 left of 9 (3 spent)");

  // Back one step: n is not bound yet, two tool calls spent.
  await dc.stepBackRequest({ threadId: 1 });
  assert.deepEqual(await stopped(), ["step", 5]);
  assert.deepEqual(await scope("Bindings"), { a: '{"label":"one","n":3}', b: '{"label":"three","n":5}' });
  assert.equal((await scope("Budget"))["tool_calls"], "7 left of 9 (2 spent)");
  await dc.stepBackRequest({ threadId: 1 });
  assert.deepEqual(await stopped(), ["step", 4]);
  assert.deepEqual(await scope("Bindings"), { a: '{"label":"one","n":3}' });
  // The debug console answers at the step shown, two steps back: a is bound, b and n not yet
  // (the replay itself holds all three at the newest step).
  const evaluate = (expression: string) =>
    dc.evaluateRequest({ expression, frameId: 1, context: "repl" }).then(
      (r) => r.body.result,
      (e: Error) => `error: ${e.message}`,
    );
  assert.equal(await evaluate("a.label"), '"one"');
  assert.equal(await evaluate("b"), 'error: variable "b" is not bound yet at this step');
  assert.equal(
    await evaluate('{"ref": "field", "value": {"ref": "var", "name": "n"}, "key": "x"}'),
    'error: variable "n" is not bound yet at this step',
  );
  assert.equal(await evaluate("a.nope"), 'error: the value has no field "nope"');
  // Back to the start (no breakpoint on the way), then forward through what was seen.
  await dc.reverseContinueRequest({ threadId: 1 });
  assert.deepEqual(await stopped(), ["entry", 3]);
  assert.deepEqual(await scope("Bindings"), {});
  await dc.nextRequest({ threadId: 1 });
  assert.deepEqual(await stopped(), ["step", 4]);
  assert.deepEqual(await scope("Bindings"), { a: '{"label":"one","n":3}' });

  // Continue: to the newest step, then on to the end, answered from the journal.
  const output: string[] = [];
  dc.on("output", (event: DebugProtocol.OutputEvent) => output.push(event.body.output));
  const terminated = dc.waitForEvent("terminated");
  await dc.continueRequest({ threadId: 1 });
  await terminated;
  assert.ok(
    output.join("").includes('"a": {\n    "label": "one",\n    "n": 3\n  }'),
    `the final value in the output: ${output.join("")}`,
  );
  assert.equal(marks(), "one\nthree\n", "the replay ran no tool");
});

test("a case of rlm-plan test is a recorded run the debugger replays: its mocked replies, nothing run", async () => {
  ws.write(
    "plan.rlmplan.test.json",
    JSON.stringify({
      plan: "plan.rlmplan.json",
      cases: [{ name: "mocked marks", mocks: { tools: { mark: [{ value: { label: "m", n: 1 }, repeat: true }] } } }],
    }),
  );
  const before = marks();
  const tested = ws.cli("test", "plan.rlmplan.test.json");
  assert.equal(tested.code, 0, tested.stdout + tested.stderr);
  const id = Number(/the cases' runs are run (\d+) in the run journal/.exec(tested.stderr)?.[1]);
  assert.ok(id > 0, tested.stderr);
  await launchReplay(id, [6]);
  assert.deepEqual(await stopped(), ["entry", 3]);
  await dc.continueRequest({ threadId: 1 });
  assert.deepEqual(await stopped(), ["breakpoint", 6]);
  assert.deepEqual(await scope("Bindings"), { a: '{"label":"m","n":1}', b: '{"label":"m","n":1}', n: "3" });
  await dc.stepBackRequest({ threadId: 1 });
  assert.deepEqual(await stopped(), ["step", 5]);
  const n = await dc.evaluateRequest({ expression: "n", frameId: 1 }).catch((e: Error) => e.message);
  assert.equal(n, 'variable "n" is not bound yet at this step');
  const terminated = dc.waitForEvent("terminated");
  await dc.continueRequest({ threadId: 1 });
  await terminated;
  assert.equal(marks(), before, "neither the test nor the replay ran the tool");
});

test("a recorded run whose plan changed since is refused, with the reason", async () => {
  const recorded = ws.cli("run", "plan.rlmplan.json");
  assert.equal(recorded.code, 0, recorded.stderr);
  const id = Number(/recorded as run (\d+)/.exec(recorded.stderr)?.[1]);
  ws.write("plan.rlmplan.json", PLAN.replace('"three"', '"four"'));
  try {
    const refused = await Promise.all([
      dc.waitForEvent("initialized").then(() => dc.configurationDoneRequest()),
      dc
        .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
        .then(() => dc.launchRequest({ replay: { journal, run: id } } as never)),
    ]).then(
      () => "launched",
      (error: Error) => error.message,
    );
    assert.match(
      refused,
      new RegExp(`^run ${id} cannot be replayed: the plan .*plan\\.rlmplan\\.json changed since run ${id} `),
    );
  } finally {
    ws.write("plan.rlmplan.json", PLAN);
  }
});

test("Restart Frame on a paused run restarts from that step: the steps before it answered from its journal entry", async () => {
  const before = marks();
  await Promise.all([
    dc.waitForEvent("initialized").then(async () => {
      await dc.setBreakpointsRequest({ source: { path: plan }, breakpoints: [{ line: 4 }] });
      await dc.configurationDoneRequest();
    }),
    dc
      .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
      .then(() => dc.launchRequest({ program: plan } as never)),
  ]);
  assert.deepEqual(await stopped(), ["breakpoint", 4]);
  assert.equal(marks(), `${before}one\n`);
  const [top] = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  await dc.restartFrameRequest({ frameId: top?.id as number });
  assert.deepEqual(await stopped(), ["restart", 4]);
  // Step 1 was answered from the journal: its tool did not run again, its binding is there.
  assert.equal(marks(), `${before}one\n`);
  assert.deepEqual(await scope("Bindings"), { a: '{"label":"one","n":3}' });
  const terminated = dc.waitForEvent("terminated");
  await dc.continueRequest({ threadId: 1 });
  await terminated;
  assert.equal(marks(), `${before}one\nthree\n`, "the restarted step and the rest ran for real, once");
});

test("Restart Frame on a recorded run starts a live fork at that step, recorded with its parent", async () => {
  const recorded = await runCliAsync(ws.dir, ["run", "plan.rlmplan.json"]);
  assert.equal(recorded.code, 0, recorded.stderr);
  const id = Number(/recorded as run (\d+)/.exec(recorded.stderr)?.[1]);
  const before = marks();
  await launchReplay(id, [4]);
  assert.deepEqual(await stopped(), ["entry", 3]);
  await dc.continueRequest({ threadId: 1 });
  assert.deepEqual(await stopped(), ["breakpoint", 4]);
  const [top] = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  await dc.restartFrameRequest({ frameId: top?.id as number });
  assert.deepEqual(await stopped(), ["restart", 4]);
  // Step 1 answered from the journal: its tool did not run, its binding is there.
  assert.equal(marks(), before);
  assert.deepEqual(await scope("Bindings"), { a: '{"label":"one","n":3}' });
  const terminated = dc.waitForEvent("terminated");
  await dc.continueRequest({ threadId: 1 });
  await terminated;
  assert.equal(marks(), `${before}three\n`, "the step and the rest ran for real, once");
  const listed = JSON.parse(ws.cli("runs", "list", "--json").stdout) as {
    id: number;
    origin: string;
    forkOf: unknown;
  }[];
  assert.deepEqual(
    listed.slice(0, 1).map((r) => [r.id, r.origin, r.forkOf]),
    [[id + 1, "debugger", { run: id, step: "steps/1" }]],
  );
});

test("a run that called a live model, an MCP server and a command tool replays with none of them: every call from the journal", async () => {
  const live = cliWorkspace("dap-replay-live");
  const chat = await startChatServer([{ kind: "ok", text: '{"said":"hi"}' }]);
  const starts = join(live.dir, "mcp-starts.txt");
  live.write("mark.js", MARK_TOOL);
  live.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(mark)", "model(m)", "tool(counted.lookup)"],
      budget: { max_steps: 20, max_tool_calls: 9, max_model_calls: 3 },
      tools: { mark: { type: "command", command: [process.execPath, "mark.js"], timeoutMs: 60000, writes: ["."] } },
      providers: {
        m: { type: "openai-chat", baseUrl: chat.baseUrl, model: "live-model", apiKeyEnv: "REPLAY_LIVE_KEY" },
      },
      mcpServers: {
        counted: {
          command: process.execPath,
          args: [join(ROOT, "test", "fixtures", "mcp", "counted-server.js"), starts],
          // It logs its starts into the workspace: a path it declares it writes.
          writes: ["."],
        },
      },
    }),
  );
  live.write(
    "plan.rlmplan.json",
    JSON.stringify({
      steps: [
        { op: "tool", name: "mark", args: { label: "one" }, bind: "a" },
        { op: "model", provider: "m", prompt: "say something", bind: "b" },
        { op: "tool", name: "counted.lookup", args: { q: "word" }, bind: "c" },
        { op: "final", value: { b: { ref: "var", name: "b" }, c: { ref: "var", name: "c" } } },
      ],
    }),
  );
  const liveMarks = () => readFileSync(join(live.dir, "marks.txt"), "utf8");
  const startCount = () => readFileSync(starts, "utf8").split("\n").filter(Boolean).length;
  try {
    // Asynchronously: the chat server answers from this process.
    const recorded = await runCliAsync(live.dir, ["run", "plan.rlmplan.json"], { REPLAY_LIVE_KEY: "rk-live-123456" });
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.equal(chat.requests.length, 1);
  } finally {
    // The model server is gone (and the adapter has no key): the replay can only answer from the journal.
    await chat.close();
  }
  const [marksBefore, startsBefore] = [liveMarks(), startCount()];
  assert.deepEqual(
    [marksBefore, startsBefore],
    ["one\n", 1],
    "the recorded run called the tool and started the MCP server",
  );

  const output: string[] = [];
  dc.on("output", (event: DebugProtocol.OutputEvent) => output.push(event.body.output));
  const terminated = dc.waitForEvent("terminated");
  await Promise.all([
    dc.waitForEvent("initialized").then(() => dc.configurationDoneRequest()),
    dc
      .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
      .then(() => dc.launchRequest({ replay: { journal: join(live.dir, ".rlm-plan"), run: 1 } } as never)),
  ]);
  await terminated;
  const text = output.join("");
  const value = {
    b: {
      text: '{"said":"hi"}',
      model: "live-model",
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
      finish_reason: "stop",
    },
    c: { hits: 1 },
  };
  assert.ok(text.includes(`${JSON.stringify(value, null, 2)}\nrlm-plan: ok: 4 steps\n`), text);
  assert.equal(liveMarks(), marksBefore, "the replay ran no command tool");
  assert.equal(startCount(), startsBefore, "the replay started no MCP server");
});
