// Semantic tokens, in process: the legend, the exact tokens of a small plan (decoded from the
// relative encoding lsp/semanticTokensCache.ts answers with), a range, a delta after an edit.
// (A tool that is a built-in under one host profile and not under another is semantic-tokens/'s
// tool-builtin and tool-command goldens.) The refresh a host
// profile change sends is checked over the protocol (test/protocol/semanticTokens.refresh.test.ts).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SemanticTokensCache } from "@rlm-plan/language-server/lsp/semanticTokensCache";
import { SEMANTIC_TOKENS_LEGEND } from "@rlm-plan/language-server/service/semanticTokens";
import type { SemanticTokensLegend } from "vscode-languageserver-protocol";
import { decode, type Row } from "../support/semanticTokenRows";
import { hostProfile } from "../protocol/support/lspClient";
import { analyzed } from "./support/analyzed";

const HOST = hostProfile({
  capabilities: ["context(search)", "tool(count)", "tool(shout)", "model(local)", "rlm"],
  inputs: { doc: { type: "text", text: "x\ny" } },
  tools: { count: { type: "builtin", builtin: "count_items" }, shout: { type: "command", command: ["cat"] } },
  providers: { local: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "tiny" } },
});

const PLAN = `{"steps": [
  {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "x"}, "bind": "hits"},
  {"op": "tool", "name": "count", "args": {"ref": "var", "name": "hits"}, "bind": "n"},
  {"op": "rlm", "plan": {"steps": [
    {"op": "tool", "name": "shout", "args": {"ref": "field", "value": {"ref": "var", "name": "n"}, "key": "k"}, "bind": "s"},
    {"op": "final", "value": {"ref": "var", "name": "s"}}
  ]}, "bind": "sub"},
  {"op": "model", "provider": "local", "prompt": {"ref": "var", "name": "nope"}, "bind": "m"},
  {"op": "final", "value": {"ref": "var", "name": "sub"}}
]}
`;

const EXPECTED: Row[] = [
  [1, 9, '"context"', "keyword"],
  [1, 55, '"doc"', "parameter"],
  [1, 82, '"search"', "method"],
  [1, 117, '"hits"', "variable", "declaration", "readonly"],
  [2, 9, '"tool"', "keyword"],
  [2, 25, '"count"', "function", "defaultLibrary"],
  [2, 65, '"hits"', "variable", "readonly"],
  [2, 82, '"n"', "variable", "declaration", "readonly"],
  [3, 9, '"rlm"', "keyword"],
  [4, 11, '"tool"', "keyword"],
  [4, 27, '"shout"', "function"],
  [4, 93, '"n"', "variable", "readonly"],
  [4, 106, '"k"', "property"],
  [4, 120, '"s"', "variable", "declaration", "readonly"],
  [5, 11, '"final"', "keyword"],
  [5, 52, '"s"', "variable", "readonly"],
  [6, 14, '"sub"', "variable", "declaration", "readonly"],
  [7, 9, '"model"', "keyword"],
  [7, 30, '"local"', "namespace"],
  [7, 72, '"nope"', "variable"],
  [7, 89, '"m"', "variable", "declaration", "readonly"],
  [8, 9, '"final"', "keyword"],
  [8, 50, '"sub"', "variable", "readonly"],
];

describe("semantic tokens", () => {
  const legend: SemanticTokensLegend = SEMANTIC_TOKENS_LEGEND;
  const options = { host: HOST, name: "tokens.rlmplan.json" };

  it("announces a legend of standard types and modifiers", () => {
    assert.deepEqual(legend, {
      tokenTypes: ["keyword", "variable", "parameter", "function", "namespace", "method", "property"],
      tokenModifiers: ["declaration", "readonly", "defaultLibrary"],
    });
  });

  it("colours every name the model knows, in document order", () => {
    const tokens = new SemanticTokensCache().full(analyzed(PLAN, options).plan);
    assert.deepEqual(decode(tokens.data, legend, PLAN), EXPECTED);
  });

  it("answers a range with the tokens on its lines only", () => {
    const tokens = new SemanticTokensCache().range(analyzed(PLAN, options).plan, {
      start: { line: 4, character: 0 },
      end: { line: 6, character: 0 },
    });
    assert.deepEqual(
      decode(tokens.data, legend, PLAN),
      EXPECTED.filter(([line]) => line === 4 || line === 5),
    );
  });

  it("answers a delta against the previous result after an edit", () => {
    const cache = new SemanticTokensCache();
    const first = cache.full(analyzed(PLAN, options).plan);
    assert.ok(first.resultId);
    // The last reference now names nothing in scope: it loses its "readonly" modifier only.
    const edited = PLAN.replace('"name": "sub"}}', '"name": "subb"}}');
    const delta = cache.delta(analyzed(edited, options).plan, first.resultId);
    assert.ok("edits" in delta, "a delta, not a full answer");
    const data = [...first.data];
    for (const edit of [...delta.edits].sort((a, b) => b.start - a.start))
      data.splice(edit.start, edit.deleteCount, ...(edit.data ?? []));
    const rows = decode(data, legend, edited);
    assert.deepEqual(rows.at(-1), [8, 50, '"subb"', "variable"]);
    assert.deepEqual(rows.slice(0, -1), EXPECTED.slice(0, -1));
  });

  it("answers a full result for a previous result it does not know", () => {
    const cache = new SemanticTokensCache();
    const answer = cache.delta(analyzed(PLAN, options).plan, "42");
    assert.ok(!("edits" in answer), "a full answer");
    assert.deepEqual(decode(answer.data, legend, PLAN), EXPECTED);
  });
});
