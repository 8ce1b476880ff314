// Static typing of tool arguments: literal arguments validated against a tool's input schema
// with ajv, computed values checked where their type is known (plan/types/), problems located on the exact
// token as host-dependent warnings; tools whose source could not be asked get one note.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import type { ToolKnowledge, ToolSignature } from "@rlm-plan/core/plan/toolArgumentChecks";
import { argumentKeys } from "@rlm-plan/core/plan/toolArgumentChecks";

const ECHO: ToolSignature = {
  description: "Echoes back the input string",
  inputSchema: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { message: { type: "string", description: "Message to echo" } },
    required: ["message"],
  },
};
const SUM: ToolSignature = {
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" }, unit: { enum: ["m", "s"] } },
    required: ["a", "b"],
    additionalProperties: false,
  },
};
const JOIN: ToolSignature = {
  inputSchema: {
    type: "object",
    properties: { texts: { type: "array", items: { type: "string" } }, separator: { $ref: "#/$defs/sep" } },
    $defs: { sep: { type: "string" } },
  },
};

function knowledge(unavailable: Record<string, string> = {}): ToolKnowledge {
  const tools: Record<string, ToolSignature> = { "e.echo": ECHO, "e.sum": SUM, join: JOIN, free: {} };
  return {
    has: (name) => name in tools,
    signature: (name) => tools[name],
    unavailable: (name) => unavailable[name],
  };
}

/** The argument problems of a plan, as [text of the token, message]. */
function problems(steps: unknown[], tools = knowledge()): [string, string][] {
  const text = JSON.stringify({ steps: [...steps, { op: "final", value: 1 }] }, null, 1);
  const analysis = analyzePlanText(text, { tools });
  return analysis.problems
    .filter((p) => p.kind === "invalid_tool_arguments" || p.kind === "tool_source_unavailable")
    .map((p) => {
      assert.equal(p.hostDependent, true);
      return [text.slice(p.range.offset, p.range.offset + p.range.length), p.message];
    });
}

const tool = (name: string, args: unknown, bind = "r") => ({ op: "tool", name, args, bind });

describe("tool arguments: literals against the input schema", () => {
  test("matching arguments pass, under either draft", () => {
    assert.deepEqual(problems([tool("e.echo", { message: "hi" }), tool("e.sum", { a: 1, b: 2.5 }, "s")]), []);
  });

  test("a wrong type, on the value's token", () => {
    assert.deepEqual(problems([tool("e.sum", { a: "2", b: 3 })]), [
      ['"2"', 'tool "e.sum": argument "a" must be a number, got the text "2" (its input schema)'],
    ]);
  });

  test("a missing key, on the args key; a misspelled one, on itself with a hint", () => {
    assert.deepEqual(problems([tool("e.echo", {})]), [
      ['"args"', 'tool "e.echo": the arguments lack the required "message" (its input schema)'],
    ]);
    assert.deepEqual(problems([tool("e.echo", { mesage: "x" })]), [
      [
        '"mesage"',
        'tool "e.echo": argument "mesage" is not one the tool takes: did you mean "message"? (its input schema)',
      ],
    ]);
  });

  test("a key the tool does not take, an enum, and arguments that are not an object", () => {
    assert.deepEqual(problems([tool("e.sum", { a: 1, b: 2, c: 3, unit: "h" })]), [
      ['"c"', 'tool "e.sum": argument "c" is not one the tool takes: the keys are "a", "b", "unit" (its input schema)'],
      ['"h"', 'tool "e.sum": argument "unit" must be one of "m", "s", got the text "h" (its input schema)'],
    ]);
    assert.deepEqual(problems([tool("e.echo", ["hi"])]), [
      ['[\n    "hi"\n   ]', 'tool "e.echo": the arguments must be an object, got a list (its input schema)'],
    ]);
  });

  test("nested plans are checked too; tools without a schema or unknown to the host are not", () => {
    const nested = {
      op: "retry",
      attempts: 2,
      plan: { steps: [tool("e.sum", { a: 1, b: true }), { op: "final", value: 1 }] },
      bind: "x",
    };
    assert.deepEqual(problems([nested, tool("free", 5, "f"), tool("unknown", 5, "u")]), [
      ["true", 'tool "e.sum": argument "b" must be a number, got true (its input schema)'],
    ]);
  });
});

