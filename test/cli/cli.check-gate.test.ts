// `rlm-plan check` as a CI gate: it agrees with `run` (every refusal `run` makes before executing
// fails the check), takes folders, globs, host profiles and saved model replies, and speaks
// SARIF 2.1.0 (validated against the official schema) and GitHub annotations.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Ajv4 from "ajv-draft-04";
import { CLI, cliWorkspace, LEFT_TO_PREFLIGHT, ROOT } from "../support/cliWorkspace";

const { dir, write, cli } = cliWorkspace("check-gate");

const HOST = {
  capabilities: ["tool(count_items)", "tool(ghost)", "model(nowhere)", "context(search)"],
  budget: { max_tool_calls: 2 },
  inputs: { notes: { type: "items", items: ["a", "b"] } },
  tools: { count_items: { type: "builtin", builtin: "count_items" } },
};
write("gate/rlmplan.host.json", JSON.stringify(HOST, null, 2));

const count = (bind: string, args = "[1]") =>
  `{ "op": "tool", "name": "count_items", "args": ${args}, "bind": "${bind}" }`;
const final = (name: string) => `{ "op": "final", "value": { "ref": "var", "name": "${name}" } }`;
const plan = (...steps: string[]) => `{ "steps": [\n  ${steps.join(",\n  ")}\n] }\n`;

/** Every way `run` refuses a plan before running anything, with the code `check` must report. */
const REFUSALS: readonly { name: string; text: string; phase: string; code: string }[] = [
  { name: "not JSON", text: '{ "steps": [ }', phase: "parse", code: "invalid_json" },
  {
    name: "unknown operation",
    text: plan('{ "op": "fly", "bind": "x" }', final("x")),
    phase: "normalize",
    code: "unknown_operator",
  },
  { name: "unbound variable", text: plan(count("n"), final("m")), phase: "validate", code: "unbound_variable" },
  {
    name: "duplicate binding",
    text: plan(count("n"), count("n"), final("n")),
    phase: "validate",
    code: "duplicate_binding",
  },
  {
    name: "capability not granted",
    text: plan(
      '{ "op": "rlm", "plan": { "steps": [' + final("x").replace('"x"', '"y"') + '] }, "bind": "x" }',
      final("x"),
    ),
    phase: "validate",
    code: "capability_denied",
  },
  {
    name: "over the host's budget",
    text: plan(count("a"), count("b"), count("c"), final("c")),
    phase: "validate",
    code: "budget_exceeded",
  },
  {
    name: "tool not registered",
    text: plan('{ "op": "tool", "name": "ghost", "args": 1, "bind": "g" }', final("g")),
    phase: "preflight",
    code: "unknown_tool",
  },
  {
    name: "provider not registered",
    text: plan('{ "op": "model", "provider": "nowhere", "prompt": "hi", "bind": "m" }', final("m")),
    phase: "preflight",
    code: "unknown_provider",
  },
];

for (const refusal of REFUSALS) {
  test(`a plan run refuses before executing fails check: ${refusal.name}`, () => {
    const file = `gate/${refusal.code}.rlmplan.json`;
    write(file, refusal.text);
    const run = cli("run", file, "--json");
    const lines = run.stdout.trim().split("\n");
    const result = JSON.parse(lines[lines.length - 1] as string) as {
      type: string;
      ok: boolean;
      error?: { phase: string };
    };
    assert.equal(result.type, "result");
    assert.equal(result.ok, false, `run accepted ${refusal.name}`);
    assert.equal(result.error?.phase, refusal.phase, JSON.stringify(result));
    assert.equal(lines.filter((line) => line.includes('"transition"')).length, 0, "run executed a step");

    const checked = cli("check", file, "--format", "json");
    assert.equal(checked.code, 1, `check passed what run refuses: ${checked.stdout}`);
    const report = JSON.parse(checked.stdout) as {
      files: { ok: boolean; problems: { code: string; severity: string }[] }[];
    };
    const problem = report.files[0]?.problems.find((p) => p.code === refusal.code);
    assert.ok(problem, `check did not report ${refusal.code}: ${checked.stdout}`);
    assert.equal(problem.severity, "error");
  });
}

test("a plan run accepts passes check with exit 0", () => {
  write("gate/fine.rlmplan.json", plan(count("n", "[1, 2, 3]"), final("n")));
  assert.equal(cli("run", "gate/fine.rlmplan.json").code, 0);
  const checked = cli("check", "gate/fine.rlmplan.json");
  assert.deepEqual(checked, {
    code: 0,
    stdout: "gate/fine.rlmplan.json: ok (2 steps)\n",
    stderr: `rlm-plan: ${LEFT_TO_PREFLIGHT}\n`,
  });
});

