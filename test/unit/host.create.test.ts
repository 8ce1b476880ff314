// Building a run host from a profile: every kind of input, tools and providers in the
// registries, the policy, context limits, --input overrides, and located setup errors.

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import {
  createRunHost,
  HostSetupError,
  loadHostProfile,
  parseHostProfile,
  type HostProfile,
  type HostProfileError,
} from "@rlm-plan/core/host";
import { runPlan } from "@rlm-plan/core/run/startRun";

const ROOT = resolve(__dirname, "..", "..", "..");
const dir = mkdtempSync(join(tmpdir(), "rlm-plan-host-create-"));
after(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
/** A profile in a fresh folder with the given data files. */
function profileIn(text: string, files: Record<string, string> = {}): HostProfile {
  const folder = join(dir, `p${++count}`);
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(resolve(folder, name, ".."), { recursive: true });
    writeFileSync(join(folder, name), content);
  }
  const file = join(folder, "rlmplan.host.json");
  writeFileSync(file, text);
  const result = parseHostProfile(text, file);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  return result.profile;
}

async function setupErrors(profile: HostProfile, inputFiles?: Record<string, string>): Promise<HostProfileError[]> {
  try {
    await createRunHost(profile, { inputFiles });
  } catch (error) {
    assert.ok(error instanceof HostSetupError);
    return [...error.errors];
  }
  return assert.fail("expected the host setup to fail");
}

const reduce = (input: string, reducer = "count") => ({
  steps: [
    { op: "context", handle: { ref: "input", name: input }, action: { type: "reduce", reducer }, bind: "n" },
    { op: "final", value: { ref: "var", name: "n" } },
  ],
});

async function run(profile: HostProfile, plan: unknown, inputFiles?: Record<string, string>) {
  const created = await createRunHost(profile, { inputFiles });
  try {
    return await runPlan({ kind: "value", value: plan }, created.policy, created.host);
  } finally {
    await created.close();
  }
}

describe("createRunHost: the example workspace", () => {
  test("registries, inputs and policy", async () => {
    const loaded = loadHostProfile(join(ROOT, "examples", "workspace", "rlmplan.host.json"));
    assert.ok(loaded.ok);
    const created = await createRunHost(loaded.profile, { env: { LOCAL_API_KEY: "sk-secret-value" } });
    try {
      assert.deepEqual(
        [...(created.host.tools?.keys() ?? [])],
        ["count_items", "sum", "pick", "word_count", "flaky_fetch"],
      );
      assert.deepEqual([...(created.host.providers?.keys() ?? [])], ["local"]);
      const description = created.host.providers?.get("local")?.description ?? "";
      assert.doesNotMatch(description, /sk-secret-value/);
      assert.deepEqual(Object.keys(created.host.inputs as object), ["haystack", "records", "tags", "url"]);
      assert.equal((created.host.inputs as Record<string, unknown>).url, "https://example.invalid/page");
      assert.deepEqual(created.policy.capabilities, [...loaded.profile.capabilities]);
      assert.deepEqual({ ...(created.policy.budget as object) }, { max_tool_calls: 8, time_limit: 30 });
      assert.deepEqual(created.host.contextLimits, { maxResults: 32, maxBytes: 16384 });
      const outcome = await runPlan(
        { kind: "value", value: { steps: [...reduce("haystack").steps] } },
        created.policy,
        created.host,
      );
      assert.ok(outcome.ok);
      assert.equal(outcome.value, 300);
    } finally {
      await created.close();
    }
  });

  test("no budget in the profile means the default budget", async () => {
    const created = await createRunHost(profileIn('{"capabilities": ["rlm"]}'));
    assert.equal(created.policy.budget, "default");
  });
});

