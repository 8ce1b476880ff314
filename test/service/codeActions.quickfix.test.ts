// Quick fixes over the protocol, against golden files (test/protocol/golden/code-actions/): for
// each case, the input plan is opened in a workspace with the golden host profile, the
// diagnostic with the case's code is sent back in a code-action request, the action with the
// case's title is applied, and every file must then read as its expected golden file.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  CodeActionKind,
  CodeActionRequest,
  ExecuteCommandRequest,
  ShowDocumentRequest,
  type CodeAction,
  type Command,
  type Diagnostic,
  type ShowDocumentParams,
} from "vscode-languageserver-protocol/node";
import { LspClient, rangeOf, TempWorkspace } from "../protocol/support/lspClient";
import { applyWorkspaceEdit, expectGolden, golden } from "../protocol/support/workspaceEdits";

interface GoldenCase {
  readonly name: string;
  readonly code: string;
  readonly title: string;
  /** The host profile changes too (its expected text is `<name>.expected.host.json`). */
  readonly editsHost?: boolean;
}

const CASES: readonly GoldenCase[] = [
  { name: "unknown-operator", code: "unknown_operator", title: 'Change to "context"' },
  { name: "unknown-context-action", code: "unknown_context_action", title: 'Change to "search"' },
  { name: "invalid-map-transform", code: "invalid_map_transform", title: 'Change to "uppercase"' },
  { name: "invalid-reducer", code: "invalid_reducer", title: 'Change to "count"' },
  { name: "unknown-selector", code: "unknown_selector", title: 'Change to "head"' },
  { name: "unknown-partition-strategy", code: "unknown_partition_strategy", title: 'Change to "lines"' },
  { name: "unknown-reference", code: "unknown_reference", title: 'Change to "var"' },
  { name: "unbound-variable", code: "unbound_variable", title: 'Change to the variable "hits"' },
  // No name in scope is near "summary": the step that binds it is added before its use, in the sub-plan.
  {
    name: "unbound-variable-add-step",
    code: "unbound_variable",
    title: 'Add a model step binding "summary" before this step',
  },
  { name: "missing-final", code: "final_must_be_unique_and_last", title: 'Add a final step returning "count"' },
  { name: "missing-final-nested", code: "final_must_be_unique_and_last", title: 'Add a final step returning "n"' },
  { name: "duplicate-binding", code: "duplicate_binding", title: 'Rename this "count" to "count_2"' },
  { name: "missing-field", code: "missing_field", title: 'Add the missing "bind"' },
  {
    name: "final-not-last",
    code: "final_must_be_unique_and_last",
    title: "Move the final step to the end of the plan",
  },
  {
    name: "budget-exceeded",
    code: "budget_exceeded",
    title: "Raise max_tool_calls to 17 in rlmplan.host.json",
    editsHost: true,
  },
  {
    name: "capability-denied",
    code: "capability_denied",
    title: 'Grant "tool(sum)" in rlmplan.host.json',
    editsHost: true,
  },
  { name: "unknown-tool", code: "unknown_tool", title: 'Change to the registered tool "count_items"' },
  { name: "unknown-provider", code: "unknown_provider", title: 'Change to the registered provider "local"' },
  { name: "unknown-key", code: "unknown_key", title: 'Rename "bnd" to "bind"' },
  // The first unknown key ("flags" on the search) is removed with its comma; "extra" stays.
  { name: "unknown-key-remove", code: "unknown_key", title: 'Remove "flags"' },
  { name: "unknown-model-option", code: "unknown_model_option", title: 'Rename "max_token" to "max_tokens"' },
];