test("folders are walked for plans and host profiles, sorted; a glob is expanded; an empty folder is an error", () => {
  write("tree/rlmplan.host.json", JSON.stringify({ capabilities: ["tool(count_items)"], tools: HOST.tools }));
  write("tree/b/two.rlmplan", plan(count("n"), final("n")));
  write("tree/a/one.rlmplan.json", plan(count("n"), final("n")));
  write("tree/a/notes.json", "{}");
  write("tree/node_modules/x/skip.rlmplan.json", "not even JSON");
  mkdirSync(join(dir, "empty"), { recursive: true });
  const folder = cli("check", "tree");
  assert.equal(
    folder.stdout,
    "tree/a/one.rlmplan.json: ok (2 steps)\ntree/b/two.rlmplan: ok (2 steps)\ntree/rlmplan.host.json: ok (host profile)\n",
  );
  assert.equal(folder.code, 0);
  const glob = cli("check", "tree/**/*.rlmplan.json");
  assert.equal(glob.stdout, "tree/a/one.rlmplan.json: ok (2 steps)\n");
  const empty = cli("check", "empty");
  assert.equal(empty.code, 1);
  assert.equal(empty.stderr, "rlm-plan: empty: no *.rlmplan.json, *.rlmplan or rlmplan.host.json below it\n");
});

test("a host profile named on the command line is checked as a host profile, located", () => {
  write(
    "badhost/rlmplan.host.json",
    '{\n  "capabilities": ["tool(count_items)"],\n  "budget": { "max_tool_calls": -1 }\n}\n',
  );
  const checked = cli("check", "badhost/rlmplan.host.json");
  assert.equal(checked.code, 1);
  assert.match(
    checked.stdout,
    /^badhost\/rlmplan\.host\.json:3:\d+: error: .*max_tool_calls.* \[invalid_host_profile\]\n/,
  );
  assert.match(checked.stdout, /badhost\/rlmplan\.host\.json: 1 error\n$/);
});

test("--model-text checks the plan inside a saved reply and places problems in the reply", () => {
  const reply = [
    "Sure! Here is a plan that counts the items:",
    "",
    "```json",
    plan(count("n"), final("missing")).trimEnd(),
    "```",
    "It returns the count.",
    "",
  ].join("\n");
  write("gate/reply.txt", reply);
  const checked = cli("check", "gate/reply.txt", "--model-text");
  assert.equal(checked.code, 1);
  const line = reply.split("\n").findIndex((l) => l.includes('"missing"')) + 1;
  const column = (reply.split("\n")[line - 1] as string).indexOf('"missing"') + 1;
  assert.match(
    checked.stdout,
    new RegExp(`^gate/reply\\.txt:${line}:${column}: error: variable "missing" is not bound`),
  );
  write("gate/prose.txt", "I could not think of a plan.");
  const none = cli("check", "gate/prose.txt", "--model-text");
  assert.equal(none.code, 1);
  assert.match(none.stdout, /^gate\/prose\.txt:1:1: error: no JSON object found in the text.* \[no_json_object\]\n/);
});

test("--format sarif is valid SARIF 2.1.0 (the official schema) with one result per problem", () => {
  write("sarif/rlmplan.host.json", JSON.stringify(HOST));
  write("sarif/bad.rlmplan.json", plan(count("a"), count("b"), count("c"), final("nope")));
  const checked = cli("check", "sarif", "--format", "sarif");
  assert.equal(checked.code, 1);
  const log = JSON.parse(checked.stdout) as {
    runs: { tool: { driver: { rules: { id: string }[] } }; results: Record<string, unknown>[] }[];
  };
  const schema = JSON.parse(
    readFileSync(
      join(ROOT, "node_modules", "@microsoft", "jest-sarif", "lib", "schemas", "sarif-2.1.0-rtm.5.json"),
      "utf8",
    ),
  ) as Record<string, unknown>;
  // The schema has a language-tag pattern that is not valid under the `u` flag: ajv compiles it without.
  const ajv = new Ajv4({ allErrors: true, strict: false, unicodeRegExp: false });
  const validate = ajv.compile(schema);
  assert.equal(validate(log), true, JSON.stringify(validate.errors));
  const run = log.runs[0];
  assert.ok(run);
  assert.deepEqual(
    run.results.map((r) => [r.ruleId, r.level]),
    [
      ["budget_exceeded", "error"],
      ["unbound_variable", "error"],
    ],
  );
  assert.deepEqual(
    run.tool.driver.rules.map((r) => r.id),
    ["budget_exceeded", "unbound_variable"],
  );
  const location = (run.results[1] as { locations: { physicalLocation: Record<string, unknown> }[] }).locations[0];
  assert.deepEqual(location?.physicalLocation, {
    artifactLocation: { uri: "sarif/bad.rlmplan.json", uriBaseId: "SRCROOT" },
    region: { startLine: 5, startColumn: 53, endLine: 5, endColumn: 59 },
  });
});

