// The size limits of big plans over the protocol, with the limits set low so small documents
// cross them (bench/big-documents.bench.ts runs the 5 MB and 21 MB plans): a plan over
// `maxAnalyzedSize` gets one warning diagnostic and one message naming its size and the setting,
// and every feature answers empty, also after an edit (the message is not repeated); a plan over
// `largePlanSize` is analysed, its whole-document semantic tokens are refused (logged once: null,
// or ServerCancelled to a client that allows it, as VS Code does, which then asks by range), and
// a range's tokens are exactly those of the steps on screen. Workspace symbols leave
// out plans over `maxAnalyzedSize` (open or on disk; the log says why once) and list the rest; the
// graph of such a plan is an error naming its size and the setting.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DiagnosticSeverity,
  LSPErrorCodes,
  DocumentSymbolRequest,
  SemanticTokensDeltaRequest,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
  ShowMessageNotification,
  WorkspaceSymbolRequest,
  type ResponseError,
  type SemanticTokensLegend,
  type ShowMessageParams,
} from "vscode-languageserver-protocol";
import { hostProfile } from "@rlm-plan/lsp-harness";
import { PlanGraphRequest } from "@rlm-plan/language-server/protocol";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { decode } from "../support/semanticTokenRows";

/** `steps` tool steps, one a line, each reading the one before. */
function chain(steps: number): string {
  const lines = ['{"steps": [', '{"op": "tool", "name": "echo", "args": "seed", "bind": "x1"},'];
  for (let i = 2; i < steps; i++)
    lines.push(`{"op": "tool", "name": "echo", "args": {"ref": "var", "name": "x${i - 1}"}, "bind": "x${i}"},`);
  lines.push(`{"op": "final", "value": {"ref": "var", "name": "x${steps - 1}"}}`, "]}", "");
  return lines.join("\n");
}

const HUGE = chain(44);
const LARGE = chain(14);
const SMALL = chain(3);

describe("size limits: plans over maxAnalyzedSize and largePlanSize", () => {
  const messages: ShowMessageParams[] = [];
  const server = useServer({
    files: {
      "rlmplan.host.json": hostProfile({
        capabilities: ["tool(echo)"],
        tools: { echo: { type: "command", command: ["echo"] } },
      }),
      // On disk, never opened: one under the limit, one over it.
      "small.rlmplan.json": SMALL,
      "disk-huge.rlmplan.json": HUGE,
      // Opened below with the same text: over the limit open, so its file is not read instead.
      "huge.rlmplan.json": HUGE,
    },
    settings: { validationDelay: 0, maxAnalyzedSize: 3000, largePlanSize: 1000 },
    onConnection: (connection) =>
      connection.onNotification(ShowMessageNotification.type, (params) => void messages.push(params)),
  });

  it("a plan over maxAnalyzedSize: one warning and one message say why; every feature answers empty", async () => {
    assert.ok(HUGE.length > 3000 && HUGE.length < 4000, `${HUGE.length} bytes`);
    const expected = `huge.rlmplan.json is 3.7 KB, over the 3 KB the editor analyses (setting rlmPlan.maxAnalyzedSize): no diagnostics, hover, completion, outline or highlighting for it. Run "rlm-plan check" on it instead.`;
    assert.equal(HUGE.length, 3728);
    const { uri, diagnostics } = await server.open("huge.rlmplan.json", HUGE);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.message, d.range]),
      [
        [
          "plan_too_large",
          DiagnosticSeverity.Warning,
          expected,
          { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        ],
      ],
    );
    assert.deepEqual(
      messages.map((m) => m.message),
      [expected],
    );
    const { client } = server;
    const textDocument = { uri };
    assert.equal(await client.hover(uri, { line: 5, character: 40 }), null);
    assert.deepEqual(await client.completion(uri, { line: 5, character: 2 }), []);
    assert.deepEqual(await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }), []);
    assert.deepEqual(await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument }), { data: [] });

    // An edit (still too large): the same single warning for the new version, no second message.
    const version = await client.edit(uri, { start: { line: 3, character: 1 }, end: { line: 3, character: 1 } }, " ");
    const edited = await client.diagnosticsOf(uri, version);
    assert.deepEqual(
      edited.diagnostics.map((d) => d.message),
      [expected],
    );
    assert.equal(messages.length, 1);
  });

  it("a plan over largePlanSize: analysed; whole-document tokens refused (logged once), a range's tokens exact", async () => {
    assert.ok(LARGE.length > 1000 && LARGE.length < 3000, `${LARGE.length} bytes`);
    const { client } = server;
    const { uri, diagnostics } = await server.open("large.rlmplan.json", LARGE);
    assert.deepEqual(diagnostics, []);
    const textDocument = { uri };
    assert.equal(await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument }), null);
    assert.equal(
      await client.connection.sendRequest(SemanticTokensDeltaRequest.type, { textDocument, previousResultId: "1" }),
      null,
    );
    const logged = client.logMessages.filter((m) => m.message.includes("largePlanSize")).map((m) => m.message);
    assert.deepEqual(logged, [
      `large.rlmplan.json is ${(LARGE.length / 1000).toFixed(1)} KB, over the 1 KB of rlmPlan.largePlanSize: its semantic tokens are given for the visible range only, not the whole document.`,
    ]);
    const legend = client.initializeResult?.capabilities.semanticTokensProvider?.legend as SemanticTokensLegend;
    const ranged = await client.connection.sendRequest(SemanticTokensRangeRequest.type, {
      textDocument,
      range: { start: { line: 5, character: 0 }, end: { line: 6, character: 0 } },
    });
    assert.deepEqual(decode(ranged?.data ?? [], legend, LARGE), [
      [5, 7, '"tool"', "keyword"],
      [5, 23, '"echo"', "function"],
      [5, 62, '"x4"', "variable", "readonly"],
      [5, 77, '"x5"', "variable", "declaration", "readonly"],
    ]);
    // The document is still served: its outline lists every step.
    const symbols = await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument });
    assert.equal(symbols?.length, 14);
  });

  it("workspace symbols: plans over maxAnalyzedSize left out (logged once), the rest answered; no graph of one", async () => {
    const { client } = server;
    const search = async () =>
      ((await client.connection.sendRequest(WorkspaceSymbolRequest.type, { query: "x1" })) ?? [])
        .filter((symbol) => symbol.name === "x1")
        .map((symbol) => [symbol.name, symbol.containerName]);
    // large.rlmplan.json is open (1.1 KB, analysed), huge.rlmplan.json open and over the limit,
    // small.rlmplan.json and disk-huge.rlmplan.json only on disk.
    const expected = [
      ["x1", "tool echo · large.rlmplan.json"],
      ["x1", "tool echo · small.rlmplan.json"],
    ];
    assert.deepEqual(await search(), expected);
    const refusals = () =>
      client.logMessages.filter((m) => m.message.includes("workspace symbols")).map((m) => m.message);
    assert.deepEqual(refusals(), [
      `disk-huge.rlmplan.json is 3.7 KB, over the 3 KB the editor analyses (setting rlmPlan.maxAnalyzedSize): its steps are left out of workspace symbols.`,
    ]);
    assert.equal((await search()).length, 2);
    assert.equal(refusals().length, 1);

    // The graph view's request: an error naming the size and the setting, not an empty answer.
    const uri = server.workspace.uri("huge.rlmplan.json");
    const refused = await client.connection.sendRequest(PlanGraphRequest.type, { uri }).then(
      () => undefined,
      (error: ResponseError) => error,
    );
    assert.equal(
      refused?.message,
      `huge.rlmplan.json is 3.7 KB, over the 3 KB the editor analyses (setting rlmPlan.maxAnalyzedSize): no graph of it here. Run "rlm-plan graph" on it instead.`,
    );
    const graph = await client.connection.sendRequest(PlanGraphRequest.type, {
      uri: server.workspace.uri("large.rlmplan.json"),
    });
    assert.equal(graph?.graph.nodes.filter((node) => node.kind === "step").length, 14);
  });
});

