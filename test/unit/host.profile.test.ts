// Host profiles: a valid one, each kind of mistake with its exact place and message, finding the
// profile from a plan file, and the schema itself (descriptions for editors).

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import {
  findHostProfile,
  HOST_PROFILE_FILENAME,
  HOST_PROFILE_SCHEMA_FILE,
  loadHostProfile,
  parseHostProfile,
  type HostProfileError,
} from "@rlm-plan/core/host";

const ROOT = resolve(__dirname, "..", "..", "..");
const FILE = "/work/space/rlmplan.host.json";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-host-profile-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The errors of a profile written as lines, as [jsonPath, line, column, message]. */
function errorsOf(lines: readonly string[]): [string, number, number, string][] {
  const result = parseHostProfile(lines.join("\n"), FILE);
  assert.equal(result.ok, false, "expected the profile to be rejected");
  if (result.ok) return [];
  for (const error of result.errors) assert.equal(error.file, FILE);
  return result.errors.map((e: HostProfileError) => [e.jsonPath, e.line, e.column, e.message]);
}

describe("host profile: a valid profile", () => {
  test("the example workspace's profile parses, with every section", () => {
    const file = join(ROOT, "examples", "workspace", HOST_PROFILE_FILENAME);
    const result = loadHostProfile(file);
    assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
    const { profile } = result;
    assert.equal(profile.file, file);
    assert.equal(profile.dir, join(ROOT, "examples", "workspace"));
    assert.ok(profile.capabilities.includes("tool(count_items)"));
    assert.deepEqual({ ...profile.budget }, { max_tool_calls: 8, time_limit: 30 });
    assert.deepEqual({ ...profile.context }, { max_results: 32, max_bytes: 16384 });
    assert.deepEqual([...profile.inputs.keys()], ["haystack", "records", "tags", "url"]);
    assert.deepEqual(
      { ...profile.inputs.get("haystack") },
      {
        type: "text-file",
        path: "data/haystack.txt",
        description: "300 lines of hay; 12 of them hide a needle.",
      },
    );
    assert.deepEqual([...profile.tools.keys()], ["count_items", "sum", "pick", "word_count", "flaky_fetch"]);
    assert.deepEqual(
      { ...profile.tools.get("word_count") },
      {
        type: "command",
        command: ["node", "tools/word-count.js"],
        timeoutMs: 5000,
        description: "Counts the texts and words anywhere in its arguments.",
      },
    );
    assert.equal(profile.providers.get("local")?.baseUrl, "http://127.0.0.1:8080/v1");
  });

  test("comments, trailing commas and a byte order mark are fine", () => {
    const text = '\ufeff// host\n{\n  "capabilities": ["rlm", "tool(\'Count Items\')",], /* ok */\n}\n';
    const result = parseHostProfile(text, FILE);
    assert.ok(result.ok);
    assert.deepEqual(result.profile.capabilities, ["rlm", "tool('Count Items')"]);
    assert.equal(result.profile.budget, undefined);
    assert.equal(result.profile.inputs.size, 0);
  });

  test("a key named __proto__ is an ordinary name", () => {
    const result = parseHostProfile(
      '{"capabilities": [], "inputs": {"__proto__": {"type": "value", "value": 1}}}',
      FILE,
    );
    assert.ok(result.ok);
    assert.deepEqual({ ...result.profile.inputs.get("__proto__") }, { type: "value", value: 1 });
  });

  test("locate maps a JSON Pointer to its line and column", () => {
    const result = parseHostProfile(
      '{\n  "capabilities": [],\n  "tools": {\n    "a/b": {"type": "builtin", "builtin": "sum"}\n  }\n}',
      FILE,
    );
    assert.ok(result.ok);
    assert.deepEqual(result.profile.locate("/tools/a~1b/builtin"), { line: 4, column: 43, offset: 79, length: 5 });
    assert.deepEqual(result.profile.locate("/tools/a~1b", "key"), { line: 4, column: 5, offset: 41, length: 5 });
  });
});