test("--format github prints workflow-command annotations, escaped", () => {
  write("gh/rlmplan.host.json", JSON.stringify(HOST));
  write("gh/bad.rlmplan.json", plan(count("n"), final("m,x")));
  const checked = cli("check", "gh/bad.rlmplan.json", "--format", "github");
  assert.equal(checked.code, 1);
  assert.equal(
    checked.stdout,
    [
      `::notice title=rlm-plan::${LEFT_TO_PREFLIGHT}`,
      '::error file=gh/bad.rlmplan.json,line=3,col=53,endLine=3,endColumn=58,title=rlm-plan unbound_variable::variable "m,x" is not bound here: bind it in an earlier step of this plan or an enclosing one',
      "gh/bad.rlmplan.json: 1 error",
      "",
    ].join("\n"),
  );
});

test("--json and --format disagreeing, or an unknown format, are usage errors", () => {
  assert.equal(cli("check", "x.rlmplan.json", "--json", "--format", "sarif").code, 2);
  const unknown = cli("check", "x.rlmplan.json", "--format", "xml");
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--format: expected one of text, json, sarif, github, got "xml"/);
});

test("--watch checks again when a plan changes, and stops on SIGINT with the last status", async () => {
  const file = write("watch/w.rlmplan.json", plan(count("n"), final("n")));
  const child = spawn(process.execPath, [CLI, "check", "watch", "--watch", "--capabilities", "tool(count_items)"], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const until = async (predicate: () => boolean, what: string) => {
    for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(predicate(), `timed out waiting for ${what}: ${stdout} / ${stderr}`);
  };
  await until(() => stderr.includes("watching for changes"), "the first check");
  assert.equal(stdout, "watch/w.rlmplan.json: ok (2 steps)\n");
  writeFileSync(file, plan(count("n"), final("gone")));
  await until(() => stdout.includes("1 error"), "the second check");
  assert.match(stderr, /change seen, checking again/);
  const exit = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  child.kill("SIGINT");
  assert.equal(await exit, 1);
});

test("check --preflight reports every problem the preflight finds, located, once each, in source order; run refuses the first", () => {
  const host = write(
    "every/rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(shout)", "tool(gone.x)", "model(llm)", "context(search)"],
      tools: { shout: { type: "command", command: ["./no-such-program"] } },
      providers: {
        llm: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "RLM_PLAN_GATE_NO_KEY" },
      },
      inputs: { doc: { type: "text-file", path: "missing.txt" } },
      mcpServers: { gone: { command: "./no-such-server" } },
    }),
  );
  write(
    "every/p.rlmplan.json",
    plan(
      '{ "op": "tool", "name": "shout", "args": { "a": { "ref": "input", "name": "who" } }, "bind": "a" }',
      '{ "op": "tool", "name": "gone.x", "args": {}, "bind": "b" }',
      '{ "op": "model", "provider": "llm", "prompt": "hi", "bind": "c" }',
      '{ "op": "context", "handle": { "ref": "input", "name": "doc" }, "action": { "type": "search", "pattern": "x" }, "bind": "d" }',
      '{ "op": "final", "value": [{ "ref": "input", "name": "who" }, { "ref": "input", "name": "whom" }] }',
    ),
  );
  const file = "every/p.rlmplan.json";
  const checked = cli("check", "--preflight", file);
  assert.equal(checked.code, 1, checked.stderr);
  // The profile's path as messages name it (absolute today; relative once every message is).
  const shown = checked.stdout.split(host).join("HOST").split("every/rlmplan.host.json").join("HOST");
  assert.deepEqual(shown.trimEnd().split("\n"), [
    `${file}:2:27: error: tool "shout" cannot run: its program "./no-such-program" does not exist (relative paths are relative to the tool's folder); fix its "command" in HOST [tool_unavailable]`,
    // Once, an error: not also the static check's warning at the same place.
    `${file}:2:77: error: the plan reads input "who", which the host profile does not declare under "inputs" and the run does not supply (--input who=PATH, or a value: --input-text who=VALUE) [undeclared_input]`,
    `${file}:3:27: error: MCP server "gone" could not be started: command "./no-such-server" was not found [tool_unavailable]`,
    `${file}:4:32: error: provider "llm" needs its key in the environment variable RLM_PLAN_GATE_NO_KEY, which is not set [provider_key_missing]`,
    `${file}:5:58: error: cannot read "missing.txt" for input "doc": no such file (ENOENT) (declared at HOST:1:315) [input_unavailable]`,
    // A second read of "who": the static check's warning (the preflight names each input at its first read).
    `${file}:6:56: warning: the plan reads input "who", which the host profile does not declare under "inputs" [undeclared_input]`,
    `${file}:6:91: error: the plan reads input "whom", which the host profile does not declare under "inputs" and the run does not supply (--input whom=PATH, or a value: --input-text whom=VALUE) [undeclared_input]`,
    `${file}: 6 errors, 1 warning`,
  ]);
  const ran = cli("run", file, "--no-journal");
  assert.equal(ran.code, 1);
  assert.match(
    ran.stderr,
    new RegExp(`^${file}:2:27: run failed: tool "shout" cannot run: .*\\[preflight/tool_unavailable\\]$`, "m"),
  );
});

