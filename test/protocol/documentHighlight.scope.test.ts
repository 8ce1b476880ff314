// Document highlight over the protocol: on a binding or any use of it, the binding (Write) and
// every use in its scope (Read), in source order; a namesake in a sibling branch stays unlit.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  DocumentHighlightKind,
  DocumentHighlightRequest,
  type DocumentHighlight,
} from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "./support/lspClient";
import { cursorIn, nthRange, SCOPED_HOST_TEXT, SCOPED_PLAN } from "./support/scopedPlan";

describe("document highlight: a binding and its uses", () => {
  const workspace = new TempWorkspace({ "rlmplan.host.json": SCOPED_HOST_TEXT });
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
    assert.equal(client.initializeResult?.capabilities.documentHighlightProvider, true);
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function highlights(marked: string): Promise<DocumentHighlight[] | null> {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path("scoped.rlmplan.json"), text);
    const result = await client.connection.sendRequest(DocumentHighlightRequest.type, {
      textDocument: { uri },
      position,
    });
    await client.close(uri);
    return result;
  }

  const write = (needle: string, n: number) => ({
    range: nthRange(SCOPED_PLAN, needle, n),
    kind: DocumentHighlightKind.Write,
  });
  const read = (needle: string, n: number) => ({
    range: nthRange(SCOPED_PLAN, needle, n),
    kind: DocumentHighlightKind.Read,
  });

  it("from the binding and from a use in a nested branch: the same answer", async () => {
    const all = [write('"hits"', 0), read('"hits"', 1), read('"hits"', 2), read('"hits"', 4)];
    assert.deepEqual(await highlights(cursorIn(SCOPED_PLAN, '"hits"', 0)), all);
    assert.deepEqual(await highlights(cursorIn(SCOPED_PLAN, '"hits"', 2, 3)), all);
  });

  it("a branch's binding: its own branch only", async () => {
    assert.deepEqual(await highlights(cursorIn(SCOPED_PLAN, '"n"', 1)), [write('"n"', 0), read('"n"', 1)]);
    assert.deepEqual(await highlights(cursorIn(SCOPED_PLAN, '"n"', 2)), [write('"n"', 2), read('"n"', 3)]);
  });

  it("nothing on an unbound variable, a key, an input or a tool name", async () => {
    const unbound = SCOPED_PLAN.replace('"name": "answer"}', '"name": "answr"}');
    assert.deepEqual(await highlights(cursorIn(unbound, '"answr"', 0)), []);
    assert.deepEqual(await highlights(cursorIn(SCOPED_PLAN, '"bind"', 0)), []);
    assert.deepEqual(await highlights(cursorIn(SCOPED_PLAN, '"doc"', 0)), []);
    assert.deepEqual(await highlights(cursorIn(SCOPED_PLAN, '"count_items"', 0)), []);
  });
});
