// Formatting over the protocol: the whole document or a range, with the editor's tabSize and
// insertSpaces; comments and the final newline stay. Checked by applying the edits to the text.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  DocumentFormattingRequest,
  DocumentRangeFormattingRequest,
  type FormattingOptions,
  type Range,
} from "vscode-languageserver-protocol/node";
import { LspClient, TempWorkspace } from "../protocol/support/lspClient";
import { nthRange } from "../protocol/support/scopedPlan";
import { applyTextEdits } from "../protocol/support/workspaceEdits";

const COMPACT = `// count the hits
{"steps": [{"op": "tool", "name": "count_items", "args": [1, 2], "bind": "n"},
{"op": "final", "value": {"ref": "var", "name": "n"}}]}
`;

describe("formatting: document and range", () => {
  const workspace = new TempWorkspace();
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function format(text: string, options: FormattingOptions, range?: Range): Promise<string> {
    const uri = await client.open(workspace.path("format.rlmplan.json"), text);
    const edits = range
      ? await client.connection.sendRequest(DocumentRangeFormattingRequest.type, {
          textDocument: { uri },
          options,
          range,
        })
      : await client.connection.sendRequest(DocumentFormattingRequest.type, { textDocument: { uri }, options });
    await client.close(uri);
    return applyTextEdits(text, edits ?? []);
  }

  it("formats the whole document with two spaces, keeping the comment and the final newline", async () => {
    assert.equal(
      await format(COMPACT, { tabSize: 2, insertSpaces: true }),
      `// count the hits
{
  "steps": [
    {
      "op": "tool",
      "name": "count_items",
      "args": [
        1,
        2
      ],
      "bind": "n"
    },
    {
      "op": "final",
      "value": {
        "ref": "var",
        "name": "n"
      }
    }
  ]
}
`,
    );
  });

  it("indents with tabs when the editor asks for them", async () => {
    const text = '{"steps": [{"op": "final", "value": 1}]}';
    assert.equal(
      await format(text, { tabSize: 4, insertSpaces: false }),
      '{\n\t"steps": [\n\t\t{\n\t\t\t"op": "final",\n\t\t\t"value": 1\n\t\t}\n\t]\n}',
    );
  });

  it("adds a final newline when the editor's setting asks", async () => {
    const text = '{"steps": []}';
    assert.equal(
      await format(text, { tabSize: 2, insertSpaces: true, insertFinalNewline: true }),
      '{\n  "steps": []\n}\n',
    );
  });

  it("formats only the range asked for", async () => {
    const text = `{
  "steps": [
    {"op":"tool",   "name":"count_items","args":[1,2],"bind":"n"},
    {"op":    "final", "value": {"ref": "var", "name": "n"}}
  ]
}
`;
    const line = nthRange(text, `{"op":"tool",   "name":"count_items","args":[1,2],"bind":"n"}`, 0);
    assert.equal(
      await format(text, { tabSize: 2, insertSpaces: true }, line),
      `{
  "steps": [
    {
      "op": "tool",
      "name": "count_items",
      "args": [
        1,
        2
      ],
      "bind": "n"
    },
    {"op":    "final", "value": {"ref": "var", "name": "n"}}
  ]
}
`,
    );
  });

  it("an already formatted document needs no edits", async () => {
    const text = '{\n  "steps": [\n    {\n      "op": "final",\n      "value": 1\n    }\n  ]\n}\n';
    const uri = await client.open(workspace.path("formatted.rlmplan.json"), text);
    const edits = await client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    await client.close(uri);
    assert.deepEqual(edits, []);
  });
});