describe("tool arguments: references", () => {
  const search = {
    op: "context",
    handle: { ref: "input", name: "doc" },
    action: { type: "search", pattern: "x" },
    bind: "hits",
  };
  const count = {
    op: "context",
    handle: { ref: "input", name: "doc" },
    action: { type: "reduce", reducer: "count" },
    bind: "n",
  };

  test("a search result is a list of {index, value}: wrong where a list of texts or a text is expected", () => {
    assert.deepEqual(problems([search, tool("join", { texts: { ref: "var", name: "hits" } })]), [
      [
        '{\n     "ref": "var",\n     "name": "hits"\n    }',
        'tool "join": argument "texts"[] must be text, but "hits"[] is {index: integer, value: string} (the result of the context search) (its input schema)',
      ],
    ]);
    assert.deepEqual(problems([search, tool("e.echo", { message: { ref: "var", name: "hits" } })]), [
      [
        '{\n     "ref": "var",\n     "name": "hits"\n    }',
        'tool "e.echo": argument "message" must be text, but "hits" is array<{index: integer, value: string}> (the result of the context search) (its input schema)',
      ],
    ]);
  });

  test("a count is a whole number, which a number accepts; a $ref'd text does not", () => {
    assert.deepEqual(problems([count, tool("e.sum", { a: { ref: "var", name: "n" }, b: 1 })]), []);
    assert.equal(problems([count, tool("join", { separator: { ref: "var", name: "n" } })]).length, 1);
  });

  test("a reference of unknown shape is not judged, nor is anything under it", () => {
    assert.deepEqual(problems([tool("e.echo", { message: { ref: "input", name: "doc" } })]), []);
    assert.deepEqual(problems([tool("e.sum", { ref: "input", name: "args" })]), []);
  });

  test("a nested plan sees the enclosing plan's bindings (the semantic model's scope rule)", () => {
    const inner = (steps: unknown[]) => ({
      op: "retry",
      attempts: 2,
      plan: { steps: [...steps, { op: "final", value: 1 }] },
      bind: "again",
    });
    const echoHits = tool("e.echo", { message: { ref: "var", name: "hits" } }, "said");
    assert.deepEqual(
      problems([search, inner([echoHits])]).map(([, message]) => message),
      [
        'tool "e.echo": argument "message" must be text, but "hits" is array<{index: integer, value: string}> (the result of the context search) (its input schema)',
      ],
    );
    // Bound later in the enclosing plan: not in scope at the reference, so its shape is unknown.
    assert.deepEqual(problems([inner([echoHits]), search]), []);
    // Shadowed inside the nested plan by a count: the nearer binding types the reference.
    const countAsHits = { ...count, bind: "hits" };
    const sumHits = tool("e.sum", { a: { ref: "var", name: "hits" }, b: 1 }, "s");
    assert.deepEqual(problems([search, inner([countAsHits, sumHits])]), []);
  });
});

test("a tool whose MCP server did not start: one note on its name, its arguments unchecked", () => {
  const tools = knowledge({ "e.sum": 'MCP server "e" could not be started: command "x" was not found' });
  assert.deepEqual(problems([tool("e.sum", { a: "wrong" })], tools), [
    [
      '"e.sum"',
      'MCP server "e" could not be started: command "x" was not found: the arguments of tool "e.sum" are not checked',
    ],
  ]);
});

test("argument keys for completion: names, descriptions, which are required", () => {
  assert.deepEqual(argumentKeys(ECHO.inputSchema), [
    { name: "message", required: true, description: "Message to echo" },
  ]);
  assert.deepEqual(argumentKeys(undefined), []);
});
