// Completion inside context actions and references, in process: action types (and whole
// actions as snippets), selectors, strategies, transforms, reducers and reference kinds; and
// property names of steps, actions, selectors, strategies, references and plans (none in an
// object literal, whose keys are data).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { completion } from "@rlm-plan/language-server/service/completion";
import type { CompletionItem } from "vscode-languageserver-protocol";
import { analyzedAt, itemsOf } from "./support/analyzed";

describe("completion: actions and references", () => {
  function complete(marked: string): CompletionItem[] {
    const { plan, position } = analyzedAt(marked);
    return itemsOf(completion(plan, position));
  }

  const labelsAt = (marked: string) => complete(marked).map((item) => item.label);
  const newTexts = (marked: string) =>
    complete(marked).map((item) => (item.textEdit && "range" in item.textEdit ? item.textEdit.newText : undefined));

  const step = (action: string) =>
    `{"steps": [{"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": ${action}, "bind": "x"}]}`;

  it("action types at an action's type", () => {
    assert.deepEqual(labelsAt(step('{"type": |}')), ["search", "slice", "peek", "partition", "map", "reduce"]);
    assert.deepEqual(labelsAt(step('{"type": "pa|"}')), ["search", "slice", "peek", "partition", "map", "reduce"]);
  });

  it("whole actions as snippets at a context step's action", () => {
    assert.deepEqual(newTexts(step("|")), [
      '{"type": "search", "pattern": "${1}"}',
      '{"type": "slice", "start": ${1:0}, "length": ${2:1000}}',
      '{"type": "peek", "selector": ${1:"metadata"}}',
      '{"type": "partition", "strategy": {"type": "${1|fixed,lines|}", "size": ${2:1000}}}',
      '{"type": "map", "transform": "${1|identity,lowercase,uppercase,length|}"}',
      '{"type": "reduce", "reducer": "${1|count,byte_count|}"}',
    ]);
  });

  it("selectors of a peek, and a selector's types", () => {
    assert.deepEqual(newTexts(step('{"type": "peek", "selector": |}')), [
      '"metadata"',
      '{"type": "head", "count": ${1:10}}',
      '{"type": "tail", "count": ${1:10}}',
      '{"type": "item", "index": ${1:0}}',
    ]);
    assert.deepEqual(labelsAt(step('{"type": "peek", "selector": {"type": "|", "count": 2}}')), [
      "head",
      "tail",
      "item",
    ]);
  });

  it("partition strategies, as objects and as types", () => {
    assert.deepEqual(newTexts(step('{"type": "partition", "strategy": |}')), [
      '{"type": "fixed", "size": ${1:1000}}',
      '{"type": "lines", "size": ${1:1000}}',
    ]);
    assert.deepEqual(labelsAt(step('{"type": "partition", "strategy": {"type": |}}')), ["fixed", "lines"]);
  });

  it("map transforms and reducers", () => {
    assert.deepEqual(labelsAt(step('{"type": "map", "transform": "|"}')), [
      "identity",
      "lowercase",
      "uppercase",
      "length",
    ]);
    assert.deepEqual(labelsAt(step('{"type": "reduce", "reducer": |}')), ["count", "byte_count"]);
  });

  it("reference kinds at a ref key's value, anywhere an expression is", () => {
    assert.deepEqual(labelsAt('{"steps": [{"op": "final", "value": {"ref": |}}]}'), ["input", "var", "field"]);
    assert.deepEqual(labelsAt('{"steps": [{"op": "final", "value": [1, {"ref": "v|"}]}]}'), ["input", "var", "field"]);
    assert.deepEqual(labelsAt('{"steps": [{"op": "tool", "args": {"x": {"ref": "field", "value": {"ref": |}}}}]}'), [
      "input",
      "var",
      "field",
    ]);
  });

  it("reference shapes at an expression field", () => {
    assert.deepEqual(newTexts('{"steps": [{"op": "model", "provider": "p", "prompt": |}]}'), [
      '{"ref": "input", "name": "${1}"}',
      '{"ref": "var", "name": "${1}"}',
      '{"ref": "field", "value": ${1}, "key": "${2}"}',
    ]);
  });

  // ---- property names: the keys a form has and the object lacks, with their values ----

  const keyEdits = (marked: string) =>
    complete(marked).map((item) => [
      item.label,
      item.textEdit && "range" in item.textEdit ? item.textEdit.newText : undefined,
    ]);
  const FINAL = '{"op": "final", "value": 1}';

  it("a model step's missing keys: required first, then optional, with their values", () => {
    assert.deepEqual(keyEdits(`{"steps": [{"op": "model", "provider": "p", |}, ${FINAL}]}`), [
      ["prompt", '"prompt": ${1}'],
      ["bind", '"bind": "${1}"'],
      ["options", '"options": ${1}'],
    ]);
  });

  it("a step without an operation: the operation first, as a choice", () => {
    assert.deepEqual(keyEdits(`{"steps": [{|}, ${FINAL}]}`), [
      ["op", '"op": "${1|context,model,rlm,tool,parallel,retry,checkpoint,final|}"'],
    ]);
  });

  it("the key being typed is replaced, and an existing key's value is kept", () => {
    const items = complete(`{"steps": [{"op": "checkpoint", "lab|"}, ${FINAL}]}`);
    assert.deepEqual(
      items.map((item) => item.label),
      ["label"],
    );
    const renamed = keyEdits(`{"steps": [{"op": "tool", "nmae|": "count", "args": 1, "bind": "n"}, ${FINAL}]}`);
    assert.deepEqual(renamed, [["name", '"name"']]);
  });

  it("actions, selectors, strategies, references and plans", () => {
    const step = (action: string) =>
      `{"steps": [{"op": "context", "handle": {"ref": "input", "name": "d"}, "action": ${action}, "bind": "x"}, ${FINAL}]}`;
    assert.deepEqual(keyEdits(step('{"type": "slice", |}')), [
      ["start", '"start": ${1:0}'],
      ["length", '"length": ${1:1000}'],
    ]);
    assert.deepEqual(keyEdits(step('{"type": "peek", "selector": {"type": "item", |}}')), [
      ["index", '"index": ${1:0}'],
    ]);
    assert.deepEqual(keyEdits(step('{"type": "partition", "strategy": {|}}')), [
      ["type", '"type": "${1|fixed,lines|}"'],
      ["size", '"size": ${1:1000}'],
    ]);
    assert.deepEqual(keyEdits(`{"steps": [{"op": "final", "value": {"ref": "field", |}}]}`), [
      ["value", '"value": ${1}'],
      ["key", '"key": "${1}"'],
    ]);
    assert.deepEqual(keyEdits(`{"steps": [${FINAL}], |}`), [
      ["description", '"description": "${1}"'],
      ["$schema", '"$schema": "${1}"'],
    ]);
  });

  it("no key completion in an object literal", () => {
    assert.deepEqual(keyEdits(`{"steps": [{"op": "final", "value": {"a": 1, |}}]}`), []);
  });
});
