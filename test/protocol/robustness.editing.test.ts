// The editing features on half-typed text: every prefix of a plan (as if typed from the start)
// and every one-line deletion, each asked for definition, references, rename, symbols, folding,
// formatting, code actions, code lenses and inlay hints at several places. The server must
// answer each request, log no caught bug, and stay alive.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  CodeActionRequest,
  CodeLensRequest,
  DefinitionRequest,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  InlayHintRequest,
  MessageType,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  type Diagnostic,
  type Position,
} from "vscode-languageserver-protocol/node";
import { positionAt } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { SCOPED_HOST_TEXT, SCOPED_PLAN } from "../support/scopedPlan";

describe("robustness: editing features on broken text", () => {
  const server = useServer({ files: { "rlmplan.host.json": SCOPED_HOST_TEXT } });

  async function askEverything(uri: string, text: string): Promise<void> {
    const { client } = server;
    const end = positionAt(text, text.length);
    const places: Position[] = [0.2, 0.5, 0.8, 1].map((f) => positionAt(text, Math.floor(text.length * f)));
    const textDocument = { uri };
    const everywhere: Diagnostic[] = [
      { range: { start: { line: 0, character: 0 }, end }, message: "any", code: "duplicate_binding" },
      { range: { start: { line: 2, character: 0 }, end }, message: "any", code: "final_must_be_unique_and_last" },
    ];
    const requests: Promise<unknown>[] = [
      client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }),
      client.connection.sendRequest(FoldingRangeRequest.type, { textDocument }),
      client.connection.sendRequest(CodeLensRequest.type, { textDocument }),
      client.connection.sendRequest(InlayHintRequest.type, {
        textDocument,
        range: { start: { line: 0, character: 0 }, end },
      }),
      client.connection.sendRequest(DocumentFormattingRequest.type, {
        textDocument,
        options: { tabSize: 2, insertSpaces: true },
      }),
      client.connection.sendRequest(CodeActionRequest.type, {
        textDocument,
        range: { start: { line: 0, character: 0 }, end },
        context: { diagnostics: [...(client.latest(uri)?.diagnostics ?? []), ...everywhere] },
      }),
    ];
    for (const position of places) {
      requests.push(
        client.connection.sendRequest(DefinitionRequest.type, { textDocument, position }),
        client.connection.sendRequest(ReferencesRequest.type, {
          textDocument,
          position,
          context: { includeDeclaration: true },
        }),
        // Refusals are answers too: only a crash or a logged bug fails the test.
        client.connection.sendRequest(PrepareRenameRequest.type, { textDocument, position }).catch(() => null),
        client.connection
          .sendRequest(RenameRequest.type, { textDocument, position, newName: "renamed" })
          .catch(() => null),
      );
    }
    await Promise.all(requests);
  }

  it("answers on every prefix and every line deletion of a plan", async () => {
    const { client, workspace } = server;
    const uri = await client.open(workspace.path("typing.rlmplan.json"), "");
    const lines = SCOPED_PLAN.split("\n");
    const texts = [
      ...Array.from({ length: Math.ceil(SCOPED_PLAN.length / 9) }, (_, i) => SCOPED_PLAN.slice(0, i * 9)),
      ...lines.map((_, i) => [...lines.slice(0, i), ...lines.slice(i + 1)].join("\n")),
    ];
    for (const text of texts) {
      await client.change(uri, text);
      await askEverything(uri, text);
    }
    await client.close(uri);
    assert.ok(client.alive, "the server is still running");
    const bugs = client.logMessages.filter((m) => m.type === MessageType.Error || /failed:/.test(m.message));
    assert.deepEqual(bugs, []);
    assert.doesNotMatch(client.stderr, /uncaught|unhandled/i);
  });
});