describe("host profile: each mistake, located", () => {
  test("unknown key", () => {
    assert.deepEqual(
      errorsOf([
        "{",
        '  "capabilities": ["rlm"],',
        '  "tools": {',
        '    "t": { "type": "command", "command": ["x"], "timeout": 5 }',
        "  }",
        "}",
      ]),
      [
        [
          "/tools/t/timeout",
          4,
          49,
          'unknown key "timeout" in tool "t": did you mean "timeoutMs"? (the keys are type, command, cwd, env, inheritEnv, writes, network, timeoutMs, maxStdoutBytes, maxStderrBytes, inputSchema, returns, description)',
        ],
      ],
    );
  });

  test("a misspelled key gets a suggestion", () => {
    assert.deepEqual(errorsOf(['{ "capabilities": [], "toolz": {} }']), [
      [
        "/toolz",
        1,
        23,
        'unknown key "toolz" in the host profile: did you mean "tools"? (the keys are $schema, description, capabilities, budget, currency, parallel, context, inputs, tools, mcpServers, journal, telemetry, sandbox, providers, approvals, result)',
      ],
    ]);
  });

  test("wrong type", () => {
    assert.deepEqual(
      errorsOf([
        "{",
        '  "capabilities": [],',
        '  "tools": {',
        '    "flaky_fetch": { "type": "command", "command": ["x"], "timeoutMs": "5000" }',
        "  }",
        "}",
      ]),
      [
        [
          "/tools/flaky_fetch/timeoutMs",
          4,
          72,
          '"timeoutMs" of tool "flaky_fetch" must be a whole number, got the text "5000"',
        ],
      ],
    );
  });

  test("bad capability strings", () => {
    assert.deepEqual(errorsOf(['{ "capabilities": ["rlm", "tool(", "paralel", "context(serch)", "tool()"] }']), [
      [
        "/capabilities/1",
        1,
        27,
        '"tool(" is not a capability term: write context(ACTION), model(PROVIDER), tool(NAME), rlm, parallel, retry or checkpoint',
      ],
      [
        "/capabilities/2",
        1,
        36,
        '"paralel" is not a capability: write context(ACTION), model(PROVIDER), tool(NAME), rlm, parallel, retry or checkpoint',
      ],
      [
        "/capabilities/3",
        1,
        47,
        '"context(serch)" is not a context capability: the actions are search, slice, peek, partition, map, reduce',
      ],
      [
        "/capabilities/4",
        1,
        65,
        '"tool()" is not a capability term: write context(ACTION), model(PROVIDER), tool(NAME), rlm, parallel, retry or checkpoint',
      ],
    ]);
  });

  test("missing command", () => {
    assert.deepEqual(
      errorsOf([
        "{",
        '  "capabilities": [],',
        '  "tools": {',
        '    "t": { "type": "command", "cwd": "." }',
        "  }",
        "}",
      ]),
      [
        [
          "/tools/t",
          4,
          5,
          'tool "t" is missing "command": the program and its arguments, for example ["node", "tools/word-count.js"].',
        ],
      ],
    );
  });

  test("missing capabilities", () => {
    assert.deepEqual(errorsOf(["{}"]), [
      [
        "",
        1,
        1,
        'the host profile is missing "capabilities": capabilities granted to plans, written as the reference runtime writes them: context(search), context(slice), context(peek), context(partition), context(map), context(reduce), model(PROVIDER), tool(NAME), rlm, parallel, retry, checkpoint.',
      ],
    ]);
  });

  test("duplicate key", () => {
    assert.deepEqual(
      errorsOf([
        "{",
        '  "capabilities": [],',
        '  "tools": {',
        '    "t": { "type": "builtin", "builtin": "sum" },',
        '    "t": { "type": "builtin", "builtin": "join" }',
        "  }",
        "}",
      ]),
      [["/tools/t", 5, 5, 'duplicate key "t" (first at line 4): a key may appear only once, remove one of them']],
    );
  });

  test("syntax error: only the first is reported", () => {
    assert.deepEqual(errorsOf(["{", '  "capabilities": ["rlm"', '  "tools": {}', "}"]), [
      ["", 3, 3, "invalid JSON: comma expected: fix the JSON syntax (comments and trailing commas are allowed)"],
    ]);
  });

  test("unknown type of an input, a tool and a provider; a missing type", () => {
    assert.deepEqual(
      errorsOf([
        "{",
        '  "capabilities": [],',
        '  "inputs": { "a": { "type": "csv" }, "b": { "path": "x" } },',
        '  "tools": { "t": { "type": "shell" } },',
        '  "providers": { "p": { "type": "anthropic" } }',
        "}",
      ]),
      [
        [
          "/inputs/a/type",
          3,
          30,
          'input "a" has an unknown "type" "csv": use "text-file", "text", "items-file", "items" or "value"',
        ],
        ["/inputs/b", 3, 39, 'input "b" needs a "type": "text-file", "text", "items-file", "items" or "value"'],
        ["/tools/t/type", 4, 29, 'tool "t" has an unknown "type" "shell": use "builtin" or "command"'],
        ["/providers/p/type", 5, 33, 'provider "p" has an unknown "type" "anthropic": use "openai-chat"'],
      ],
    );
  });

  test("values out of range, bad names and patterns", () => {
    assert.deepEqual(
      errorsOf([
        "{",
        '  "capabilities": ["rlm", "rlm"],',
        '  "context": { "max_results": 0 },',
        '  "tools": { "t": { "type": "command", "command": [], "inheritEnv": ["A-B"], "env": { "X": 1 } } },',
        '  "providers": { "p": { "type": "openai-chat", "baseUrl": "ftp://h", "model": "m", "apiKeyEnv": "my key" } },',
        '  "inputs": { "": { "type": "value", "value": 1 }, "f": { "type": "items-file", "path": "x", "format": "csv" } }',
        "}",
      ]),
      [
        ["/capabilities/0", 2, 20, '"capabilities" lists the text "rlm" twice (also item 2): remove one'],
        ["/context/max_results", 3, 31, '"max_results" in "context" must be at least 1, got the number 0'],
        ["/tools/t/command", 4, 51, '"command" of tool "t" must not be empty'],
        [
          "/tools/t/inheritEnv/0",
          4,
          70,
          '"inheritEnv" item 1 of tool "t" must be an environment variable name (letters, digits and _, not starting with a digit), got the text "A-B"',
        ],
        ["/tools/t/env/X", 4, 92, '"env"."X" of tool "t" must be text, got the number 1'],
        [
          "/providers/p/baseUrl",
          5,
          59,
          '"baseUrl" of provider "p" must be a URL that starts with http:// or https://, got the text "ftp://h"',
        ],
        [
          "/providers/p/apiKeyEnv",
          5,
          97,
          '"apiKeyEnv" of provider "p" must be an environment variable name (letters, digits and _, not starting with a digit), got the text "my key"',
        ],
        ["/inputs/", 6, 15, '"inputs" has an entry with an empty name: give it a name'],
        ["/inputs/f/format", 6, 104, '"format" of input "f" must be "jsonl" or "json", got the text "csv"'],
      ],
    );
  });

  test("budget: unknown field from the schema, values from the runtime's rules", () => {
    assert.deepEqual(errorsOf(['{ "capabilities": [], "budget": { "max_step": 3 } }']), [
      [
        "/budget/max_step",
        1,
        35,
        'unknown key "max_step" in "budget": did you mean "max_steps"? (the keys are max_steps, max_depth, max_parallel, max_model_calls, max_tool_calls, max_context_ops, max_output_bytes, time_limit, max_cost)',
      ],
    ]);
    assert.deepEqual(errorsOf(['{ "capabilities": [], "budget": { "max_steps": 0, "time_limit": 1.5 } }']), [
      ["/budget/max_steps", 1, 48, "max_steps must be a positive integer, got the number 0"],
    ]);
  });

  test("an unreadable profile is a located error", () => {
    const missing = join(dir, "nope", HOST_PROFILE_FILENAME);
    const result = loadHostProfile(missing);
    assert.ok(!result.ok);
    assert.deepEqual(result.errors, [
      {
        file: missing,
        line: 1,
        column: 1,
        offset: 0,
        length: 0,
        jsonPath: "",
        message: "cannot read the host profile: no such file (ENOENT)",
      },
    ]);
  });
});