test("a certain type violation is an error in check (literal or computed tool arguments, a file input as a prompt), an unknown type is silent, and run refuses before its first step", () => {
  const schema = { type: "object", properties: { n: { type: "integer" }, hits: { type: "integer" } } };
  write(
    "typed/rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(mark)", "tool(count)", "tool(free)", "model(llm)", "context(search)"],
      tools: {
        mark: { type: "command", command: ["node", "mark.js"] },
        count: { type: "command", command: ["node", "mark.js"], inputSchema: schema },
        free: { type: "command", command: ["node", "mark.js"] },
      },
      providers: { llm: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m" } },
      inputs: { doc: { type: "text-file", path: "doc.txt" } },
    }),
  );
  write("typed/doc.txt", "a refund\n");
  // The first step's tool leaves a marker: a run refused before its first step leaves none.
  write(
    "typed/mark.js",
    'require("node:fs").writeFileSync(__dirname + "/ran.marker", "ran"); process.stdout.write("{}");\n',
  );
  const tool = (name: string, args: string, bind: string) =>
    `{ "op": "tool", "name": "${name}", "args": ${args}, "bind": "${bind}" }`;
  write(
    "typed/p.rlmplan.json",
    plan(
      tool("mark", "{}", "m"),
      '{ "op": "context", "handle": { "ref": "input", "name": "doc" }, "action": { "type": "search", "pattern": "refund" }, "bind": "hits" }',
      tool("count", '{ "n": "x", "hits": { "ref": "var", "name": "hits" } }', "c"),
      tool("free", "{}", "u"),
      // The result of a tool with no output schema is unknown: never judged.
      tool("count", '{ "n": { "ref": "var", "name": "u" } }', "c2"),
      '{ "op": "model", "provider": "llm", "prompt": { "ref": "input", "name": "doc" }, "bind": "r" }',
      final("r"),
    ),
  );
  const file = "typed/p.rlmplan.json";
  const checked = cli("check", file);
  assert.equal(checked.code, 1, checked.stderr);
  assert.deepEqual(checked.stdout.trimEnd().split("\n"), [
    `${file}:4:51: error: tool "count": argument "n" must be a whole number, got the text "x" (its input schema) [invalid_tool_arguments]`,
    `${file}:4:64: error: tool "count": argument "hits" must be a whole number, but "hits" is array<{index: integer, value: string}> (the result of the context search) (its input schema) [invalid_tool_arguments]`,
    `${file}:7:49: error: the prompt for provider "llm" must be text, but input \`doc\` is a context handle, not text: read it with a context step (search, slice, peek) and give the model what that finds [invalid_prompt]`,
    `${file}: 3 errors`,
  ]);
  const ran = cli("run", file, "--no-journal");
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(
    ran.stderr,
    new RegExp(
      `^${file}:4:51: run failed: tool "count": argument "n" must be a whole number, got the text "x" \\(its input schema\\) \\[preflight/invalid_tool_arguments\\]$`,
      "m",
    ),
  );
  assert.equal(existsSync(join(dir, "typed", "ran.marker")), false, "the first step ran");
});
