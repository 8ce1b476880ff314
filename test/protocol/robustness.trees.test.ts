// The server keeps the jsonc tree of recently used plans only (server/src/service/recentTrees.ts) and
// parses a plan's text again when a request needs a tree it dropped. A plan asked about after
// many others were opened, and after an edit, must answer exactly as it did at first.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DefinitionRequest, ReferencesRequest } from "vscode-languageserver-protocol/node";
import { fixture } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { cursorIn, SCOPED_HOST_TEXT, SCOPED_PLAN } from "../support/scopedPlan";

/** More plans than the server keeps trees for. */
const OTHERS = 24;

describe("robustness: trees dropped and parsed again", () => {
  const server = useServer({ files: { "rlmplan.host.json": SCOPED_HOST_TEXT } });

  /** Hover, completion, definition and references at one reference to "hits" in the plan. */
  async function answers(uri: string, text: string): Promise<unknown[]> {
    const { client } = server;
    const { position } = fixture(cursorIn(text, '"hits"', 1));
    const textDocument = { uri };
    return [
      await client.hover(uri, position),
      (await client.completion(uri, position)).map((item) => [item.label, item.detail]),
      await client.connection.sendRequest(DefinitionRequest.type, { textDocument, position }),
      await client.connection.sendRequest(ReferencesRequest.type, {
        textDocument,
        position,
        context: { includeDeclaration: true },
      }),
    ];
  }

  it("answers the same after many other plans and after an edit", async () => {
    const { client } = server;
    const { uri } = await server.open("kept.rlmplan.json", SCOPED_PLAN);
    const first = await answers(uri, SCOPED_PLAN);
    assert.ok(first[0] !== null, "a hover on the reference");

    for (let i = 0; i < OTHERS; i++) {
      await server.open(`other${i}.rlmplan.json`, SCOPED_PLAN.replace("Summarize", `S${i}`));
    }
    assert.deepEqual(await answers(uri, SCOPED_PLAN), first);

    // The same lines after an edit on the last line: the same answers for the new version.
    const edited = `${SCOPED_PLAN}\n`;
    await client.change(uri, edited);
    await client.waitForDiagnostics(uri);
    assert.deepEqual(await answers(uri, edited), first);
  });
});
