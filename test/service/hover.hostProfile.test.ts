// Host profiles in any LSP editor: hover on every key (its meaning and default, from the published
// schema) and completion of keys and values, in process.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hostProfileCompletions, hostProfileHover } from "@rlm-plan/language-server/service/hostProfileLanguage";
import type { CompletionItem, Position } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { fixture } from "../protocol/support/lspClient";
import { hoverValue } from "./support/analyzed";

describe("host profile: hover and completion from the schema", () => {
  function at<T>(marked: string, ask: (document: TextDocument, position: Position) => T): T {
    const { text, position } = fixture(marked);
    return ask(TextDocument.create("file:///w/rlmplan.host.json", "jsonc", 1, text), position);
  }

  const hoverText = async (marked: string) => hoverValue(await at(marked, hostProfileHover)) ?? null;
  const complete = (marked: string) =>
    at(marked, (document, position) => hostProfileCompletions(document, position, []));
  const labels = (items: CompletionItem[]) => items.map((item) => item.label).sort();

  it("a budget field's hover says what it counts and its default", async () => {
    const text = await hoverText('{ "budget": { "max_tool_ca|lls": 4 } }');
    assert.match(text ?? "", /^Trusted tool calls/);
    assert.match(text ?? "", /default 16/);
  });

  it("the top-level keys are completed, minus those present", async () => {
    const items = await complete('{ "capabilities": [], | }');
    const got = labels(items);
    for (const key of ["budget", "context", "inputs", "providers", "tools"]) assert.ok(got.includes(key), key);
    assert.ok(!got.includes("capabilities"));
  });

  it("budget fields inside the budget object", async () => {
    const items = await complete('{ "budget": { | } }');
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
    const items = await complete('{ "tools": { "n": { "type": "builtin", "builtin": | } } }');
    assert.ok(labels(items).includes('"count_items"'), JSON.stringify(labels(items)));
  });

  it("a profile nested 5,000 deep (a paste, a half-typed edit) gets no hover and no keys, and nothing throws", async () => {
    // The JSON service's parser recurses per level: past the core's depth limit it is not asked.
    const deep = `{ "budget": ${"[".repeat(5000)}|${"]".repeat(5000)} }`;
    assert.equal(await hoverText(deep), null);
    assert.deepEqual(await complete(deep), []);
    // Within the limit it still answers.
    assert.match(
      (await hoverText(`{ "budget": { "max_tool_ca|lls": ${"[".repeat(50)}${"]".repeat(50)} } }`)) ?? "",
      /^Trusted tool calls/,
    );
  });
});
