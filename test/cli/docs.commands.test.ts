// Every `rlm-plan` command README.md and docs/ show, run as written (through sh, from a folder
// holding a fresh copy of the repository's `examples/`, so the run journal starts empty and its
// run numbers are the docs' order, with `npx rlm-plan` the checkout's bin): each must end
// as EXPECTED says (its exit status, and its first line where that is the point), and a console
// block's shown output must be what the command prints. A command added to the docs without an
// entry here fails, so the docs cannot drift from what the CLI_BIN does.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { commitAll } from "../support/gitRepo";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { CLI_BIN, ROOT } from "../support/cliWorkspace";

const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs")).flatMap((n) => (n.endsWith(".md") ? [`docs/${n}`] : []))];

interface Expected {
  readonly code: number;
  /** The first line of the output (stdout and stderr together), when it says what the command is for. */
  readonly first?: string;
}

/** Each documented command (as written, comment removed) and how it ends here. */
const HOST = "rlm-plan: host profile examples/workspace/rlmplan.host.json";
const MCP_HOST = "rlm-plan: host profile examples/mcp/rlmplan.host.json";
const STATIC_TEXT =
  "static check, no program started; left to --preflight: MCP tool lists and argument schemas, programs, provider keys, input files";
const STATIC = `rlm-plan: ${STATIC_TEXT}`;
// Two journals below by then (the README's runs of examples/workspace and examples/mcp): `runs` names both.
const NO_JOURNAL =
  "rlm-plan: no run journal here, and 2 below: examples/mcp/.rlm-plan, examples/workspace/.rlm-plan; pass --journal DIR";
