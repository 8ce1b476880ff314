// Document symbols, in process: the steps as a nested outline, named "op → bind", with the
// tool, provider, action or label as detail, a kind per operation, sub-plan steps as children
// (each parallel branch a node of its own), and steps with problems still listed.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { documentSymbols } from "@rlm-plan/language-server/service/symbols";
import { SymbolKind, type DocumentSymbol, type Range } from "vscode-languageserver-protocol/node";
import { positionAt } from "../protocol/support/lspClient";
import { analyzed, onTheWire } from "./support/analyzed";

const CONTEXT = `{"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "x"}, "bind": "hits"}`;
const CHECKPOINT = `{"op": "checkpoint", "label": "try"}`;
const TOOL = `{"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "n"}`;
const RETRY_FINAL = `{"op": "final", "value": {"ref": "var", "name": "n"}}`;
const MODEL = `{"op": "model", "provider": "local", "prompt": "hello", "bind": "a"}`;
const MODEL_FINAL = `{"op": "final", "value": {"ref": "var", "name": "a"}}`;
const INNER_FINAL = `{"op": "final", "value": 1}`;
const RLM = `{"op": "rlm", "plan": {"steps": [${INNER_FINAL}]}, "bind": "one"}`;
const RLM_FINAL = `{"op": "final", "value": {"ref": "var", "name": "one"}}`;
const BRANCH_1 = `{"steps": [${MODEL}, ${MODEL_FINAL}]}`;
const BRANCH_2 = `{"steps": [${RLM}, ${RLM_FINAL}]}`;
const BROKEN = `{"op": "contxt", "bind": "broken"}`;
const LAST = `{"op": "final", "value": {"ref": "var", "name": "count"}}`;
const RETRY = `{"op": "retry", "attempts": 3, "plan": {"steps": [
      ${CHECKPOINT},
      ${TOOL},
      ${RETRY_FINAL}
    ]}, "bind": "count"}`;
const PARALLEL = `{"op": "parallel", "plans": [
      ${BRANCH_1},
      ${BRANCH_2}
    ], "bind": "both"}`;

const PLAN = `// An outline fixture
{
  "steps": [
    ${CONTEXT},
    ${RETRY},
    ${PARALLEL},
    ${BROKEN},
    ${LAST}
  ]
}
`;

/** The range of `snippet` (which occurs once) in PLAN. */
function range(snippet: string, within = 0): Range {
  const offset = PLAN.indexOf(snippet, within);
  assert.ok(offset >= 0, snippet);
  return { start: positionAt(PLAN, offset), end: positionAt(PLAN, offset + snippet.length) };
}

/** A step symbol: its range is the step, its selection the bind value (else the op value). */
function step(
  snippet: string,
  name: string,
  kind: SymbolKind,
  selection: string,
  detail?: string,
  children?: DocumentSymbol[],
): DocumentSymbol {
  const start = PLAN.indexOf(snippet);
  return {
    name,
    kind,
    range: range(snippet),
    selectionRange: range(selection, start),
    ...(detail !== undefined ? { detail } : {}),
    ...(children ? { children } : {}),
  };
}

function branch(snippet: string, name: string, children: DocumentSymbol[]): DocumentSymbol {
  const whole = range(snippet);
  return {
    name,
    kind: SymbolKind.Array,
    range: whole,
    selectionRange: { start: whole.start, end: { ...whole.start, character: whole.start.character + 1 } },
    children,
  };
}

describe("symbols: the plan's outline", () => {
  const symbolsOf = (text: string) => onTheWire(documentSymbols(analyzed(text).plan));

  it("nests sub-plan steps under their step, one node per parallel branch", () => {
    assert.deepEqual(symbolsOf(PLAN), [
      step(CONTEXT, "context → hits", SymbolKind.Field, '"hits"', "search"),
      step(RETRY, "retry → count", SymbolKind.Namespace, '"count"', "3 attempts", [
        step(CHECKPOINT, "checkpoint", SymbolKind.Event, '"checkpoint"', "try"),
        step(TOOL, "tool → n", SymbolKind.Method, '"n"', "count_items"),
        step(RETRY_FINAL, "final", SymbolKind.Constant, '"final"'),
      ]),
      step(PARALLEL, "parallel → both", SymbolKind.Struct, '"both"', "2 branches", [
        branch(BRANCH_1, "branch 1", [
          step(MODEL, "model → a", SymbolKind.Function, '"a"', "local"),
          step(MODEL_FINAL, "final", SymbolKind.Constant, '"final"'),
        ]),
        branch(BRANCH_2, "branch 2", [
          step(RLM, "rlm → one", SymbolKind.Module, '"one"', undefined, [
            step(INNER_FINAL, "final", SymbolKind.Constant, '"final"'),
          ]),
          step(RLM_FINAL, "final", SymbolKind.Constant, '"final"'),
        ]),
      ]),
      step(BROKEN, "contxt → broken", SymbolKind.Object, '"broken"'),
      step(LAST, "final", SymbolKind.Constant, '"final"'),
    ]);
  });

  it("no symbols for text that is not a plan object", () => {
    assert.deepEqual(symbolsOf("[1, 2"), []);
  });
});
