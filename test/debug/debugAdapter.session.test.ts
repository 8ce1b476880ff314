// The debug adapter as a real child process (its committed bin), driven over stdio by
// @vscode/debugadapter-testsupport's DebugClient: breakpoints moved to the nearest step,
// conditional breakpoints, next/stepIn/stepOut across a nested plan, the call stack, variables
// (bindings, budget, run), the console's evaluate, exception breakpoints, the final value in the
// output, terminate killing a running tool's whole process tree, and a test file's case debugged
// with its mocks or its cassette (the launch's testCase).

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, afterEach, beforeEach, describe, test } from "node:test";
import type { DebugClient } from "@vscode/debugadapter-testsupport";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { processState } from "@rlm-plan/core/host/processGroup";
import { DebugRunResultEvent } from "@rlm-plan/language-server/protocol";
import { debugClient } from "../support/debugClient";

// Compiled to test/out/debug: the repository root is three levels up.
const ROOT = resolve(__dirname, "..", "..", "..");
const TOOLS = join(ROOT, "test", "fixtures", "tools");

const dir = mkdtempSync(join(tmpdir(), "rlm-dap-"));
after(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, "rlmplan.host.json"),
  JSON.stringify({
    capabilities: [
      "tool(count_items)",
      "tool(echo)",
      "tool(fail)",
      "tool(tree)",
      "rlm",
      "checkpoint",
      "retry",
      "parallel",
      "context(search)",
    ],
    budget: { max_tool_calls: 8, time_limit: 60 },
    // Outside the sandbox: the termination tests follow the tree tool by the host pids it writes.
    sandbox: "off",
    inputs: {
      greeting: { type: "value", value: "hello" },
      tags: { type: "items", items: ["a", "b"] },
      notes: { type: "text-file", path: "notes.txt" },
    },
    tools: {
      count_items: { type: "builtin", builtin: "count_items" },
      echo: { type: "command", command: ["node", join(TOOLS, "echo.js")] },
      fail: { type: "command", command: ["node", join(TOOLS, "fail.js")] },
      tree: { type: "command", command: ["node", join(TOOLS, "tree.js")], timeoutMs: 60000 },
    },
  }),
);

