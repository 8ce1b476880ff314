// Typed data flow, case by case: each plan under a real host profile (parsed as `check` reads
// it) with its exact type problems, or none. Context results, model replies, declared tool
// results, MCP output schemas, nested sub-plans, parallel lists, inputs, computed tool
// arguments, the host's result schema, and unknown flowing through without a false error.
// A plan is written one step a line, so the step at index i of the root is at line i + 2, column 3.

import assert from "node:assert/strict";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { hostToolKnowledge, type McpDiscovery } from "@rlm-plan/core/host/mcp/discovery";
import { parseHostProfile } from "@rlm-plan/core/host/profile";
import { hostTypes } from "@rlm-plan/core/host/typeHost";
import type { ToolSignature } from "@rlm-plan/core/plan/toolArgumentChecks";

const TYPE_KINDS = new Set(["unknown_field", "field_of_non_object", "invalid_result", "invalid_tool_arguments"]);

const PROFILE = {
  capabilities: [],
  inputs: {
    doc: { type: "text", text: "alpha\nbeta\n" },
    rows: { type: "items", items: [{ id: 1 }, { id: 2 }] },
    cfg: { type: "value", value: { mode: "fast", limits: { depth: 2 } } },
    open: { type: "value", value: {}, schema: { type: "object", properties: { mode: { type: "string" } } } },
  },
  tools: {
    lookup: {
      type: "command",
      command: ["lookup"],
      inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
      returns: {
        type: "object",
        properties: { title: { type: "string" }, url: { type: "string" } },
        required: ["title"],
        additionalProperties: false,
      },
    },
    loose: { type: "command", command: ["loose"], returns: { type: "object", properties: { a: { type: "string" } } } },
    listing: { type: "command", command: ["listing"], returns: { type: "array", items: { type: "string" } } },
    either: {
      type: "command",
      command: ["either"],
      returns: { anyOf: [{ $ref: "#/$defs/hit" }, { type: "null" }], $defs: { hit: HIT() } },
    },
    free: { type: "command", command: ["free"] },
    echo: {
      type: "command",
      command: ["echo"],
      inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    },
    sum: {
      type: "command",
      command: ["sum"],
      inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
    },
    save: {
      type: "command",
      command: ["save"],
      inputSchema: {
        type: "object",
        properties: { page: { type: "object", properties: { url: { type: "string" } }, required: ["url"] } },
      },
    },
  },
  providers: { local: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m" } },
  mcpServers: { web: { command: "web-server" } },
};

function HIT(): object {
  return { type: "object", properties: { score: { type: "number" } }, additionalProperties: false };
}

/** What the MCP server "web" listed (its tools' schemas), as discovery returns it. */
const LISTED: McpDiscovery = {
  tools: new Map<string, ToolSignature>([
    [
      "web.search",
      {
        source: 'MCP server "web"',
        outputSchema: {
          type: "object",
          properties: { results: { type: "array", items: { type: "string" } }, total: { type: "integer" } },
          required: ["results", "total"],
          additionalProperties: false,
        },
      },
    ],
    ["web.fetch", { source: 'MCP server "web"' }],
  ]),
  failures: new Map(),
};

/** The type problems of `steps` under the profile (plus `extra`), as [token, message]. */
function typeProblems(steps: readonly unknown[], extra: object = {}): [string, string][] {
  const parsed = parseHostProfile(JSON.stringify({ ...PROFILE, ...extra }), "/w/rlmplan.host.json");
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join("; "));
  const tools = hostToolKnowledge(parsed.profile, LISTED);
  const text = `{"steps": [\n${steps.map((s) => `  ${JSON.stringify(s)}`).join(",\n")}\n]}`;
  const analysis = analyzePlanText(text, { tools, types: hostTypes(parsed.profile, tools) });
  return analysis.problems
    .filter((p) => TYPE_KINDS.has(p.kind))
    .map((p) => [text.slice(p.range.offset, p.range.offset + p.range.length), p.message]);
}

