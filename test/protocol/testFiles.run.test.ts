// Test files over the protocol, with the built server as a child process: a test file gets the
// loader's warnings as diagnostics and a Run and a Debug lens per case; TestFileRequest lists the
// cases of an open file and of one only on disk; and nothing of the workspace runs until the
// client sends RunTestCasesRequest (a real command tool writes a marker file when it runs). The
// run answers each case's verdict, a failure's expected and actual values and the case's line.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { CodeLensRequest, DiagnosticSeverity } from "vscode-languageserver-protocol/node";
import { RunTestCasesRequest, TestFileRequest } from "@rlm-plan/language-server/protocol";
import { hostProfile, LspClient, TempWorkspace } from "@rlm-plan/lsp-harness";

const TOOL = `const fs = require("node:fs");
let input = "";
process.stdin.on("data", (c) => (input += c)).on("end", () => {
  fs.writeFileSync(require("node:path").join(__dirname, "ran.marker"), "ran");
  process.stdout.write(JSON.stringify({ shout: String(JSON.parse(input).text).toUpperCase() }));
});
`;

const PLAN = JSON.stringify({
  steps: [
    { op: "tool", name: "shout", args: { text: { ref: "input", name: "word" } }, bind: "s" },
    { op: "final", value: { ref: "field", value: { ref: "var", name: "s" }, key: "shout" } },
  ],
});

const MOCKS = { tools: { shout: [{ value: { shout: "MOCKED" } }] } };

const TESTS = `{
  "plan": "shout.rlmplan.json",
  "cases": [
    { "name": "mocked", "inputs": { "word": "hi" }, "mocks": ${JSON.stringify(MOCKS)}, "expect": { "value": { "equals": "MOCKED" } } },
    { "name": "wrong", "inputs": { "word": "hi", "unused": 1 }, "mocks": ${JSON.stringify(MOCKS)}, "expect": { "value": { "equals": "HI" } } },
    { "name": "live", "inputs": { "word": "yo" }, "expect": { "value": { "equals": "YO" } } }
  ]
}
`;

describe("test files over the protocol", () => {
  const workspace = new TempWorkspace({
    "rlmplan.host.json": hostProfile({
      capabilities: ["tool(shout)"],
      // It marks that it ran beside itself: a path it declares it writes.
      tools: { shout: { type: "command", command: ["node", "tools/shout.js"], writes: ["tools"] } },
    }),
    "tools/shout.js": TOOL,
    "shout.rlmplan.json": PLAN,
    "closed.rlmplan.test.json": JSON.stringify({ plan: "shout.rlmplan.json", cases: [{ name: "on disk" }] }),
  });
  const marker = workspace.path("tools/ran.marker");
  let client: LspClient;
  let uri: string;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    uri = await client.open(workspace.path("shout.rlmplan.test.json"), TESTS, "json");
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  it("diagnostics: the loader's warnings at their place", async () => {
    const found = await client.waitForDiagnostics(uri, (list) => list.length > 0);
    assert.deepEqual(
      found.map((d) => [d.range.start.line, d.severity, d.code, d.message]),
      [[4, DiagnosticSeverity.Warning, "test_file_warning", 'the plan never reads input "unused"']],
    );
  });

  it("a test file sent with the plan language id is still a test file: its name wins", async () => {
    // An editor that puts *.rlmplan.test.json in the plan mode (Emacs, Neovim) sends languageId rlm-plan.
    const planMode = await client.open(workspace.path("plan-mode.rlmplan.test.json"), TESTS, "rlm-plan");
    const found = await client.waitForDiagnostics(planMode, (list) => list.length > 0);
    assert.deepEqual(
      found.map((d) => [d.range.start.line, d.severity, d.code, d.message]),
      [[4, DiagnosticSeverity.Warning, "test_file_warning", 'the plan never reads input "unused"']],
    );
  });

  it("a Run and a Debug lens on each case; the cases of an open file and of a file on disk", async () => {
    const lenses = await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    assert.deepEqual(
      (lenses ?? []).map((l) => [l.range.start.line, l.command?.title, l.command?.command, l.command?.arguments]),
      [
        [3, "▶ Run", "rlmPlan.runTestCase", [uri, "mocked", "case"]],
        [3, "Debug", "rlmPlan.debugTestCase", [uri, "mocked", "case"]],
        [4, "▶ Run", "rlmPlan.runTestCase", [uri, "wrong", "case"]],
        [4, "Debug", "rlmPlan.debugTestCase", [uri, "wrong", "case"]],
        [5, "▶ Run", "rlmPlan.runTestCase", [uri, "live", "case"]],
        [5, "Debug", "rlmPlan.debugTestCase", [uri, "live", "case"]],
      ],
    );
    const open = await client.connection.sendRequest(TestFileRequest.type, { uri });
    assert.deepEqual(
      open.cases.map((c) => [c.name, c.kind, c.range.start.line]),
      [
        ["mocked", "case", 3],
        ["wrong", "case", 4],
        ["live", "case", 5],
      ],
    );
    assert.equal(open.errors, 0);
    assert.equal(open.plan, workspace.path("shout.rlmplan.json"));
    const closed = await client.connection.sendRequest(TestFileRequest.type, {
      uri: workspace.uri("closed.rlmplan.test.json"),
    });
    assert.deepEqual(
      closed.cases.map((c) => [c.name, c.range.start]),
      [["on disk", { line: 0, character: 38 }]],
    );
    assert.equal(existsSync(marker), false, "listing, diagnostics and lenses run nothing");
  });

  it("RunTestCasesRequest runs the cases: verdicts, a failure's expected and actual at the case's line", async () => {
    const answer = await client.connection.sendRequest(RunTestCasesRequest.type, { uri });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.deepEqual(
      answer.results.map((r) => [r.name, r.ok, r.answered, r.location]),
      [
        ["mocked", true, "mocks", { uri, line: 3, character: 4 }],
        ["wrong", false, "mocks", { uri, line: 4, character: 4 }],
        ["live", true, "live", { uri, line: 5, character: 4 }],
      ],
    );
    assert.deepEqual(answer.results[1]?.failures, [
      {
        assertion: "value",
        message: 'value: expected "HI", got "MOCKED"',
        expected: "HI",
        actual: "MOCKED",
      },
    ]);
    assert.equal(existsSync(marker), true, "the live case ran the real tool");
    const one = await client.connection.sendRequest(RunTestCasesRequest.type, {
      uri,
      cases: [{ name: "wrong", kind: "case" }],
    });
    assert.deepEqual(one.ok ? one.results.map((r) => [r.id.replace(/^.*#/, ""), r.ok]) : one, [["wrong", false]]);
  });
});
