// `rlm-plan check --against REF` on a git repository the test makes: each plan's change since REF
// (capabilities, tools, providers, MCP servers, worst case) as text, JSON, GitHub notices and
// SARIF notes; a plan not in REF is new; a REF that cannot be a commit-ish is refused.

import assert from "node:assert/strict";
import { test } from "node:test";
import { cliWorkspace } from "../support/cliWorkspace";
import { commitAll, git } from "../support/gitRepo";

const { dir, write, check } = cliWorkspace("check-against");

const model = (bind: string) => ({ op: "model", provider: "llm", prompt: "p", bind });
const final = (name: string) => ({ op: "final", value: { ref: "var", name } });
const planText = (...steps: unknown[]) => `${JSON.stringify({ steps }, null, 2)}\n`;

write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["model(llm)", "retry", "tool(billing.refund)", "tool(count_items)"],
    tools: { count_items: { type: "builtin", builtin: "count_items" } },
    providers: { llm: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "LLM_KEY" } },
    // Never started: check --against is static (the command is not even a program).
    mcpServers: { billing: { command: "./no-such-server" } },
  }),
);
write("plans/refund.rlmplan.json", planText(...Array.from({ length: 3 }, (_, i) => model(`m${i}`)), final("m0")));
write("plans/same.rlmplan.json", planText(model("a"), final("a")));
const base = commitAll(dir, "base");
write(
  "plans/refund.rlmplan.json",
  planText(
    { op: "retry", attempts: 5, plan: { steps: [model("a"), final("a")] }, bind: "r" },
    { op: "tool", name: "billing.refund", args: {}, bind: "t" },
    final("r"),
  ),
);
write("plans/new.rlmplan.json", planText({ op: "tool", name: "count_items", args: [], bind: "n" }, final("n")));
// After the base commit, so that a plan's text in the work tree is what counts, committed or not.
git(dir, "tag", "base");

const REFUND =
  "this change adds retry, tool('billing.refund'), reaches MCP server billing and raises the worst case " +
  "from 3 to 5 model calls, from 0 to 1 tool calls, from 4 to 13 steps and depth from 1 to 2";
const NEW = "this new plan needs tool(count_items) and has a worst case of 1 tool calls, 2 steps and depth 1";

test("text: each plan's sentence under the problems, in the order the plans were checked", () => {
  const result = check("--against", "HEAD", "plans");
  assert.equal(
    result.stderr,
    "rlm-plan: static check, no program started; left to --preflight: MCP tool lists and argument schemas, programs, provider keys, input files\n",
  );
  assert.equal(result.code, 0);
  assert.equal(
    result.stdout,
    [
      "plans/new.rlmplan.json: ok (2 steps)",
      "plans/refund.rlmplan.json: ok (5 steps)",
      "plans/same.rlmplan.json: ok (2 steps)",
      "what-if against HEAD:",
      `  plans/new.rlmplan.json: ${NEW}`,
      `  plans/refund.rlmplan.json: ${REFUND}`,
      "  plans/same.rlmplan.json: this change changes no capability, tool or worst-case figure",
      "",
    ].join("\n"),
  );
});

test("JSON: the structured delta beside the files, with the commit compared against", () => {
  const result = check("--against", "base", "--json", "plans/refund.rlmplan.json", "plans/new.rlmplan.json");
  assert.equal(result.code, 0);
  const against = (JSON.parse(result.stdout) as { against: unknown }).against;
  const none = { added: [], removed: [] };
  assert.deepEqual(against, {
    ref: "base",
    plans: [
      {
        file: "plans/refund.rlmplan.json",
        commit: base,
        base: "present",
        capabilities: { added: ["retry", "tool('billing.refund')"], removed: [] },
        tools: { added: ["billing.refund"], removed: [] },
        providers: none,
        mcpServers: { added: ["billing"], removed: [] },
        worstCase: [
          { counter: "model_calls", label: "model calls", before: 3, after: 5 },
          { counter: "tool_calls", label: "tool calls", before: 0, after: 1 },
          { counter: "steps", label: "steps", before: 4, after: 13 },
          { counter: "depth", label: "depth", before: 1, after: 2 },
        ],
        changed: true,
        summary: REFUND,
      },
      {
        file: "plans/new.rlmplan.json",
        commit: base,
        base: "new",
        capabilities: { added: ["tool(count_items)"], removed: [] },
        tools: { added: ["count_items"], removed: [] },
        providers: none,
        mcpServers: none,
        worstCase: [
          { counter: "tool_calls", label: "tool calls", before: 0, after: 1 },
          { counter: "steps", label: "steps", before: 0, after: 2 },
          { counter: "depth", label: "depth", before: 0, after: 1 },
        ],
        changed: true,
        summary: NEW,
      },
    ],
  });
});

test("GitHub: a notice on each plan that changed, none on one that did not", () => {
  const result = check("--against", "HEAD", "--format", "github", "plans");
  assert.equal(result.code, 0);
  const notices = result.stdout.split("\n").filter((line) => line.startsWith("::notice file="));
  assert.deepEqual(notices, [
    `::notice file=plans/new.rlmplan.json,line=1,title=rlm-plan what-if against HEAD::${NEW}`,
    `::notice file=plans/refund.rlmplan.json,line=1,title=rlm-plan what-if against HEAD::${REFUND}`,
  ]);
});

test("SARIF: a note of rule what_if on each changed plan, the delta in its properties", () => {
  const result = check(
    "--against",
    "HEAD",
    "--format",
    "sarif",
    "plans/refund.rlmplan.json",
    "plans/same.rlmplan.json",
  );
  assert.equal(result.code, 0);
  interface SarifNote {
    level: string;
    message: { text: string };
    locations: { physicalLocation: unknown }[];
    properties: { whatIf: { commit: string; tools: unknown } };
  }
  const log = JSON.parse(result.stdout) as { runs: [{ tool: { driver: { rules: unknown } }; results: SarifNote[] }] };
  const run = log.runs[0];
  assert.deepEqual(run.tool.driver.rules, [
    { id: "what_if", name: "WhatIf", shortDescription: { text: "What if" }, defaultConfiguration: { level: "note" } },
  ]);
  assert.equal(run.results.length, 1);
  const note = run.results[0]!;
  assert.equal(note.level, "note");
  assert.equal(note.message.text, `against HEAD: ${REFUND}`);
  assert.deepEqual(note.locations[0]?.physicalLocation, {
    artifactLocation: { uri: "plans/refund.rlmplan.json", uriBaseId: "SRCROOT" },
    region: { startLine: 1 },
  });
  assert.equal(note.properties.whatIf.commit, base);
  assert.deepEqual(note.properties.whatIf.tools, { added: ["billing.refund"], removed: [] });
});

test("a REF that names no commit fails each plan's comparison; one that looks like an option is a usage error", () => {
  const missing = check("--against", "no-such-branch", "plans/same.rlmplan.json");
  assert.equal(missing.code, 1);
  assert.match(
    missing.stdout,
    /\n {2}plans\/same\.rlmplan\.json: cannot compare: "no-such-branch" names no commit in the repository of .*\/plans\n$/,
  );
  const option = check("--against=--output=/tmp/x", "plans/same.rlmplan.json");
  assert.equal(option.code, 2);
  assert.equal(option.stdout, "");
  assert.equal(option.stderr, 'rlm-plan: --against: "--output=/tmp/x" looks like an option, not a git commit-ish\n');
  const watch = check("--against", "HEAD", "--watch", "plans");
  assert.equal(watch.code, 2);
  assert.match(watch.stderr, /--against and --watch do not go together/);
});