describe("host profile: finding it from a plan", () => {
  test("the nearest profile in the plan's folder or above", () => {
    const top = join(dir, "find");
    mkdirSync(join(top, "a", "b", "c"), { recursive: true });
    writeFileSync(join(top, "a", HOST_PROFILE_FILENAME), '{"capabilities": []}');
    assert.equal(findHostProfile(join(top, "a", "b", "c", "x.rlmplan.json")), join(top, "a", HOST_PROFILE_FILENAME));
    assert.equal(findHostProfile(join(top, "a", "x.rlmplan.json")), join(top, "a", HOST_PROFILE_FILENAME));
    writeFileSync(join(top, "a", "b", HOST_PROFILE_FILENAME), '{"capabilities": []}');
    assert.equal(
      findHostProfile(join(top, "a", "b", "c", "x.rlmplan.json")),
      join(top, "a", "b", HOST_PROFILE_FILENAME),
    );
  });

  test("a folder named like the profile does not count, and none above means undefined", () => {
    const top = join(dir, "none");
    mkdirSync(join(top, HOST_PROFILE_FILENAME), { recursive: true });
    assert.equal(findHostProfile(join(top, "x.rlmplan.json")), undefined);
  });

  test("the example plans find the example profile", () => {
    const plan = join(ROOT, "examples", "workspace", "plans", "needle-count.rlmplan.json");
    assert.equal(findHostProfile(plan), join(ROOT, "examples", "workspace", HOST_PROFILE_FILENAME));
  });
});

describe("host profile: the schema", () => {
  const schema = JSON.parse(readFileSync(HOST_PROFILE_SCHEMA_FILE, "utf8")) as unknown;

  test("is draft-07 and every property has a description", () => {
    assert.equal((schema as { $schema: string }).$schema, "http://json-schema.org/draft-07/schema#");
    const missing: string[] = [];
    const visit = (node: unknown, path: string) => {
      if (typeof node !== "object" || node === null) return;
      const record = node as Record<string, unknown>;
      for (const [name, child] of Object.entries(
        (record.properties ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        if (typeof child.description !== "string" && typeof child.$ref !== "string") missing.push(`${path}/${name}`);
      }
      for (const [key, child] of Object.entries(record)) visit(child, `${path}/${key}`);
    };
    visit(schema, "");
    assert.deepEqual(missing, []);
  });
});