const input = (name: string) => ({ ref: "input", name });
const v = (name: string) => ({ ref: "var", name });
const f = (value: unknown, key: string) => ({ ref: "field", value, key });
const final = (value: unknown) => ({ op: "final", value });
const ctx = (action: object, bind: string, handle: unknown = input("doc")) => ({ op: "context", handle, action, bind });
const ask = (bind = "reply", provider = "local") => ({ op: "model", provider, prompt: "Summarize", bind });
const call = (name: string, bind: string, args: unknown = {}) => ({ op: "tool", name, args, bind });
const search = ctx({ type: "search", pattern: "a" }, "hits");

interface Case {
  readonly name: string;
  readonly steps: readonly unknown[];
  readonly extra?: object;
  readonly expected: readonly [string, string][];
}

const CASES: readonly Case[] = [
  // Context results, each from the runtime's own result shapes.
  { name: "search: the list itself is fine", steps: [search, final(v("hits"))], expected: [] },
  {
    name: "search: a field of the list is read",
    steps: [search, final(f(v("hits"), "value"))],
    expected: [
      [
        '"value"',
        '`hits` is a list (array<{index: integer, value: string}>), not an object: it has no field "value" (`hits` is the result of the context search at 2:3)',
      ],
    ],
  },
  {
    name: "slice of a text is text",
    steps: [ctx({ type: "slice", start: 0, length: 3 }, "part"), final(f(v("part"), "text"))],
    expected: [
      [
        '"text"',
        '`part` is text (string), not an object: it has no field "text" (`part` is the result of the context slice at 2:3)',
      ],
    ],
  },
  {
    name: "peek metadata: a known field",
    steps: [ctx({ type: "peek", selector: "metadata" }, "meta"), final(f(v("meta"), "kind"))],
    expected: [],
  },
  {
    name: "peek metadata: a misspelled field, with the nearest",
    steps: [ctx({ type: "peek", selector: "metadata" }, "meta"), final(f(v("meta"), "byte"))],
    expected: [
      ['"byte"', '`meta` has no field "byte": did you mean "bytes"? (`meta` is the result of the context peek at 2:3)'],
    ],
  },
  {
    name: "peek head of a text is text",
    steps: [ctx({ type: "peek", selector: { type: "head", count: 2 } }, "top"), final(f(v("top"), "line"))],
    expected: [
      [
        '"line"',
        '`top` is text (string), not an object: it has no field "line" (`top` is the result of the context peek at 2:3)',
      ],
    ],
  },
  {
    name: "partition: a list of parts",
    steps: [ctx({ type: "partition", strategy: { type: "fixed", size: 4 } }, "parts"), final(f(v("parts"), "start"))],
    expected: [
      [
        '"start"',
        '`parts` is a list (array<{index: integer, start: integer, length: integer, value: string}>), not an object: it has no field "start" (`parts` is the result of the context partition at 2:3)',
      ],
    ],
  },
  {
    name: "map: a list of texts",
    steps: [ctx({ type: "map", transform: "lowercase" }, "low"), final(f(v("low"), "0"))],
    expected: [
      [
        '"0"',
        '`low` is a list (array<string>), not an object: it has no field "0" (`low` is the result of the context map at 2:3)',
      ],
    ],
  },
  {
    name: "reduce: a whole number",
    steps: [ctx({ type: "reduce", reducer: "count" }, "n"), final(f(v("n"), "value"))],
    expected: [
      [
        '"value"',
        '`n` is a whole number (integer), not an object: it has no field "value" (`n` is the result of the context reduce at 2:3)',
      ],
    ],
  },
  {
    name: "slice of a list of items is a list",
    steps: [ctx({ type: "slice", start: 0, length: 1 }, "some", input("rows")), final(f(v("some"), "id"))],
    expected: [
      [
        '"id"',
        '`some` is a list (array<unknown>), not an object: it has no field "id" (`some` is the result of the context slice at 2:3)',
      ],
    ],
  },
  {
    name: "peek item of a list: the item's type is unknown, so any field may be read",
    steps: [
      ctx({ type: "peek", selector: { type: "item", index: 0 } }, "one", input("rows")),
      final(f(v("one"), "id")),
    ],
    expected: [],
  },
  {
    name: "a context of unknown kind: slice is text or a list, neither has fields",
    steps: [ctx({ type: "slice", start: 0, length: 1 }, "s", input("elsewhere")), final(f(v("s"), "x"))],
    expected: [
      [
        '"x"',
        '`s` is text or a list (string | array<unknown>), not an object: it has no field "x" (`s` is the result of the context slice at 2:3)',
      ],
    ],
  },
  {
    name: "a context of unknown kind: metadata is the same for both",
    steps: [ctx({ type: "peek", selector: "metadata" }, "m", input("elsewhere")), final(f(v("m"), "items"))],
    expected: [],
  },
  // Model replies, as the provider builds them (run/modelReply.ts).
  { name: "reply.text", steps: [ask(), final(f(v("reply"), "text"))], expected: [] },
  {
    name: "reply.txt: the nearest field named, with the chain",
    steps: [ask(), final(f(v("reply"), "txt"))],
    expected: [
      ['"txt"', '`reply` has no field "txt": did you mean "text"? (`reply` is the reply of the model call at 2:3)'],
    ],
  },
  { name: "reply.usage.total_tokens", steps: [ask(), final(f(f(v("reply"), "usage"), "total_tokens"))], expected: [] },
  {
    name: "reply.usage.tokens: the fields listed when none is near",
    steps: [ask(), final(f(f(v("reply"), "usage"), "cost"))],
    expected: [
      [
        '"cost"',
        '`reply.usage` has no field "cost"; its fields are "prompt_tokens", "completion_tokens", "total_tokens" (`reply` is the reply of the model call at 2:3)',
      ],
    ],
  },
  {
    name: "reply.text.length: text has no fields",
    steps: [ask(), final(f(f(v("reply"), "text"), "length"))],
    expected: [
      [
        '"length"',
        '`reply.text` is text (string), not an object: it has no field "length" (`reply` is the reply of the model call at 2:3)',
      ],
    ],
  },
  {
    name: "reply.finish_reason.code: text or null",
    steps: [ask(), final(f(f(v("reply"), "finish_reason"), "code"))],
    expected: [
      [
        '"code"',
        '`reply.finish_reason` is text or null (string | null), not an object: it has no field "code" (`reply` is the reply of the model call at 2:3)',
      ],
    ],
  },
  {
    name: "a provider the host does not declare: its reply is unknown",
    steps: [ask("reply", "remote"), final(f(v("reply"), "anything"))],
    expected: [],
  },
  // Tool results: declared in the profile (`returns`) or published by an MCP server.
  {
    name: "a declared result's field",
    steps: [call("lookup", "page", { query: "q" }), final(f(v("page"), "title"))],
    expected: [],
  },
  {
    name: "a declared result's misspelled field",
    steps: [call("lookup", "page", { query: "q" }), final(f(v("page"), "titel"))],
    expected: [
      ['"titel"', '`page` has no field "titel": did you mean "title"? (`page` is the result of tool "lookup" at 2:3)'],
    ],
  },
  {
    name: "an open object (no additionalProperties: false) may have other fields",
    steps: [call("loose", "l"), final(f(v("l"), "b"))],
    expected: [],
  },
  {
    name: "a declared list result",
    steps: [call("listing", "names"), final(f(v("names"), "first"))],
    expected: [
      [
        '"first"',
        '`names` is a list (array<string>), not an object: it has no field "first" (`names` is the result of tool "listing" at 2:3)',
      ],
    ],
  },
  {
    name: "a $ref'd object or null: its field is read from the object",
    steps: [call("either", "e"), final(f(v("e"), "score"))],
    expected: [],
  },
  {
    name: "a $ref'd object or null: a field neither has",
    steps: [call("either", "e"), final(f(v("e"), "scor"))],
    expected: [
      ['"scor"', '`e` has no field "scor": did you mean "score"? (`e` is the result of tool "either" at 2:3)'],
    ],
  },
  {
    name: "a tool without a declared result: unknown",
    steps: [call("free", "x"), final(f(f(v("x"), "a"), "b"))],
    expected: [],
  },
  { name: "an MCP outputSchema's field", steps: [call("web.search", "r"), final(f(v("r"), "total"))], expected: [] },
  {
    name: "an MCP outputSchema's misspelled field",
    steps: [call("web.search", "r"), final(f(v("r"), "result"))],
    expected: [
      [
        '"result"',
        '`r` has no field "result": did you mean "results"? (`r` is the result of tool "web.search" at 2:3)',
      ],
    ],
  },
  {
    name: "an MCP tool without an outputSchema: unknown",
    steps: [call("web.fetch", "p"), final(f(v("p"), "body"))],
    expected: [],
  },
  // Nested sub-plans: rlm and retry bind their plan's final, parallel the list of its branches'.
  {
    name: "rlm: the sub-plan's final object",
    steps: [
      { op: "rlm", plan: { steps: [ask("inner"), final({ answer: f(v("inner"), "text") })] }, bind: "sub" },
      final(f(v("sub"), "answr")),
    ],
    expected: [
      [
        '"answr"',
        '`sub` has no field "answr": did you mean "answer"? (`sub` is the final value of the rlm sub-plan at 2:3)',
      ],
    ],
  },
  {
    name: "rlm: a sub-plan's final reads an outer binding",
    steps: [search, { op: "rlm", plan: { steps: [final(v("hits"))] }, bind: "same" }, final(f(v("same"), "index"))],
    expected: [
      [
        '"index"',
        '`same` is a list (array<{index: integer, value: string}>), not an object: it has no field "index" (`same` is the final value of the rlm sub-plan at 3:3)',
      ],
    ],
  },
  {
    name: "retry: the retried plan's final",
    steps: [
      { op: "retry", attempts: 2, plan: { steps: [ask("r"), final(v("r"))] }, bind: "again" },
      final(f(v("again"), "text")),
    ],
    expected: [],
  },
  {
    name: "retry: a field the retried plan's reply lacks",
    steps: [
      { op: "retry", attempts: 2, plan: { steps: [ask("r"), final(v("r"))] }, bind: "again" },
      final(f(v("again"), "answer")),
    ],
    expected: [
      [
        '"answer"',
        '`again` has no field "answer"; its fields are "text", "model", "usage", "finish_reason" (`again` is the final value of the retried plan at 2:3)',
      ],
    ],
  },
  {
    name: "parallel: a list of the branches' finals",
    steps: [
      { op: "parallel", plans: [{ steps: [final("a")] }, { steps: [final(1)] }], bind: "both" },
      final(f(v("both"), "a")),
    ],
    expected: [
      [
        '"a"',
        '`both` is a list of 2 ([string, integer]), not an object: it has no field "a" (`both` is the list of the parallel branches\' final values at 2:3)',
      ],
    ],
  },
  {
    name: "a field inside a branch reads the branch's own binding",
    steps: [{ op: "parallel", plans: [{ steps: [ask("r"), final(f(v("r"), "txt"))] }], bind: "all" }, final(v("all"))],
    expected: [['"txt"', '`r` has no field "txt": did you mean "text"? (`r` is the reply of the model call at 2:39)']],
  },
  // Inputs: a text is a context handle; a value has its own type, or its declared schema's.
  {
    name: "a field of a context handle",
    steps: [final(f(input("doc"), "text"))],
    expected: [
      ['"text"', 'input `doc` is a context handle (context handle (text)), not an object: it has no field "text"'],
    ],
  },
  { name: "a value input's field", steps: [final(f(f(input("cfg"), "limits"), "depth"))], expected: [] },
  {
    name: "a value input's misspelled field",
    steps: [final(f(input("cfg"), "mod"))],
    expected: [['"mod"', 'input `cfg` has no field "mod": did you mean "mode"?']],
  },
  { name: "a value input with an open schema", steps: [final(f(input("open"), "other"))], expected: [] },
  {
    name: "a field of a literal object",
    steps: [final(f({ a: 1 }, "b"))],
    expected: [['"b"', 'the value has no field "b"; its fields are "a"']],
  },
  // Tool arguments computed from typed values.
  {
    name: "a model reply where text is expected",
    steps: [ask(), call("echo", "said", { message: v("reply") }), final(v("said"))],
    expected: [
      [
        '{"ref":"var","name":"reply"}',
        'tool "echo": argument "message" must be text, but "reply" is {text: string, model: string, usage: {prompt_tokens: integer | null, completion_tokens: integer | null, total_tokens: integer | null}, finish_reason: string | null} (the reply of the model call) (its input schema)',
      ],
    ],
  },
  {
    name: "the reply's text where text is expected",
    steps: [ask(), call("echo", "said", { message: f(v("reply"), "text") }), final(v("said"))],
    expected: [],
  },
  {
    name: "a count where a number is expected; a token count (a whole number or null) too",
    steps: [
      ctx({ type: "reduce", reducer: "count" }, "n"),
      ask(),
      call("sum", "s1", { a: v("n") }),
      call("sum", "s2", { a: f(f(v("reply"), "usage"), "total_tokens") }),
      final(v("s2")),
    ],
    expected: [],
  },
  {
    name: "a declared result that lacks a field the next tool requires",
    steps: [
      call("lookup", "page", { query: "q" }),
      call("save", "saved", { page: { title: f(v("page"), "title") } }),
      final(1),
    ],
    expected: [['"page"', 'tool "save": argument "page" lack the required "url" (its input schema)']],
  },
  {
    name: "an input value where the tool expects a number",
    steps: [call("sum", "s", { a: f(input("cfg"), "mode") }), final(v("s"))],
    expected: [
      [
        '{"ref":"field","value":{"ref":"input","name":"cfg"},"key":"mode"}',
        'tool "sum": argument "a" must be a number, but input "cfg".mode is string (its input schema)',
      ],
    ],
  },
  // The host's result schema for the plan's final value.
  {
    name: "a final that meets the result schema",
    steps: [ask(), final({ answer: f(v("reply"), "text") })],
    extra: { result: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } },
    expected: [],
  },
  {
    name: "a final that cannot meet the result schema",
    steps: [ask(), final(f(v("reply"), "usage"))],
    extra: { result: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } },
    expected: [
      [
        '{"ref":"field","value":{"ref":"var","name":"reply"},"key":"usage"}',
        'the final value must have the field "answer", but "reply".usage is {prompt_tokens: integer | null, completion_tokens: integer | null, total_tokens: integer | null} (the reply of the model call) (the host\'s result schema)',
      ],
    ],
  },
  {
    name: "a literal final of the wrong type",
    steps: [final("done")],
    extra: { result: { type: "object" } },
    expected: [['"done"', 'the final value must be an object, got the text "done" (the host\'s result schema)']],
  },
  {
    name: "an unknown final is not judged",
    steps: [call("free", "x"), final(v("x"))],
    extra: { result: { type: "object", required: ["answer"] } },
    expected: [],
  },
  // Unknown flows through as unknown.
  {
    name: "unknown through an rlm, a parallel branch and a field chain",
    steps: [
      call("free", "x"),
      { op: "rlm", plan: { steps: [final(f(v("x"), "deep"))] }, bind: "sub" },
      { op: "parallel", plans: [{ steps: [final(f(v("sub"), "deeper"))] }], bind: "par" },
      call("echo", "said", { message: f(v("sub"), "text") }),
      final(f(f(v("sub"), "a"), "b")),
    ],
    expected: [],
  },
  {
    name: "one field mistake is reported once, not again on the fields read from it",
    steps: [ask(), final(f(f(v("reply"), "txt"), "more"))],
    expected: [
      ['"txt"', '`reply` has no field "txt": did you mean "text"? (`reply` is the reply of the model call at 2:3)'],
    ],
  },
];

test(`the table holds at least 40 typed plans (${CASES.length})`, () => {
  assert.ok(CASES.length >= 40);
});

for (const c of CASES) {
  test(c.name, () => {
    assert.deepEqual(typeProblems(c.steps, c.extra), c.expected);
  });
}
