// The graph view's edit request (rlmPlan/graphEdit) through the real server over stdio: a delete
// answers the workspace edit the client applies, the graph of the edited text follows it, an
// edit of a version the graph no longer shows is refused, and the extract refactoring is offered
// for a selection through textDocument/codeAction when the user asks (not to the light bulb).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CodeActionRequest, CodeActionTriggerKind, type CodeAction } from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { GraphEditRequest, PlanGraphRequest } from "@rlm-plan/language-server/protocol";
import { hostProfile, LspClient, TempWorkspace } from "./support/lspClient";

const HOST = { capabilities: ["tool(count_items)", "checkpoint", "rlm"] };
const PLAN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1, 2], "bind": "n" },
    { "op": "checkpoint", "label": "half way" }, // goes
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}
`;
const AFTER_DELETE = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1, 2], "bind": "n" }, // goes
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}
`;

describe("rlmPlan/graphEdit over the protocol", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": hostProfile(HOST) });
  let client: LspClient;
  let uri: string;

  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    uri = await client.open(workspace.path("plan.rlmplan.json"), PLAN);
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  it("answers a delete as a workspace edit, and the graph follows the edited text", async () => {
    const edit = { kind: "delete" as const, step: ["steps", 1] };
    const answer = await client.connection.sendRequest(GraphEditRequest.type, { uri, version: 1, edit });
    assert.ok(answer && "edit" in answer, JSON.stringify(answer));
    const edits = answer.edit.changes?.[uri] ?? [];
    const text = TextDocument.applyEdits(TextDocument.create(uri, "rlm-plan", 1, PLAN), edits);
    assert.equal(text, AFTER_DELETE);
    const version = await client.change(uri, text);
    const graph = await client.connection.sendRequest(PlanGraphRequest.type, { uri });
    assert.equal(graph?.version, version);
    assert.equal(graph?.graph.steps, 2);
  });

  it("refuses an edit of a version the graph no longer shows", async () => {
    const edit = { kind: "delete" as const, step: ["steps", 0] };
    const answer = await client.connection.sendRequest(GraphEditRequest.type, { uri, version: 1, edit });
    assert.deepEqual(answer, { refused: "The plan changed since the graph was drawn: try again on the new graph." });
  });

  it("offers the extract refactoring for a selection of steps when the user asks, not to the light bulb", async () => {
    const range = { start: { line: 2, character: 4 }, end: { line: 2, character: 20 } };
    const ask = async (triggerKind: CodeActionTriggerKind) =>
      (
        (await client.connection.sendRequest(CodeActionRequest.type, {
          textDocument: { uri },
          range,
          context: { diagnostics: [], only: ["refactor"], triggerKind },
        })) as CodeAction[]
      ).map((action) => [action.kind, action.title]);
    assert.deepEqual(await ask(CodeActionTriggerKind.Invoked), [
      ["refactor.extract", "Extract the step to a sub-plan"],
    ]);
    assert.deepEqual(await ask(CodeActionTriggerKind.Automatic), []);
  });
});
