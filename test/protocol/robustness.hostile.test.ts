// The hostile documents of the hardening issue, over the real protocol: 20 KB of `[` formatted,
// a plan with 200,000 duplicate keys, and a 5 MB plan. The server stays alive and answers every
// request; formatting the brackets is refused with a message; diagnostics are capped with a
// summary; closing a document logs nothing; a literal list of 130,000 items is analysed. (And an
// undeclared input is a host warning.)

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DiagnosticSeverity,
  DocumentFormattingRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  ShowMessageNotification,
  type ShowMessageParams,
} from "vscode-languageserver-protocol";
import { hostProfile } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { HOST, PLAN } from "../support/sampleWorkspace";

const BRACKETS = "[".repeat(20_000);
const DUPLICATES = `{"steps":[{"op":"final","value":{${Array.from({ length: 200_000 }, () => '"a":1').join(",")}}}]}`;
const STEPS = Array.from(
  { length: 60_000 },
  (_, i) => `{"op": "checkpoint", "label": "step ${i} of a plan that is five megabytes long, give or take"}`,
);
const LARGE = `{"steps": [\n${STEPS.join(",\n")},\n{"op": "final", "value": 1}]}\n`;

describe("hostile documents", () => {
  const messages: ShowMessageParams[] = [];
  const server = useServer({
    files: { "rlmplan.host.json": hostProfile(HOST) },
    settings: { validationDelay: 0 },
    onConnection: (connection) =>
      connection.onNotification(ShowMessageNotification.type, (params) => void messages.push(params)),
  });

  /** The server answers the usual requests on the document, then a hover elsewhere. */
  async function answers(uri: string): Promise<void> {
    const { client, workspace } = server;
    await client.hover(uri, { line: 0, character: 3 });
    await client.completion(uri, { line: 0, character: 2 });
    await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    await client.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } });
    const plain = await client.open(workspace.path(`plain-${Date.now()}.rlmplan.json`), PLAN);
    assert.notEqual(await client.hover(plain, { line: 1, character: 5 }), undefined);
    assert.ok(client.alive, "the server is alive");
  }

  it("20 KB of [ is not formatted: a message says why, and the server answers", async () => {
    const { uri } = await server.open("brackets.rlmplan.json", BRACKETS);
    const edits = await server.client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.deepEqual(edits, []);
    assert.deepEqual(
      messages.map((m) => m.message),
      ["Not formatted: the document nests 20000 levels deep, more than the 128 formatting handles; flatten it first."],
    );
    await answers(uri);
  });

  it("200,000 duplicate keys: 1,000 diagnostics and a summary, and the server answers", async () => {
    const { uri, diagnostics } = await server.open("duplicates.rlmplan.json", DUPLICATES);
    assert.equal(diagnostics.length, 1001);
    assert.equal(diagnostics[0]?.code, "too_many_problems");
    assert.equal(
      diagnostics[0]?.message,
      "1001 problems: the first 1000 in the file are shown; fix them to see the rest",
    );
    await answers(uri);
  });

  it("a 5 MB plan is analysed, formatted, and the server answers", async () => {
    assert.ok(LARGE.length > 5_000_000, `${LARGE.length} bytes`);
    const { uri, diagnostics } = await server.open("large.rlmplan.json", LARGE);
    assert.ok(diagnostics.every((d) => d.code !== "too_many_problems"));
    const edits = await server.client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.ok(Array.isArray(edits));
    await answers(uri);
  });

  it("a literal list of 130,000 items: its diagnostics are published (the walk overflowed the stack)", async () => {
    const plan = `{"steps": [{"op": "final", "value": [${"1,".repeat(130_000)}{"ref": "input", "name": "ghost"}]}]}`;
    const { uri, diagnostics } = await server.open("long-list.rlmplan.json", plan);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.character]),
      [["undeclared_input", plan.indexOf('"ghost"')]],
    );
    await answers(uri);
  });

  it("an input the host profile does not declare is a warning on its reference", async () => {
    const plan = `{"steps": [{"op": "final", "value": {"ref": "input", "name": "ghost"}}]}`;
    const { diagnostics } = await server.open("ghost.rlmplan.json", plan);
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, d.message, d.range.start.character]),
      [
        [
          "undeclared_input",
          DiagnosticSeverity.Warning,
          'the plan reads input "ghost", which the host profile does not declare under "inputs"',
          plan.indexOf('"ghost"'),
        ],
      ],
    );
  });

  it("closing documents logs no error", async () => {
    const { client, workspace } = server;
    const { uri } = await server.open("closed.rlmplan.json", PLAN);
    await client.close(uri);
    await client.hover(await client.open(workspace.path("after-close.rlmplan.json"), PLAN), { line: 1, character: 5 });
    assert.deepEqual(
      client.logMessages.filter((m) => /not a function|failed/.test(m.message)),
      [],
    );
    assert.doesNotMatch(client.stderr, /not a function|uncaught|unhandled/);
  });
});