describe("createRunHost: inputs", () => {
  const profile = () =>
    profileIn(
      JSON.stringify({
        capabilities: ["context(reduce)", "context(search)"],
        inputs: {
          inline: { type: "text", text: "one\ntwo\nthree" },
          file: { type: "text-file", path: "data/lines.txt" },
          list: { type: "items", items: [1, "two", { three: 3 }] },
          jsonl: { type: "items-file", path: "data/items.jsonl" },
          array: { type: "items-file", path: "data/items.json" },
          forced: { type: "items-file", path: "data/items.txt", format: "jsonl" },
          plain: { type: "value", value: { a: [1, 2] } },
        },
      }),
      {
        "data/lines.txt": "\ufeffa\nb\nc\nd",
        "data/items.jsonl": '{"a": 1}\n\n  \n[2]\r\n"three"\n',
        "data/items.json": "[1, 2, 3, 4, 5]",
        "data/items.txt": "1\n2\n",
      },
    );

  for (const [input, expected] of [
    ["inline", 3],
    ["file", 4],
    ["list", 3],
    ["jsonl", 3],
    ["array", 5],
    ["forced", 2],
  ] as const) {
    test(`${input}: a context of ${expected}`, async () => {
      const outcome = await run(profile(), reduce(input));
      assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.error));
      assert.equal(outcome.value, expected);
    });
  }

  test("a text file keeps all its bytes; a byte order mark is a character, as Node reads it", async () => {
    const outcome = await run(profile(), reduce("file", "byte_count"));
    assert.ok(outcome.ok);
    assert.equal(outcome.value, 10);
  });

  test("a value passes as it is", async () => {
    const outcome = await run(profile(), { steps: [{ op: "final", value: { ref: "input", name: "plain" } }] });
    assert.ok(outcome.ok);
    assert.deepEqual(JSON.parse(JSON.stringify(outcome.value)), { a: [1, 2] });
  });

  test("--input replaces a profile input with a text file, or adds one", async () => {
    const extra = join(dir, "override.txt");
    writeFileSync(extra, "x\ny");
    const replaced = await run(profile(), reduce("inline"), { inline: extra });
    assert.ok(replaced.ok);
    assert.equal(replaced.value, 2);
    const added = await run(profile(), reduce("new_one"), { new_one: extra });
    assert.ok(added.ok);
    assert.equal(added.value, 2);
  });

  test("the profile's context limits bound every operation", async () => {
    const limited = profileIn(
      JSON.stringify({
        capabilities: ["context(search)"],
        context: { max_results: 2 },
        inputs: { t: { type: "text", text: "a1\na2\na3\na4" } },
      }),
    );
    const outcome = await run(limited, {
      steps: [
        { op: "context", handle: { ref: "input", name: "t" }, action: { type: "search", pattern: "a" }, bind: "hits" },
        { op: "final", value: { ref: "var", name: "hits" } },
      ],
    });
    assert.ok(outcome.ok);
    assert.deepEqual(outcome.value, [
      { index: 0, value: "a1" },
      { index: 1, value: "a2" },
    ]);
  });
});

describe("createRunHost: located setup errors, all at once", () => {
  test("a bad line of a jsonl file names the file and the line", async () => {
    const profile = profileIn(
      '{"capabilities": [], "inputs": {"records": {"type": "items-file", "path": "r.jsonl"}}}',
      {
        "r.jsonl": '{"a": 1}\n\n{"b": 2,}\n',
      },
    );
    const errors = await setupErrors(profile);
    assert.equal(errors.length, 1);
    const [error] = errors as [HostProfileError];
    assert.equal(error.file, join(profile.dir, "r.jsonl"));
    assert.deepEqual([error.line, error.column, error.jsonPath], [3, 9, "/inputs/records"]);
    assert.match(
      error.message,
      /^line 3 of r\.jsonl is not JSON \(invalid JSON: .*\): each line of a jsonl file holds one JSON value$/,
    );
  });

  test("a json items file that is not an array", async () => {
    const profile = profileIn('{"capabilities": [], "inputs": {"x": {"type": "items-file", "path": "x.json"}}}', {
      "x.json": '{"a": 1}',
    });
    assert.deepEqual(
      (await setupErrors(profile)).map((e) => [e.file, e.line, e.column, e.jsonPath, e.message]),
      [
        [
          join(profile.dir, "x.json"),
          1,
          1,
          "/inputs/x",
          'x.json holds an object, not a JSON array: a json items file holds one JSON array (or set "format": "jsonl")',
        ],
      ],
    );
  });

  test("missing files, a missing working folder and a bad --input, together", async () => {
    const profile = profileIn(
      [
        "{",
        '  "capabilities": [],',
        '  "inputs": { "h": { "type": "text-file", "path": "nope.txt" } },',
        '  "tools": { "t": { "type": "command", "command": ["x"], "cwd": "no-such-folder" } }',
        "}",
      ].join("\n"),
    );
    const missing = join(dir, "missing-input.txt");
    assert.deepEqual(
      (await setupErrors(profile, { extra: missing })).map((e) => [e.file, e.line, e.column, e.jsonPath, e.message]),
      [
        [profile.file, 4, 65, "/tools/t/cwd", 'the working folder "no-such-folder" of tool "t" does not exist'],
        [profile.file, 3, 51, "/inputs/h/path", 'cannot read "nope.txt" for input "h": no such file (ENOENT)'],
        [missing, 1, 1, "/inputs/extra", 'cannot read the file given for input "extra": no such file (ENOENT)'],
      ],
    );
  });

  test("a provider whose URL carries credentials", async () => {
    const profile = profileIn(
      '{"capabilities": [], "providers": {"p": {"type": "openai-chat", "baseUrl": "http://user:pw@127.0.0.1/v1", "model": "m"}}}',
    );
    assert.deepEqual(
      (await setupErrors(profile)).map((e) => [e.jsonPath, e.line, e.column, e.message]),
      [["/providers/p", 1, 36, 'provider "p": baseUrl must be an http(s) URL without credentials']],
    );
  });
});
