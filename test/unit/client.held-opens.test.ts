// Propose Plan's proposal reaches the language server with its text (client/src/heldOpens.ts,
// the language client's didOpen/didChange/didClose middleware), in process: the notifications
// the client would send for a proposal opened empty and filled at once. Before, the server got
// the empty document, then the plan as a change, and a proposal once showed "invalid JSON: value
// expected [Ln 1, Col 1]" and no worst case while the editor held the whole plan.
// The documents are plain objects in the shape of VS Code's (uri, version, getText): no VS Code
// runs in this tier (test-electron needs the network); e2e (k) proposes a plan in a real one.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import type { TextDocument, TextDocumentChangeEvent, Uri } from "vscode";
import { HeldOpens } from "rlm-plan-client/heldOpens";

const PLAN = '{\n  "steps": [{ "op": "final", "value": 1 }]\n}\n';

/** A live document: its text and version change as VS Code's do. */
function documentAt(uri: string) {
  const state = { text: "", version: 1 };
  const document = {
    uri: { toString: () => uri } as Uri,
    get version() {
      return state.version;
    },
    getText: () => state.text,
  } as unknown as TextDocument;
  const change = (text: string): TextDocumentChangeEvent => {
    state.text = text;
    state.version++;
    return { document, contentChanges: [], reason: undefined } as unknown as TextDocumentChangeEvent;
  };
  return { document, change };
}

/** What the client sends through the middleware, as "method version text" lines. */
function client(held: HeldOpens) {
  const sent: string[] = [];
  const open = async (document: TextDocument) => void sent.push(`didOpen v${document.version} ${document.getText()}`);
  const change = async (event: TextDocumentChangeEvent) =>
    void sent.push(`didChange v${event.document.version} ${event.document.getText()}`);
  const close = async (document: TextDocument) => void sent.push(`didClose ${document.version}`);
  return {
    sent,
    open: (document: TextDocument) => held.didOpen(document, open),
    change: (event: TextDocumentChangeEvent) => held.didChange(event, change),
    close: (document: TextDocument) => held.didClose(document, close),
  };
}

const URI = "untitled:/w/proposed.rlmplan.json";

test("a held document opened empty reaches the server once, with the plan: no empty document, no change", async () => {
  const held = new HeldOpens();
  const lsp = client(held);
  const hold = held.hold({ toString: () => URI } as Uri);
  const { document, change } = documentAt(URI);
  await lsp.open(document);
  assert.deepEqual(lsp.sent, []);
  await lsp.change(change(PLAN));
  await hold.release();
  assert.deepEqual(lsp.sent, [`didOpen v2 ${PLAN}`]);
  // The user's edits after it go as changes.
  await lsp.change(change(`${PLAN} `));
  assert.deepEqual(lsp.sent, [`didOpen v2 ${PLAN}`, `didChange v3 ${PLAN} `]);
});

test("released before its change came (the editor's edit resolved first), the change already in the text is not sent again", async () => {
  const held = new HeldOpens();
  const lsp = client(held);
  const hold = held.hold({ toString: () => URI } as Uri);
  const { document, change } = documentAt(URI);
  await lsp.open(document);
  const event = change(PLAN);
  await hold.release();
  await lsp.change(event);
  assert.deepEqual(lsp.sent, [`didOpen v2 ${PLAN}`]);
});

test("a fill that failed: released, the document goes as it is; closed unsent, nothing goes", async () => {
  const held = new HeldOpens();
  const lsp = client(held);
  const first = documentAt(URI);
  const hold = held.hold({ toString: () => URI } as Uri);
  await lsp.open(first.document);
  await hold.release();
  assert.deepEqual(lsp.sent, ["didOpen v1 "]);
  const other = "untitled:/w/proposed-2.rlmplan.json";
  held.hold({ toString: () => other } as Uri);
  const second = documentAt(other);
  await lsp.open(second.document);
  await lsp.close(second.document);
  assert.deepEqual(lsp.sent, ["didOpen v1 "]);
});

test("documents nobody holds pass through untouched", async () => {
  const held = new HeldOpens();
  const lsp = client(held);
  const { document, change } = documentAt("file:///w/plan.rlmplan.json");
  await lsp.open(document);
  await lsp.change(change(PLAN));
  await lsp.close(document);
  assert.deepEqual(lsp.sent, ["didOpen v1 ", `didChange v2 ${PLAN}`, "didClose 2"]);
});