// Line numbers below are the ones the tests name (1-based, as the client counts).
const NESTED = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1, 2, 3], "bind": "n" },
    {
      "op": "rlm",
      "plan": {
        "steps": [
          { "op": "tool", "name": "echo", "args": { "n": { "ref": "var", "name": "n" } }, "bind": "e" },
          { "op": "final", "value": { "ref": "field", "value": { "ref": "var", "name": "e" }, "key": "args" } }
        ]
      },
      "bind": "inner"
    },
    { "op": "checkpoint", "label": "after inner" },
    { "op": "final", "value": { "n": { "ref": "var", "name": "n" }, "inner": { "ref": "var", "name": "inner" } } }
  ]
}
`;
writeFileSync(join(dir, "notes.txt"), "a needle\nno\nneedle again\n");
// Reads the text-file input `notes` at its second step (line 4).
const readsNotes = join(dir, "notes.rlmplan.json");
writeFileSync(
  readsNotes,
  `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1], "bind": "n" },
    { "op": "context", "handle": { "ref": "input", "name": "notes" }, "action": { "type": "search", "pattern": "needle" }, "bind": "hits" },
    { "op": "final", "value": { "ref": "var", "name": "hits" } }
  ]
}
`,
);
const nested = join(dir, "nested.rlmplan.json");
writeFileSync(nested, NESTED);

const failing = join(dir, "failing.rlmplan.json");
writeFileSync(
  failing,
  `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1], "bind": "n" },
    { "op": "tool", "name": "fail", "args": {}, "bind": "x" },
    { "op": "final", "value": { "ref": "var", "name": "x" } }
  ]
}
`,
);

const branches = join(dir, "branches.rlmplan.json");
writeFileSync(
  branches,
  `{
  "steps": [
    { "op": "parallel", "plans": [
      { "steps": [{ "op": "final", "value": "left" }] },
      { "steps": [{ "op": "final", "value": "right" }] }
    ], "bind": "both" },
    { "op": "final", "value": { "ref": "var", "name": "both" } }
  ]
}
`,
);

const retrying = join(dir, "retrying.rlmplan.json");
writeFileSync(
  retrying,
  `{
  "steps": [
    {
      "op": "retry",
      "attempts": 2,
      "plan": { "steps": [
        { "op": "tool", "name": "fail", "args": {}, "bind": "y" },
        { "op": "final", "value": { "ref": "var", "name": "y" } }
      ] },
      "bind": "x"
    },
    { "op": "final", "value": { "ref": "var", "name": "x" } }
  ]
}
`,
);

const pidFile = join(dir, "tree.pids");
const hanging = join(dir, "hanging.rlmplan.json");
writeFileSync(
  hanging,
  JSON.stringify({
    steps: [
      { op: "tool", name: "tree", args: { pidFile }, bind: "t" },
      { op: "final", value: { ref: "var", name: "t" } },
    ],
  }),
);

let dc: DebugClient;
let output: { category: string; text: string }[];
let stops: DebugProtocol.StoppedEvent[];
let wake: (() => void) | undefined;
/** Resolves on the adapter's terminated event, whenever it comes. */
let terminated: Promise<void>;

beforeEach(async () => {
  dc = debugClient(dir);
  output = [];
  dc.on("output", (event: DebugProtocol.OutputEvent) =>
    output.push({ category: event.body.category ?? "console", text: event.body.output }),
  );
  stops = [];
  terminated = new Promise((resolve) => dc.once("terminated", () => resolve()));
  dc.on("stopped", (event: DebugProtocol.StoppedEvent) => {
    stops.push(event);
    wake?.();
  });
  await dc.start();
});
afterEach(() => dc.stop());

interface Start {
  readonly program: string;
  readonly breakpoints?: DebugProtocol.SourceBreakpoint[];
  readonly filters?: string[];
  readonly stopOnEntry?: boolean;
  readonly mocks?: string;
  readonly testCase?: { readonly file: string; readonly name: string };
}

/** initialize, breakpoints, configurationDone and launch, as VS Code sends them; the breakpoints answered. */
async function start(options: Start): Promise<DebugProtocol.Breakpoint[]> {
  let answered: DebugProtocol.Breakpoint[] = [];
  await Promise.all([
    dc.waitForEvent("initialized").then(async () => {
      const response = await dc.setBreakpointsRequest({
        source: { path: options.program },
        breakpoints: options.breakpoints ?? [],
      });
      answered = response.body.breakpoints;
      await dc.setExceptionBreakpointsRequest({ filters: options.filters ?? [] });
      await dc.configurationDoneRequest();
    }),
    dc
      .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
      .then(() =>
        dc.launchRequest({
          program: options.program,
          stopOnEntry: options.stopOnEntry ?? false,
          ...(options.mocks ? { mocks: options.mocks } : {}),
          ...(options.testCase ? { testCase: options.testCase } : {}),
        } as never),
      ),
  ]);
  return answered;
}

/** The next stop (stops are queued as they arrive, so none is missed), checked against reason and place. */
async function stoppedAt(reason: string, line: number, path = nested): Promise<DebugProtocol.StackFrame[]> {
  while (stops.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  const stop = stops.shift() as DebugProtocol.StoppedEvent;
  assert.equal(stop.body.reason, reason);
  const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  assert.deepEqual([frames[0]?.source?.path, frames[0]?.line], [path, line]);
  return frames;
}

async function variables(scope: string): Promise<Record<string, string>> {
  const frames = await dc.stackTraceRequest({ threadId: 1 });
  const frameId = frames.body.stackFrames[0]?.id as number;
  const scopes = await dc.scopesRequest({ frameId });
  const ref = scopes.body.scopes.find((s) => s.name === scope)?.variablesReference as number;
  const vars = await dc.variablesRequest({ variablesReference: ref });
  return Object.fromEntries(vars.body.variables.map((v) => [v.name, v.value]));
}

/** Sends a resume command and waits for the next stop. */
async function resume(
  command: "next" | "stepIn" | "stepOut" | "continue",
  reason: string,
  line: number,
): Promise<DebugProtocol.StackFrame[]> {
  await dc[`${command}Request`]({ threadId: 1 });
  return stoppedAt(reason, line);
}

const text = (category: string) =>
  output
    .filter((o) => o.category === category)
    .map((o) => o.text)
    .join("");

describe("breakpoints and stepping", () => {
  test("breakpoints are verified on the nearest step", async () => {
    const answered = await start({
      program: nested,
      breakpoints: [{ line: 2 }, { line: 6 }, { line: 10 }, { line: 8 }, { line: 17 }],
    });
    assert.deepEqual(
      answered.map((b) => [b.verified, b.line]),
      [
        [true, 3],
        [true, 4],
        [true, 4],
        [true, 8],
        [true, 15],
      ],
    );
    await stoppedAt("breakpoint", 3);
  });

  test("next runs a nested plan through, stepIn enters it, stepOut leaves it; one frame per plan", async () => {
    await start({ program: nested, breakpoints: [{ line: 3 }] });
    await stoppedAt("breakpoint", 3);
    await resume("next", "step", 4);
    const frames = await resume("stepIn", "step", 8);
    assert.deepEqual(
      frames.map((f) => [f.name, f.line]),
      [
        ["rlm inner: tool(echo) -> e", 8],
        ["plan: rlm -> inner", 4],
      ],
    );
    await resume("next", "step", 9);
    await resume("stepOut", "step", 14);
    await resume("next", "step", 15);
    await dc.nextRequest({ threadId: 1 });
    await terminated;
    assert.deepEqual(JSON.parse(text("stdout")), { n: 3, inner: { n: 3 } });
  });

  test("next over a nested plan from the outer level lands on the step after it", async () => {
    await start({ program: nested, stopOnEntry: true });
    await stoppedAt("entry", 3);
    await resume("next", "step", 4);
    await resume("next", "step", 14);
  });

  test("stepIn enters each parallel branch in turn, each its own frame", async () => {
    await start({ program: branches, stopOnEntry: true });
    await stoppedAt("entry", 3, branches);
    await dc.stepInRequest({ threadId: 1 });
    const first = await stoppedAt("step", 4, branches);
    assert.deepEqual(
      first.map((f) => f.name),
      ["parallel both branch 0: final", "plan: parallel -> both"],
    );
    await dc.nextRequest({ threadId: 1 });
    const second = await stoppedAt("step", 5, branches);
    assert.equal(second[0]?.name, "parallel both branch 1: final");
    await dc.stepOutRequest({ threadId: 1 });
    await stoppedAt("step", 7, branches);
  });

  test("Run Without Debugging (noDebug) ignores breakpoints", async () => {
    await Promise.all([
      dc.waitForEvent("initialized").then(async () => {
        await dc.setBreakpointsRequest({ source: { path: nested }, breakpoints: [{ line: 3 }] });
        await dc.configurationDoneRequest();
      }),
      dc
        .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, pathFormat: "path" })
        .then(() => dc.launchRequest({ program: nested, noDebug: true } as never)),
    ]);
    await terminated;
    assert.equal(stops.length, 0);
    assert.deepEqual(JSON.parse(text("stdout")), { n: 3, inner: { n: 3 } });
  });

  test("a conditional breakpoint stops only when its condition holds", async () => {
    await start({
      program: nested,
      breakpoints: [
        { line: 8, condition: "n == 4" },
        { line: 9, condition: "e.args.n == 3" },
      ],
    });
    await stoppedAt("breakpoint", 9);
    await dc.continueRequest({ threadId: 1 });
    await terminated;
  });

  test("continue runs to the end: transitions and the final value in the output", async () => {
    await start({ program: nested, breakpoints: [{ line: 14 }] });
    await stoppedAt("breakpoint", 14);
    await dc.continueRequest({ threadId: 1 });
    await terminated;
    assert.match(text("console"), /1 {2}tool\(count_items\) -> n {2}ok/);
    assert.match(text("console"), /4 {2}rlm -> inner {2}ok/);
    assert.deepEqual(JSON.parse(text("stdout")), { n: 3, inner: { n: 3 } });
  });
});

describe("inspecting a paused run", () => {
  test("bindings, budget and the run's state", async () => {
    await start({ program: nested, breakpoints: [{ line: 15 }] });
    await stoppedAt("breakpoint", 15);
    const bindings = await variables("Bindings");
    assert.deepEqual(bindings, { n: "3", inner: '{"n":3}' });
    const budget = await variables("Budget");
    assert.equal(budget.tool_calls, "6 left of 8 (2 spent)");
    assert.equal(budget.steps, "59 left of 64 (5 spent)");
    const run = await variables("Run");
    assert.equal(run.step, "final at steps.3");
    assert.equal(run.checkpoints, '["after inner"]');
    assert.deepEqual(await variables("Inputs"), {
      greeting: '"hello"',
      tags: "context terms: 6 bytes, 2 items",
      notes: "text file, not read yet",
    });
    // A context handle expands to its id and metadata.
    const frames = await dc.stackTraceRequest({ threadId: 1 });
    const scopes = await dc.scopesRequest({ frameId: frames.body.stackFrames[0]?.id as number });
    const inputs = scopes.body.scopes.find((scope) => scope.name === "Inputs")?.variablesReference as number;
    const tags = (await dc.variablesRequest({ variablesReference: inputs })).body.variables.find(
      (v) => v.name === "tags",
    );
    const metadata = (await dc.variablesRequest({ variablesReference: tags?.variablesReference as number })).body
      .variables;
    assert.deepEqual(
      metadata.map((v) => v.name),
      ["id", "backend", "kind", "bytes", "items", "version", "created_at"],
    );
    assert.deepEqual(
      metadata.filter((v) => ["kind", "items"].includes(v.name)).map((v) => v.value),
      ['"terms"', "2"],
    );
  });

  test("a binding's JSON value expands", async () => {
    await start({ program: nested, breakpoints: [{ line: 9 }] });
    await stoppedAt("breakpoint", 9);
    const frames = await dc.stackTraceRequest({ threadId: 1 });
    const scopes = await dc.scopesRequest({ frameId: frames.body.stackFrames[0]?.id as number });
    const bindingsRef = scopes.body.scopes[0]?.variablesReference as number;
    const e = (await dc.variablesRequest({ variablesReference: bindingsRef })).body.variables.find(
      (v) => v.name === "e",
    );
    assert.ok(e && e.variablesReference > 0);
    const fields = (await dc.variablesRequest({ variablesReference: e.variablesReference })).body.variables;
    assert.deepEqual(
      fields.filter((f) => f.name === "args").map((f) => [f.name, f.value, f.evaluateName]),
      [["args", '{"n":3}', "e.args"]],
    );
  });

  test("evaluate: the short form, plan JSON, and errors said plainly", async () => {
    await start({ program: nested, breakpoints: [{ line: 15 }] });
    await stoppedAt("breakpoint", 15);
    const evaluate = (expression: string) => dc.evaluateRequest({ expression, context: "repl", frameId: 1 });
    assert.equal((await evaluate("inner.n")).body.result, "3");
    assert.equal((await evaluate('{"ref": "input", "name": "greeting"}')).body.result, '"hello"');
    assert.equal((await evaluate('[{"ref": "var", "name": "n"}, 1]')).body.result, "[3,1]");
    await assert.rejects(evaluate("zz"), /variable "zz" is not bound/);
    await assert.rejects(evaluate("inner.nope"), /the value has no field "nope"/);
    // The error as the client shows it: braces as written, not doubled.
    const refused = await evaluate("a b").then(
      () => undefined,
      (error: Error) => error.message,
    );
    assert.equal(
      refused,
      '"a b" is not a name: use name.field, or a plan expression as JSON such as {"ref": "field", "value": {"ref": "var", "name": "x"}, "key": "a b"}',
    );
  });

  test("a text-file input shows in Inputs before a step reads it, unread; then as its context", async () => {
    await start({ program: readsNotes, breakpoints: [{ line: 4 }] });
    await stoppedAt("breakpoint", 4, readsNotes);
    assert.equal((await variables("Inputs")).notes, "text file, not read yet");
    await dc.nextRequest({ threadId: 1 });
    await stoppedAt("step", 5, readsNotes);
    assert.match((await variables("Inputs")).notes ?? "", /^context text: 25 bytes, 4 lines$/);
  });
});

describe("exception breakpoints", () => {
  test("tool_error stops at the failing step with the error", async () => {
    await start({ program: failing, filters: ["tool_error"] });
    assert.equal((await stoppedAt("exception", 4, failing)).length, 1);
    const info = await dc.exceptionInfoRequest({ threadId: 1 });
    assert.equal(info.body.exceptionId, "tool_error");
    assert.match(info.body.description ?? "", /tool "fail" failed/);
    await dc.continueRequest({ threadId: 1 });
    await terminated;
    assert.match(text("stderr"), /run failed: tool "fail" failed.*\[execute\/tool_error\]/);
  });

  test("all errors: each retry attempt's failure stops in its own frame; the retry's own failure is not a second stop", async () => {
    await start({ program: retrying, filters: ["all"] });
    for (const attempt of [1, 2]) {
      const frames = await stoppedAt("exception", 7, retrying);
      assert.deepEqual(
        frames.map((f) => [f.name, f.line]),
        [
          [`retry x attempt ${attempt}/2: tool(fail) -> y`, 7],
          ["plan: retry -> x", 3],
        ],
      );
      assert.equal((await variables("Run")).attempt, `${attempt} of 2`);
      assert.equal((await variables("Budget")).tool_calls, `${8 - attempt} left of 8 (${attempt} spent)`);
      await dc.continueRequest({ threadId: 1 });
    }
    await terminated;
    assert.equal(stops.length, 0);
    assert.match(text("stderr"), /\[execute\/tool_error\]/);
  });

  test("without a matching filter the run fails without stopping", async () => {
    await start({ program: failing, filters: ["model_error", "budget_exhausted"] });
    await terminated;
    assert.match(text("stderr"), /\[execute\/tool_error\]/);
  });
});

describe("launch and termination", () => {
  test("an invalid plan is a located launch error", async () => {
    const broken = join(dir, "broken.rlmplan.json");
    writeFileSync(
      broken,
      '{\n  "steps": [\n    { "op": "tool", "name": "nope", "args": 1, "bind": "x" },\n    { "op": "final", "value": 1 }\n  ]\n}\n',
    );
    await dc.initializeRequest({ adapterID: "rlm-plan", pathFormat: "path" });
    await assert.rejects(dc.launchRequest({ program: broken } as never), (error: Error) => {
      assert.match(error.message, new RegExp(`^${broken.replace(/[.]/g, "\\.")}:3:\\d+: .*tool\\(nope\\)`));
      return true;
    });
  });

  /** Starts the hanging plan and waits until its tool and the tool's child run; their pids. */
  async function hangingTool(): Promise<{ child: number; grandchild: number }> {
    rmSync(pidFile, { force: true });
    await start({ program: hanging });
    while (!existsSync(pidFile)) await new Promise((r) => setTimeout(r, 50));
    const pids = JSON.parse(readFileSync(pidFile, "utf8")) as { child: number; grandchild: number };
    assert.equal(processState(pids.child), "running");
    return pids;
  }

  test("terminate cancels the run and kills the running tool's process tree", async () => {
    const pids = await hangingTool();
    await dc.terminateRequest({});
    // The answer comes once the tools are gone: nothing of the tree is left running.
    assert.notEqual(processState(pids.child), "running");
    assert.notEqual(processState(pids.grandchild), "running");
    await terminated;
    assert.match(text("stderr"), /\[execute\/cancelled\]/);
  });

  test("disconnect without terminate kills the tool's process tree too", async () => {
    const pids = await hangingTool();
    await dc.disconnectRequest({ terminateDebuggee: true });
    assert.notEqual(processState(pids.child), "running");
    assert.notEqual(processState(pids.grandchild), "running");
  });
});

describe("a dry run with mocks", () => {
  const triage = join(ROOT, "examples", "workspace", "mocks", "triage.rlmplan.json");

  test("the mocks file answers the plan's tool and provider; the result says mocked", async () => {
    const result = dc.waitForEvent(DebugRunResultEvent.event);
    await start({ program: triage, mocks: join(ROOT, "examples", "workspace", "mocks", "triage.mocks.json") });
    const body = (await result).body as { ok: boolean; mocked?: boolean; value?: unknown };
    await terminated;
    assert.deepEqual([body.ok, body.mocked, body.value], [true, true, { title: "Example news", label: "news" }]);
    assert.match(text("console"), /\(mocked: .*triage\.mocks\.json\)/);
  });

  test("without mocks the same plan stops in preflight: the provider's key is not set", async () => {
    const result = dc.waitForEvent(DebugRunResultEvent.event);
    await start({ program: triage });
    const body = (await result).body as { ok: boolean; error?: { phase: string; kind: string } };
    await terminated;
    assert.deepEqual([body.ok, body.error?.phase, body.error?.kind], [false, "preflight", "provider_key_missing"]);
  });
});

describe("a test file's case", () => {
  const tests = join(ROOT, "examples", "workspace", "tests");
  const triage = join(ROOT, "examples", "workspace", "mocks", "triage.rlmplan.json");

  test("with its mocks: stops at a breakpoint of its plan, then ends with the case's value", async () => {
    const result = dc.waitForEvent(DebugRunResultEvent.event);
    const answered = await start({
      program: triage,
      breakpoints: [{ line: 25 }],
      testCase: { file: join(tests, "triage.rlmplan.test.json"), name: "labels a news page after one failed fetch" },
    });
    assert.deepEqual(
      answered.map((b) => [b.verified, b.line]),
      [[true, 24]],
    );
    await stoppedAt("breakpoint", 24, triage);
    await dc.continueRequest({ threadId: 1 });
    const body = (await result).body as { ok: boolean; mocked?: boolean; value?: unknown };
    await terminated;
    assert.deepEqual([body.ok, body.mocked, body.value], [true, true, { title: "Example news", label: "news" }]);
  });

  test("with its cassette: the tool and the model answer from the recording (no server, no key)", async () => {
    const result = dc.waitForEvent(DebugRunResultEvent.event);
    await start({
      program: join(ROOT, "examples", "workspace", "plans", "word-summary.rlmplan.json"),
      testCase: { file: join(tests, "word-summary.rlmplan.test.json"), name: "a short question" },
    });
    const body = (await result).body as { ok: boolean; value?: unknown };
    await terminated;
    assert.deepEqual([body.ok, body.value], [true, { words: 7, answer: "ice" }]);
  });

  test("a case that runs one step: the launch fails, saying rlm-plan test runs it", async () => {
    const file = join(dir, "step.rlmplan.test.json");
    writeFileSync(
      file,
      JSON.stringify({ plan: "nested.rlmplan.json", cases: [{ name: "first step", step: "/steps/0" }] }),
    );
    await assert.rejects(start({ program: nested, testCase: { file, name: "first step" } }), (error: Error) =>
      error.message.includes('the case "first step" runs one step ("step"): run it with rlm-plan test'),
    );
  });

  test("a case the file does not have: the launch fails, naming it", async () => {
    await assert.rejects(
      start({
        program: triage,
        testCase: { file: join(tests, "triage.rlmplan.test.json"), name: "no such case" },
      }),
      (error: Error) => error.message.includes('has no case named "no such case"'),
    );
  });
});
