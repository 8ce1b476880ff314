// Completion from the host profile, in process: input, tool and provider names in plans;
// capability strings in the host profile itself (fixed ones, what it registers, what open plans use).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { capabilitiesUsedBy, completion } from "@rlm-plan/language-server/service/completion";
import { hostProfileCompletions } from "@rlm-plan/language-server/service/hostProfileLanguage";
import type { CompletionItem } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { fixture, hostProfile } from "../protocol/support/lspClient";
import { HOST } from "../support/sampleWorkspace";
import { analyzed, analyzedAt, itemsOf, onTheWire } from "./support/analyzed";

describe("completion: names from the host profile", () => {
  function complete(marked: string): CompletionItem[] {
    const { plan, position } = analyzedAt(marked, { host: HOST });
    return itemsOf(completion(plan, position));
  }

  const brief = (items: CompletionItem[]) => items.map((item) => [item.label, item.detail]);

  it("input names at an input reference", () => {
    assert.deepEqual(brief(complete('{"steps": [{"op": "final", "value": {"ref": "input", "name": |}}]}')), [
      ["doc", "context: inline text (5 characters)"],
      ["limit", "value: a number"],
    ]);
  });

  it("tool names at a tool step's name, provider names at a model step's provider", () => {
    const tools = complete('{"steps": [{"op": "tool", "name": "c|", "args": [], "bind": "x"}]}');
    // HOST grants tool(count_items) and not tool(fetch): fetch is offered, says so, and sorts after.
    assert.deepEqual(brief(tools), [
      ["count_items", "built-in tool count_items"],
      [
        "fetch",
        'command python3 (run without a shell, JSON on stdin and stdout); not granted by rlmplan.host.json: add tool(fetch) to "capabilities"',
      ],
    ]);
    assert.deepEqual(
      tools.map((item) => [item.sortText, item.labelDetails?.description]),
      [
        ["0 count_items", undefined],
        ["1 fetch", "not granted"],
      ],
    );
    assert.equal(tools[0]?.documentation, "Counts the items of a list");
    assert.deepEqual(brief(complete('{"steps": [{"op": "model", "provider": |, "prompt": "p", "bind": "x"}]}')), [
      ["local", "OpenAI-compatible chat endpoint http://127.0.0.1:8080, model tiny"],
    ]);
  });

  it("a tool or provider granted by a quoted or spaced capability term is not marked", () => {
    const host = { ...HOST, capabilities: ["tool('fetch')", "model( local )"] };
    const at = (marked: string) => {
      const { plan, position } = analyzedAt(marked, { host });
      return itemsOf(completion(plan, position));
    };
    const tools = at('{"steps": [{"op": "tool", "name": |, "args": [], "bind": "x"}]}');
    assert.deepEqual(
      tools.map((item) => [item.label, item.labelDetails?.description]),
      [
        ["count_items", "not granted"],
        ["fetch", undefined],
      ],
    );
    const providers = at('{"steps": [{"op": "model", "provider": |, "prompt": "p", "bind": "x"}]}');
    assert.deepEqual(
      providers.map((item) => [item.label, item.sortText, item.labelDetails]),
      [["local", "0 local", undefined]],
    );
  });

  it("input references among the expressions a step field offers", () => {
    const items = complete('{"steps": [{"op": "tool", "name": "fetch", "args": |, "bind": "x"}]}');
    assert.deepEqual(
      items.map((item) => [item.label, item.textEdit && "range" in item.textEdit ? item.textEdit.newText : undefined]),
      [
        ["input reference", '{"ref": "input", "name": "${1}"}'],
        ["var reference", '{"ref": "var", "name": "${1}"}'],
        ["field reference", '{"ref": "field", "value": ${1}, "key": "${2}"}'],
        ["doc", '{"ref": "input", "name": "doc"}'],
        ["limit", '{"ref": "input", "name": "limit"}'],
      ],
    );
  });

  it("capability strings in the host profile: fixed, registered and used by open plans, minus those listed", async () => {
    const uses = analyzed(
      '{"steps": [{"op": "tool", "name": "word count", "args": [], "bind": "w"}, {"op": "model", "provider": "big", "prompt": "p", "bind": "m"}, {"op": "final", "value": 1}]}',
      { host: HOST, name: "plans/uses.rlmplan.json" },
    );
    const profile = {
      ...HOST,
      capabilities: ["tool(count_items)", "context(search)", "retry", "checkpoint", "model(local)"],
    };
    const text = hostProfile(profile).replace('"model(local)"', '"model(local)",\n    |');
    const marked = fixture(text);
    const document = TextDocument.create("file:///w/rlmplan.host.json", "json", 1, marked.text);
    const items = onTheWire(await hostProfileCompletions(document, marked.position, capabilitiesUsedBy(uses.plan)));
    assert.deepEqual(brief(items), [
      ["context(slice)", undefined],
      ["context(peek)", undefined],
      ["context(partition)", undefined],
      ["context(map)", undefined],
      ["context(reduce)", undefined],
      ["rlm", undefined],
      ["parallel", undefined],
      ["model(big)", "used by an open plan"],
      ["tool('word count')", "used by an open plan"],
      ["tool(fetch)", undefined],
    ]);
  });

  it("nothing from a host that is not there", () => {
    const { plan, position } = analyzedAt('{"steps": [{"op": "tool", "name": |}]}');
    assert.deepEqual(itemsOf(completion(plan, position)), []);
  });
});