describe("size limits: a client that allows server cancellation (VS Code)", () => {
  const server = useServer({
    files: {
      "rlmplan.host.json": hostProfile({
        capabilities: ["tool(echo)"],
        tools: { echo: { type: "command", command: ["echo"] } },
      }),
    },
    settings: { validationDelay: 0, largePlanSize: 1000 },
    textDocumentCapabilities: { semanticTokens: { serverCancelSupport: true } },
  });

  it("whole-document tokens of a plan over largePlanSize: ServerCancelled with the reason, so the client asks by range", async () => {
    const { client } = server;
    const { uri } = await server.open("large.rlmplan.json", LARGE);
    const textDocument = { uri };
    const reason = `large.rlmplan.json is ${(LARGE.length / 1000).toFixed(1)} KB, over the 1 KB of rlmPlan.largePlanSize: its semantic tokens are given for the visible range only, not the whole document.`;
    const refusal = (request: Promise<unknown>) =>
      request.then(
        (answer) => ({ answer }),
        (error: ResponseError) => [error.code, error.message],
      );
    assert.deepEqual(await refusal(client.connection.sendRequest(SemanticTokensRequest.type, { textDocument })), [
      LSPErrorCodes.ServerCancelled,
      reason,
    ]);
    assert.deepEqual(
      await refusal(
        client.connection.sendRequest(SemanticTokensDeltaRequest.type, { textDocument, previousResultId: "1" }),
      ),
      [LSPErrorCodes.ServerCancelled, reason],
    );
    const ranged = await client.connection.sendRequest(SemanticTokensRangeRequest.type, {
      textDocument,
      range: { start: { line: 5, character: 0 }, end: { line: 6, character: 0 } },
    });
    assert.equal(ranged?.data.length, 4 * 5);
    // A small plan is answered whole.
    const small = await server.open("small.rlmplan.json", SMALL);
    const whole = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: small.uri } });
    assert.ok((whole?.data.length ?? 0) > 0);
  });
});