const APPROVALS_HOST = "rlm-plan: host profile examples/approvals/rlmplan.host.json";
const APPROVALS_JOURNAL = "rlm-plan: journal examples/approvals/.rlm-plan/runs.sqlite";
const EXPECTED: Readonly<Record<string, Expected>> = {
  // Approvals (README, docs/approvals.md): examples/approvals' own journal; README's run is its run 1.
  "npx rlm-plan estimate examples/approvals/plans/refund.rlmplan.json": {
    code: 0,
    first: "examples/approvals/plans/refund.rlmplan.json: worst case / budget",
  },
  "npx rlm-plan graph examples/approvals/plans/refund.rlmplan.json --format mermaid": {
    code: 0,
    first: "flowchart TD",
  },
  "npx rlm-plan run examples/approvals/plans/refund.rlmplan.json --mocks examples/approvals/refund.mocks.json --as carol":
    { code: 3, first: APPROVALS_HOST },
  "npx rlm-plan runs approve 1 --journal examples/approvals --as alice --reason 'checked the order'": {
    code: 0,
    first: APPROVALS_JOURNAL,
  },
  "npx rlm-plan check --format github examples/approvals/plans/refund.rlmplan.json": { code: 0 },
  "npx rlm-plan run examples/approvals/plans/refund.rlmplan.json --mocks examples/approvals/refund.mocks.json --as alice":
    { code: 3, first: APPROVALS_HOST },
  // Refused: alice started run 2 and the rule separates them.
  "npx rlm-plan runs approve 2 --journal examples/approvals --as alice --reason 'my own refund'": {
    code: 1,
    first: APPROVALS_JOURNAL,
  },
  // The denial resumes run 2, which fails at the refund (approval_denied).
  "npx rlm-plan runs deny 2 --journal examples/approvals --as bob --reason 'not this customer'": {
    code: 1,
    first: APPROVALS_JOURNAL,
  },
  "npx rlm-plan runs show 2 --journal examples/approvals": { code: 0, first: APPROVALS_JOURNAL },
  // docs/approvals.md, "Testing approvals": each case answers the refund's request itself.
  "npx rlm-plan test examples/approvals/tests": {
    code: 0,
    first:
      "rlm-plan: 3 cases in 1 file; worst case 18 steps, 0 model calls, 6 tool calls, 0 context ops; live: 0 cases, 0 steps, 0 model calls, 0 tool calls, 0 context ops",
  },
  "npx rlm-plan run examples/workspace/plans/retry-flaky.rlmplan.json": { code: 0, first: HOST },
  "npx rlm-plan run examples/workspace/plans/parallel.rlmplan.json --json": { code: 0 },
  // broken.rlmplan.json is broken on purpose.
  "npx rlm-plan check examples/plans/*.rlmplan.json": {
    code: 1,
    first: "rlm-plan: no host profile (rlmplan.host.json) found: capabilities, tools and providers not checked",
  },
  "npx rlm-plan estimate examples/workspace/plans/nested-rlm.rlmplan.json": {
    code: 0,
    first: "examples/workspace/plans/nested-rlm.rlmplan.json: worst case / budget",
  },
  "npx rlm-plan estimate examples/workspace/plans/word-summary.rlmplan.json": {
    code: 0,
    first: "examples/workspace/plans/word-summary.rlmplan.json: worst case / budget",
  },
  "npx rlm-plan graph examples/plans/parallel-summary.rlmplan.json -o plan.svg": { code: 0, first: "" },
  // A mocked run whose tool times out: the README shows its whole output.
  "npx rlm-plan run examples/workspace/mocks/triage.rlmplan.json --mocks examples/workspace/mocks/triage-down.mocks.json":
    { code: 1, first: HOST },
  // Expected to fail here (no key): preflight/provider_key_missing, as the README says.
  "npx rlm-plan run examples/workspace/mocks/triage.rlmplan.json": { code: 1, first: HOST },
  "npx rlm-plan run examples/workspace/mocks/triage.rlmplan.json --mocks examples/workspace/mocks/triage.mocks.json --json":
    { code: 0 },
  // word-summary with its question inline, then from a file of values; the model mocked.
  "npx rlm-plan run examples/workspace/plans/word-summary.rlmplan.json --input-text question='In one word: what is frozen water?' --mocks examples/workspace/mocks/word-summary.mocks.json":
    { code: 0, first: HOST },
  "npx rlm-plan run examples/workspace/plans/word-summary.rlmplan.json --inputs examples/workspace/data/question.inputs.json --mocks examples/workspace/mocks/word-summary.mocks.json --json":
    { code: 0 },
  // The MCP server is @modelcontextprotocol/server-everything from node_modules (no network).
  "npx rlm-plan run examples/mcp/plans/echo-and-sum.rlmplan.json": { code: 0, first: MCP_HOST },
  // Plain check starts no program: the MCP tools' schemas are left to --preflight (it says so).
  "npx rlm-plan check examples/mcp/plans/wrong-arguments.rlmplan.json": { code: 0, first: STATIC },
  "npx rlm-plan check --preflight examples/mcp/plans/wrong-arguments.rlmplan.json": {
    code: 1,
    first:
      'rlm-plan: preflight of examples/mcp/plans/wrong-arguments.rlmplan.json: started MCP server "everything" to list tools, then stopped',
  },
  "npx rlm-plan check --preflight examples/types/plans/weather-report.rlmplan.json": {
    code: 1,
    first:
      'rlm-plan: preflight of examples/types/plans/weather-report.rlmplan.json: started MCP server "everything" to list tools, then stopped',
  },
  // The README's pinning: every server of the profile asked; again, nothing drifted.
  "npx rlm-plan lock --host examples/mcp/rlmplan.host.json": {
    code: 0,
    first: "wrote examples/mcp/rlmplan.lock.json: 0 command tools, 1 MCP server (13 tools), 0 providers",
  },
  "npx rlm-plan lock --host examples/mcp/rlmplan.host.json --update": {
    code: 0,
    first: "examples/mcp/rlmplan.lock.json is up to date: nothing drifted",
  },
  "npx rlm-plan check examples/workspace": { code: 0, first: STATIC },
  "npx rlm-plan check examples/workspace --format sarif > rlm-plan.sarif": { code: 0, first: "" },
  "npx rlm-plan check examples/workspace --against HEAD": { code: 0, first: STATIC },
  "npx rlm-plan check examples/workspace --format github": {
    code: 0,
    first: `::notice title=rlm-plan::${STATIC_TEXT}`,
  },
  // No run journal in this folder or above (the docs' runs above were recorded beside each
  // example's host profile, below): a user runs these in a workspace; here they say where to look.
  "npx rlm-plan runs list": { code: 2, first: NO_JOURNAL },
  "npx rlm-plan runs list --status failed --since 7d --json": { code: 2, first: NO_JOURNAL },
  "npx rlm-plan runs list --case refund": { code: 2, first: NO_JOURNAL },
  "npx rlm-plan runs show 12": { code: 2, first: NO_JOURNAL },
  "npx rlm-plan runs export 12 > run-12.json": { code: 2, first: "" },
  "npx rlm-plan runs prune --keep 100": { code: 2, first: NO_JOURNAL },
  // README's Compare runs: two runs into a journal of their own (runs 1 and 2 there), then diffed.
  "npx rlm-plan run examples/workspace/mocks/triage.rlmplan.json --mocks examples/workspace/mocks/triage.mocks.json --journal compare":
    { code: 0, first: HOST },
  "npx rlm-plan run examples/workspace/mocks/triage.rlmplan.json --mocks examples/workspace/mocks/triage-down.mocks.json --journal compare":
    { code: 1, first: HOST },
  "npx rlm-plan runs diff 1 2 --journal compare": { code: 1, first: "rlm-plan: journal compare/runs.sqlite" },
  "npx rlm-plan runs diff 1 1 --journal compare --json": { code: 0, first: "rlm-plan: journal compare/runs.sqlite" },
  // Rerun from a step: the README's fifth run in examples/workspace (triage with its mocks), forked
  // at its model step with another page; nothing before that step is called again.
  "npx rlm-plan runs show 5 --journal examples/workspace": { code: 0 },
  'npx rlm-plan run --from 5 --step steps/2 --set page=\'{"title":"Rain tomorrow"}\' --journal examples/workspace': {
    code: 0,
  },
  // Run one step: the nested example's innermost rlm step alone, recorded with origin step.
  'npx rlm-plan run examples/workspace/plans/nested-rlm.rlmplan.json --step steps/1/plan/steps/1 --bindings \'{"hits":["a needle","two needles here"]}\'':
    { code: 0, first: HOST },
  "npx rlm-plan runs list --origin step --journal examples/workspace": {
    code: 0,
    first: "rlm-plan: journal examples/workspace/.rlm-plan/runs.sqlite",
  },
  // The run browser's export of that fork (run 6), one HTML file.
  "npx rlm-plan runs export 6 --format html -o run-6.html --journal examples/workspace": {
    code: 0,
    first: "rlm-plan: journal examples/workspace/.rlm-plan/runs.sqlite",
  },
  "npx rlm-plan test examples/workspace/tests --list": {
    code: 0,
    first:
      "examples/workspace/tests/triage.rlmplan.test.json:8  examples/workspace/tests/triage.rlmplan.test.json#labels a news page after one failed fetch  8 steps, 1 model call, 2 tool calls, 0 context ops",
  },
  "npx rlm-plan test examples/workspace/tests": {
    code: 0,
    first:
      "rlm-plan: 6 cases in 2 files; worst case 28 steps, 6 model calls, 8 tool calls, 0 context ops; live: 0 cases, 0 steps, 0 model calls, 0 tool calls, 0 context ops",
  },
  // Every case is mocked or replayed: nothing live, so nothing is over the limit.
  "npx rlm-plan test examples/workspace/tests --max-cost model_calls=200": {
    code: 0,
    first:
      "rlm-plan: 6 cases in 2 files; worst case 28 steps, 6 model calls, 8 tool calls, 0 context ops; live: 0 cases, 0 steps, 0 model calls, 0 tool calls, 0 context ops",
  },
  "npx rlm-plan test examples/workspace/tests --jobs 8 --filter triage --format junit > junit.xml": {
    code: 0,
    first: "",
  },
  // The gate against the committed baselines of examples/workspace/tests, then a bless of two cases.
  "npx rlm-plan test examples/workspace/tests --baseline --replay": {
    code: 0,
    first:
      "rlm-plan: 6 cases in 2 files; worst case 28 steps, 6 model calls, 8 tool calls, 0 context ops; live: 0 cases, 0 steps, 0 model calls, 0 tool calls, 0 context ops",
  },
  "npx rlm-plan test examples/workspace/tests --bless --replay --filter triage": {
    code: 0,
    first:
      "rlm-plan: 2 cases in 1 file; worst case 16 steps, 2 model calls, 4 tool calls, 0 context ops; live: 0 cases, 0 steps, 0 model calls, 0 tool calls, 0 context ops",
  },
};