describe("code actions: quick fixes (golden files)", () => {
  const hostText = golden("code-actions", "rlmplan.host.json");
  const workspace = new TempWorkspace({ "rlmplan.host.json": hostText });
  const hostUri = workspace.uri("rlmplan.host.json");
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  /** Opens a plan, waits for its diagnostics, and asks for the actions on the one with `code`. */
  async function actionsFor(
    file: string,
    text: string,
    code: string,
  ): Promise<{ uri: string; diagnostic: Diagnostic; actions: (CodeAction | Command)[] }> {
    const uri = await client.open(workspace.path(file), text);
    const diagnostics = await client.waitForDiagnostics(uri, (all) => all.some((d) => d.code === code));
    const diagnostic = diagnostics.find((d) => d.code === code) as Diagnostic;
    const actions = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic], only: [CodeActionKind.QuickFix] },
    });
    await client.close(uri);
    return { uri, diagnostic, actions: actions ?? [] };
  }

  for (const testCase of CASES) {
    it(`${testCase.code}: ${testCase.name}`, async () => {
      const input = golden("code-actions", `${testCase.name}.input.rlmplan.json`);
      const { uri, diagnostic, actions } = await actionsFor(`${testCase.name}.rlmplan.json`, input, testCase.code);
      const action = actions.find((a): a is CodeAction => "kind" in a && a.title === testCase.title);
      assert.ok(
        action,
        `no action ${JSON.stringify(testCase.title)} among ${JSON.stringify(actions.map((a) => a.title))}`,
      );
      assert.equal(action.kind, CodeActionKind.QuickFix);
      assert.deepEqual(action.diagnostics, [diagnostic]);
      assert.ok(action.edit, "the action carries its edit");
      const after = applyWorkspaceEdit({ [uri]: input, [hostUri]: hostText }, action.edit);
      assert.deepEqual(Object.keys(after), [testCase.editsHost ? hostUri : uri]);
      const plan = after[uri] ?? input;
      expectGolden(plan, "code-actions", `${testCase.name}.expected.rlmplan.json`);
      if (testCase.editsHost) expectGolden(after[hostUri] ?? "", "code-actions", `${testCase.name}.expected.host.json`);
    });
  }

  it("unbound variable: the nearest name first, then adding its step, which is never preferred", async () => {
    const input = golden("code-actions", "unbound-variable.input.rlmplan.json");
    const { actions } = await actionsFor("unbound-both.rlmplan.json", input, "unbound_variable");
    assert.deepEqual(
      actions.map((a) => [a.title, "isPreferred" in a ? a.isPreferred : undefined]),
      [
        ['Change to the variable "hits"', true],
        ['Add a model step binding "hit" before this step', undefined],
      ],
    );
  });

  it("isPreferred only when one fix is clearly right: a one-letter slip, not a guess", async () => {
    const preferred = async (op: string) => {
      const text = `{"steps": [{"op": "${op}", "plan": {"steps": [{"op": "final", "value": 1}]}, "bind": "x"}, {"op": "final", "value": 1}]}`;
      const { actions } = await actionsFor(`preferred-${op}.rlmplan.json`, text, "unknown_operator");
      return actions.map((a) => [a.title, "isPreferred" in a ? a.isPreferred === true : false]);
    };
    assert.deepEqual(await preferred("rlmm"), [['Change to "rlm"', true]]);
    assert.deepEqual(await preferred("fly"), [['Change to "rlm"', false]]);
  });

  it("unknown_tool: opens the host profile at its tools section", async () => {
    const input = golden("code-actions", "unknown-tool.input.rlmplan.json");
    const { diagnostic, actions } = await actionsFor("open-host.rlmplan.json", input, "unknown_tool");
    const open = actions.find((a): a is CodeAction => "kind" in a && a.title === 'Open rlmplan.host.json at "tools"');
    const selection = rangeOf(hostText, '"tools"');
    assert.deepEqual(open, {
      title: 'Open rlmplan.host.json at "tools"',
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      command: {
        title: 'Open rlmplan.host.json at "tools"',
        command: "rlmPlan.server.showHostProfile",
        arguments: [{ uri: hostUri, selection }],
      },
    });
    // Running the command asks the client to show the file with the key selected.
    const shown: ShowDocumentParams[] = [];
    client.connection.onRequest(ShowDocumentRequest.type, (params) => {
      shown.push(params);
      return { success: true };
    });
    const result = await client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: open?.command?.command ?? "",
      arguments: open?.command?.arguments ?? [],
    });
    assert.equal(result, true);
    assert.deepEqual(shown, [{ uri: hostUri, takeFocus: true, selection }]);
  });

  it("capability_denied: edits the host profile's text in the editor when it is open", async () => {
    // Open, with unsaved changes: a one-line list the fix extends.
    const edited = hostText.replace(/"capabilities": \[[^\]]*\]/, '"capabilities": ["rlm", "tool(count_items)"]');
    assert.notEqual(edited, hostText);
    await client.open(workspace.path("rlmplan.host.json"), edited, "json");
    try {
      const input = golden("code-actions", "capability-denied.input.rlmplan.json");
      const { diagnostic, actions } = await actionsFor("open-profile.rlmplan.json", input, "capability_denied");
      const grant = actions.find(
        (a): a is CodeAction => "kind" in a && a.title === 'Grant "tool(sum)" in rlmplan.host.json',
      );
      assert.ok(grant?.edit);
      assert.deepEqual(grant.diagnostics, [diagnostic]);
      const after = applyWorkspaceEdit({ [hostUri]: edited }, grant.edit);
      assert.equal(
        after[hostUri],
        edited.replace(
          '"capabilities": ["rlm", "tool(count_items)"]',
          '"capabilities": [\n    "rlm",\n    "tool(count_items)",\n    "tool(sum)"\n  ]',
        ),
      );
    } finally {
      await client.close(hostUri);
    }
  });

  it("no fix for a stale diagnostic, or when only other kinds are asked for", async () => {
    const input = golden("code-actions", "unknown-operator.input.rlmplan.json");
    const uri = await client.open(workspace.path("stale.rlmplan.json"), input);
    const diagnostics = await client.waitForDiagnostics(uri, (all) => all.some((d) => d.code === "unknown_operator"));
    const diagnostic = diagnostics.find((d) => d.code === "unknown_operator") as Diagnostic;
    const refactors = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic], only: [CodeActionKind.Refactor] },
    });
    await client.change(uri, input.replace('"contxt"', '"context"'));
    const stale = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic], only: [CodeActionKind.QuickFix] },
    });
    await client.close(uri);
    assert.deepEqual(refactors, []);
    assert.deepEqual(stale, []);
  });

  it("Run plan is a source action naming the lens's command, for editors without code lenses", async () => {
    const input = golden("code-actions", "missing-final.input.rlmplan.json");
    const uri = await client.open(workspace.path("run-action.rlmplan.json"), input);
    const everything = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } },
      context: { diagnostics: [] },
    });
    const quickFixesOnly = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } },
      context: { diagnostics: [], only: [CodeActionKind.QuickFix] },
    });
    await client.close(uri);
    assert.deepEqual(everything, [
      {
        title: "Run plan",
        kind: "source.runPlan",
        command: { title: "Run plan", command: "rlmPlan.server.runInEditor", arguments: [uri] },
      },
    ]);
    assert.deepEqual(quickFixesOnly, []);
  });
});
