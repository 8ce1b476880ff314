// The feature requests through the real server over stdio, once each: what the initialize result
// announces, and that each request family reaches its feature and comes back on the wire for an
// open plan (and a host profile), with an empty answer for a document that is not an open plan.
// What each feature answers is tested in process, in test/service/; this checks the wiring only.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  CodeActionKind,
  CodeActionRequest,
  CodeLensRequest,
  DefinitionRequest,
  DocumentFormattingRequest,
  PrepareRenameRequest,
  RenameRequest,
  SelectionRangeRequest,
  SemanticTokensRequest,
  WorkspaceSymbolRequest,
  type CodeAction,
  type Location,
  type SymbolInformation,
} from "vscode-languageserver-protocol/node";
import { PlanGraphRequest } from "@rlm-plan/language-server/protocol";
import { at, HOST, PLAN } from "../support/sampleWorkspace";
import { fixture, hostProfile, LspClient, TempWorkspace } from "./support/lspClient";

describe("feature requests over the protocol (wiring)", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": hostProfile(HOST) });
  const planFile = workspace.path("plan.rlmplan.json");
  const otherUri = workspace.uri("closed.rlmplan.json");
  let client: LspClient;
  let uri: string;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    uri = await client.open(planFile, PLAN);
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  /** The position of the `|` in `marked`, a snippet of PLAN with the cursor. */
  const cursor = (marked: string) => fixture(at(PLAN, marked)).position;

  it("announces each feature in the initialize result", () => {
    const capabilities = client.initializeResult?.capabilities;
    assert.ok(capabilities);
    assert.equal(capabilities.hoverProvider, true);
    assert.deepEqual(capabilities.completionProvider?.triggerCharacters, ['"', ":"]);
    assert.equal(capabilities.definitionProvider, true);
    assert.deepEqual(capabilities.renameProvider, { prepareProvider: true });
    assert.deepEqual(capabilities.codeActionProvider, {
      codeActionKinds: [
        CodeActionKind.QuickFix,
        "source.runPlan",
        CodeActionKind.RefactorExtract,
        CodeActionKind.RefactorInline,
      ],
    });
    assert.deepEqual(capabilities.codeLensProvider, { resolveProvider: false });
    assert.equal(capabilities.documentFormattingProvider, true);
    assert.equal(capabilities.selectionRangeProvider, true);
    assert.equal(capabilities.workspaceSymbolProvider, true);
    assert.deepEqual(capabilities.semanticTokensProvider?.full, { delta: true });
  });

  it("publishes diagnostics for the opened plan", async () => {
    const diagnostics = await client.waitForDiagnostics(uri);
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.range.start.line]),
      [["silent_cap", 5]],
    );
  });

  it("completion, hover and definition at a position", async () => {
    const labels = (await client.completion(uri, cursor('"op": "|tool"'))).map((item) => item.label);
    assert.deepEqual(labels, ["context", "model", "rlm", "tool", "parallel", "retry", "checkpoint", "final"]);
    const hover = await client.hover(uri, cursor('"provider": "lo|cal"'));
    assert.ok(hover && typeof hover.contents === "object" && "value" in hover.contents);
    assert.match(hover.contents.value, /^\*\*provider\*\* `local`/);
    const definition = (await client.connection.sendRequest(DefinitionRequest.type, {
      textDocument: { uri },
      position: cursor('"name": "h|its"'),
    })) as Location[];
    assert.deepEqual(
      definition.map((location) => [location.uri, location.range.start.line]),
      [[uri, 2]],
    );
  });

  it("prepareRename and rename; a refusal comes back as an error with the service's message", async () => {
    const position = cursor('"bind": "cou|nt"');
    const prepared = await client.connection.sendRequest(PrepareRenameRequest.type, {
      textDocument: { uri },
      position,
    });
    assert.ok(prepared && "placeholder" in prepared);
    assert.equal(prepared.placeholder, "count");
    const edit = await client.connection.sendRequest(RenameRequest.type, {
      textDocument: { uri },
      position,
      newName: "total",
    });
    assert.equal(edit?.changes?.[uri]?.length, 2);
    await assert.rejects(
      client.connection.sendRequest(RenameRequest.type, { textDocument: { uri }, position, newName: "hits" }),
      { message: '"hits" is already in scope here (bound on line 3): choose another name.' },
    );
  });

  it("code actions, code lenses, formatting, selection ranges and semantic tokens of the document", async () => {
    const textDocument = { uri };
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [] },
    })) as CodeAction[];
    assert.deepEqual(
      actions.map((action) => [action.title, action.kind]),
      [["Run plan", "source.runPlan"]],
    );
    const lenses = await client.connection.sendRequest(CodeLensRequest.type, { textDocument });
    assert.equal(
      lenses?.[0]?.command?.title,
      "▶ Run plan (steps 13/64 · models 1/8 · tools 3/4 · context ops 1/32 · depth 2/4)",
    );
    const edits = await client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument,
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.ok((edits?.length ?? 0) > 0, "the sample plan is not in the formatter's layout");
    const ranges = await client.connection.sendRequest(SelectionRangeRequest.type, {
      textDocument,
      positions: [cursor('"op": "|tool"')],
    });
    assert.equal(ranges?.length, 1);
    const tokens = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument });
    assert.ok(tokens && tokens.data.length > 0 && tokens.data.length % 5 === 0);
  });

  it("the plan graph, and workspace symbols", async () => {
    const graph = await client.connection.sendRequest(PlanGraphRequest.type, { uri });
    assert.equal(graph?.uri, uri);
    assert.equal(graph?.graph.steps, 7);
    const symbols = (await client.connection.sendRequest(WorkspaceSymbolRequest.type, {
      query: "answer",
    })) as SymbolInformation[];
    assert.deepEqual(
      symbols.map((symbol) => [symbol.name, symbol.location.uri]),
      [["answer", uri]],
    );
  });

  it("completion in the host profile: capability terms with what open plans use", async () => {
    const text = hostProfile(HOST).replace('"model(local)"', '"model(local)",\n    |');
    const marked = fixture(text);
    const hostUri = await client.open(workspace.path("rlmplan.host.json"), marked.text, "json");
    const labels = (await client.completion(hostUri, marked.position)).map((item) => item.label);
    await client.close(hostUri);
    assert.deepEqual(labels.slice(0, 3), ["context(slice)", "context(peek)", "context(partition)"]);
  });

  it("empty answers for a document that is not an open plan", async () => {
    const position = { line: 0, character: 1 };
    assert.deepEqual(await client.completion(otherUri, position), []);
    assert.equal(await client.hover(otherUri, position), null);
    assert.equal(await client.connection.sendRequest(PlanGraphRequest.type, { uri: otherUri }), null);
    assert.deepEqual(
      await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri: otherUri } }),
      [],
    );
  });
});