interface Shown {
  readonly doc: string;
  readonly line: number;
  readonly command: string;
  /** A console block's output lines after the command, when the doc shows them. */
  readonly output?: string;
}

/** `npx rlm-plan ...` lines of sh/console blocks, continuation lines joined, `# comments` dropped. */
function documentedCommands(): Shown[] {
  const shown: Shown[] = [];
  for (const doc of DOCS) {
    const lines = readFileSync(join(ROOT, doc), "utf8").split("\n");
    let fence: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i] as string;
      const opening = /^\s*```(\w*)\s*$/.exec(text);
      if (opening) {
        fence = fence === undefined ? (opening[1] ?? "") : undefined;
        continue;
      }
      if (fence === undefined || !["sh", "bash", "console", "shell"].includes(fence)) continue;
      const prompt = fence === "console" ? /^\$ (npx rlm-plan .*)$/ : /^\s*(npx rlm-plan .*)$/;
      const match = prompt.exec(text);
      if (!match) continue;
      let command = match[1] as string;
      const start = i;
      while (command.endsWith("\\") && i + 1 < lines.length)
        command = `${command.slice(0, -1).trimEnd()} ${(lines[++i] as string).trim()}`;
      command = command.replace(/\s+#\s.*$/, "").trim();
      let output: string | undefined;
      if (fence === "console") {
        const after: string[] = [];
        while (
          i + 1 < lines.length &&
          !/^\s*```/.test(lines[i + 1] as string) &&
          !(lines[i + 1] as string).startsWith("$ ")
        )
          after.push(lines[++i] as string);
        if (after.length > 0) output = after.join("\n");
      }
      shown.push({ doc, line: start + 1, command, ...(output === undefined ? {} : { output }) });
    }
  }
  return shown;
}

