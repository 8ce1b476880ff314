// Host profiles in any LSP editor: hover on every key (its meaning and default, from the published
// schema) and completion of keys and values, over the protocol.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { CompletionItem, MarkupContent } from "vscode-languageserver-protocol/node";
import { fixture, LspClient, TempWorkspace } from "../protocol/support/lspClient";

describe("host profile: hover and completion from the schema", () => {
  const workspace = new TempWorkspace({});
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function at<T>(
    marked: string,
    ask: (uri: string, position: { line: number; character: number }) => Promise<T>,
  ) {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path("rlmplan.host.json"), text, "jsonc");
    try {
      return await ask(uri, position);
    } finally {
      await client.close(uri);
    }
  }

  const hoverText = async (marked: string) =>
    at(marked, async (uri, position) => {
      const hover = await client.hover(uri, position);
      return hover ? (hover.contents as MarkupContent).value : null;
    });
  const labels = (items: CompletionItem[]) => items.map((item) => item.label).sort();

  it("a budget field's hover says what it counts and its default", async () => {
    const text = await hoverText('{ "budget": { "max_tool_ca|lls": 4 } }');
    assert.match(text ?? "", /^Trusted tool calls/);
    assert.match(text ?? "", /default 16/);
  });

  it("the top-level keys are completed, minus those present", async () => {
    const items = await at('{ "capabilities": [], | }', (uri, position) => client.completion(uri, position));
    const got = labels(items);
    for (const key of ["budget", "context", "inputs", "providers", "tools"]) assert.ok(got.includes(key), key);
    assert.ok(!got.includes("capabilities"));
  });

  it("budget fields inside the budget object", async () => {
    const items = await at('{ "budget": { | } }', (uri, position) => client.completion(uri, position));
    assert.deepEqual(labels(items), [
      "max_context_ops",
      "max_depth",
      "max_model_calls",
      "max_output_bytes",
      "max_parallel",
      "max_steps",
      "max_tool_calls",
      "time_limit",
    ]);
  });

  it("built-in tool names as the value of a builtin tool's `builtin`", async () => {
    const items = await at('{ "tools": { "n": { "type": "builtin", "builtin": | } } }', (uri, position) =>
      client.completion(uri, position),
    );
    assert.ok(labels(items).includes('"count_items"'), JSON.stringify(labels(items)));
  });
});
