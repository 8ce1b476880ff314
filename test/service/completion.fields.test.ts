// Completion of a field reference's key: the fields the type of its value is known to have
// (a model reply's, a search match's), each with its type; nothing where the type is unknown.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { completion } from "@rlm-plan/language-server/service/completion";
import type { CompletionItem } from "vscode-languageserver-protocol";
import { HOST } from "../support/sampleWorkspace";
import { analyzedAt, itemsOf } from "./support/analyzed";

function complete(marked: string): [string, string | undefined][] {
  const { plan, position } = analyzedAt(marked, { host: HOST });
  return itemsOf(completion(plan, position)).map((item: CompletionItem) => [item.label, item.detail]);
}

const ASK = '{"op": "model", "provider": "local", "prompt": "p", "bind": "r"}';

describe("completion: the fields of a field reference's value", () => {
  it("a model reply's fields, with their types", () => {
    assert.deepEqual(
      complete(
        `{"steps": [${ASK}, {"op": "final", "value": {"ref": "field", "value": {"ref": "var", "name": "r"}, "key": "|"}}]}`,
      ),
      [
        ["text", "string"],
        ["model", "string"],
        ["usage", "{prompt_tokens: integer | null, completion_tokens: integer | null, total_tokens: integer | null}"],
        ["finish_reason", "string | null"],
      ],
    );
  });

  it("while the key is being typed (the text is not valid JSON yet), through a nested field", () => {
    assert.deepEqual(
      complete(
        `{"steps": [${ASK}, {"op": "final", "value": {"ref": "field", "value": {"ref": "field", "value": {"ref": "var", "name": "r"}, "key": "usage"}, "key": "to|`,
      ),
      [
        ["prompt_tokens", "integer | null"],
        ["completion_tokens", "integer | null"],
        ["total_tokens", "integer | null"],
      ],
    );
  });

  it("nothing for a value of unknown type, or for a list", () => {
    const tool = '{"op": "tool", "name": "fetch", "args": {}, "bind": "r"}';
    assert.deepEqual(
      complete(
        `{"steps": [${tool}, {"op": "final", "value": {"ref": "field", "value": {"ref": "var", "name": "r"}, "key": "|"}}]}`,
      ),
      [],
    );
    const search =
      '{"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "a"}, "bind": "r"}';
    assert.deepEqual(
      complete(
        `{"steps": [${search}, {"op": "final", "value": {"ref": "field", "value": {"ref": "var", "name": "r"}, "key": "|"}}]}`,
      ),
      [],
    );
  });
});