describe("every rlm-plan command the docs show, run as written", () => {
  const cwd = mkdtempSync(join(tmpdir(), "rlm-plan-docs-"));
  // A copy, not a link: runs are recorded beside each example's host profile (.rlm-plan/).
  cpSync(join(ROOT, "examples"), join(cwd, "examples"), {
    recursive: true,
    filter: (source) => !source.split(/[\\/]/).includes(".rlm-plan"),
  });
  // examples/workspace committed in a repository of its own, as in a checkout, for `check --against
  // HEAD` (one at the root would make it the MCP example's workspace, whose sandbox then meets
  // the node_modules link below).
  commitAll(join(cwd, "examples", "workspace"), "the workspace example");
  // The MCP example starts its server from ../../node_modules.
  symlinkSync(join(ROOT, "node_modules"), join(cwd, "node_modules"));
  after(() => rmSync(cwd, { recursive: true, force: true }));
  const shown = documentedCommands();

  test("the docs show commands, and each has an entry here", () => {
    assert.ok(shown.length >= 10, JSON.stringify(shown));
    assert.deepEqual(
      shown.filter((s) => !Object.hasOwn(EXPECTED, s.command)).map((s) => `${s.doc}:${s.line}: ${s.command}`),
      [],
    );
  });

  for (const { doc, line, command, output } of shown) {
    test(`${doc}:${line}: ${command}`, () => {
      const ran = spawnSync(
        "sh",
        ["-c", `${command.replace(/^npx rlm-plan /, `"${process.execPath}" "${CLI_BIN}" `)} 2>&1`],
        {
          cwd,
          encoding: "utf8",
          // flaky_fetch's state apart from other test files' runs of it (examples/workspace/state/).
          env: { ...process.env, NO_COLOR: "1", LOCAL_API_KEY: "", FLAKY_KEY: `docs-${process.pid}` },
          timeout: 60_000,
        },
      );
      const printed = ran.stdout.replace(/\n$/, "");
      const expected = EXPECTED[command];
      assert.ok(
        expected,
        `no entry in EXPECTED: it exits ${ran.status}, its first line ${JSON.stringify(printed.split("\n")[0])}`,
      );
      assert.equal(ran.status, expected.code, printed);
      if (expected.first !== undefined) assert.equal(printed.split("\n")[0], expected.first);
      // The run journal's line names a run number that grows run to run: the docs leave it out.
      const shownLines = printed.split("\n").filter((l) => !/^rlm-plan: recorded as run \d+ in /.test(l));
      if (output !== undefined) assert.equal(shownLines.join("\n"), output);
    });
  }
});
