// Diagnostics of the plan itself, in process: each problem on its exact token, with its stable
// code, severity, message and related places. How they follow edits and closes, and which
// documents are plans, is the wiring's: test/protocol/diagnostics.sync.test.ts.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver-protocol";
import { rangeOf } from "../protocol/support/lspClient";
import { analyzed, onTheWire } from "./support/analyzed";

/** The parts of a diagnostic a user sees, for exact comparison. */
function seen(diagnostic: Diagnostic): Record<string, unknown> {
  return {
    range: diagnostic.range,
    severity: diagnostic.severity,
    code: diagnostic.code,
    source: diagnostic.source,
    message: diagnostic.message,
    ...(diagnostic.relatedInformation
      ? { related: diagnostic.relatedInformation.map((r) => ({ range: r.location.range, message: r.message })) }
      : {}),
  };
}

describe("diagnostics: problems of the plan", () => {
  // A host that grants everything the fixtures use, so only plan problems show.
  const host = {
    capabilities: ["tool(count_items)", "context(map)", "context(search)", "rlm", "checkpoint"],
    tools: { count_items: { type: "builtin", builtin: "count_items" } },
    inputs: { doc: { type: "text", text: "a\nb" } },
  };
  const diagnosticsOf = (text: string) =>
    onTheWire(planDiagnostics(analyzed(text, { host }).plan, { hostProblemsAsErrors: false }));

  it("puts every structure, scope and allow-list problem on its token, with related places", () => {
    const text = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": {"ref": "var", "name": "missing"}, "bind": "n" },
    { "op": "contxt", "bind": "x" },
    { "op": "tool", "name": "count_items", "args": [], "bind": "n" },
    { "op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "map", "transform": "upper"}, "bind": "m" },
    { "op": "final", "value": {"ref": "var", "name": "n"} }
  ]
}`;
    const diagnostics = diagnosticsOf(text);
    assert.deepEqual(diagnostics.map(seen), [
      {
        range: rangeOf(text, '"missing"'),
        severity: DiagnosticSeverity.Error,
        code: "unbound_variable",
        source: "rlm-plan",
        message: 'variable "missing" is not bound here: bind it in an earlier step of this plan or an enclosing one',
      },
      {
        range: rangeOf(text, '"contxt"'),
        severity: DiagnosticSeverity.Error,
        code: "unknown_operator",
        source: "rlm-plan",
        message: 'unknown operation "contxt": use context, model, rlm, tool, parallel, retry, checkpoint or final',
      },
      {
        range: rangeOf(text, '"n"', '"args": []'),
        severity: DiagnosticSeverity.Error,
        code: "duplicate_binding",
        source: "rlm-plan",
        message: '"n" is already bound in this scope: choose another name',
        related: [{ range: rangeOf(text, '"n"'), message: '"n" is first bound here' }],
      },
      {
        range: rangeOf(text, '"upper"'),
        severity: DiagnosticSeverity.Error,
        code: "invalid_map_transform",
        source: "rlm-plan",
        message: 'unknown map transform "upper": use identity, lowercase, uppercase, length',
      },
    ]);
  });

  it("reports a plan that does not end with a final step on the last step's op", () => {
    const text = `{"steps": [
  {"op": "rlm", "plan": {"steps": [{"op": "checkpoint", "label": "inner"}]}, "bind": "r"},
  {"op": "final", "value": {"ref": "var", "name": "r"}}
]}`;
    const diagnostics = diagnosticsOf(text);
    assert.deepEqual(diagnostics.map(seen), [
      {
        range: rangeOf(text, '"checkpoint"'),
        severity: DiagnosticSeverity.Error,
        code: "final_must_be_unique_and_last",
        source: "rlm-plan",
        message: 'this plan does not end with a final step: add {"op": "final", "value": ...} after this step',
      },
    ]);
  });

  it("warns about a key the runtime ignores, and reports a malformed final step alone", () => {
    const text = `{"steps": [
  {"op": "checkpoint", "label": "start", "extra": 1},
  {"op": "final"}
]}`;
    const diagnostics = diagnosticsOf(text);
    assert.deepEqual(diagnostics.map(seen), [
      {
        range: rangeOf(text, '"extra"'),
        severity: DiagnosticSeverity.Warning,
        code: "unknown_key",
        source: "rlm-plan",
        message: 'a checkpoint step has no key "extra", so the runtime ignores it: its keys are "op", "label"',
      },
      {
        range: rangeOf(text, '{"op": "final"}'),
        severity: DiagnosticSeverity.Error,
        code: "missing_field",
        source: "rlm-plan",
        message: 'missing field "value": this step needs "value"',
      },
    ]);
  });

  it("keeps checking after a JSON syntax error and points a duplicate key at the first one", () => {
    const text = `{"steps": [
  {"op": "checkpoint", "label": "a", "label": "b"}
  {"op": "final", "value": 1}
]}`;
    const diagnostics = diagnosticsOf(text);
    assert.deepEqual(diagnostics.map(seen), [
      {
        range: rangeOf(text, '"label"', '"a"'),
        severity: DiagnosticSeverity.Error,
        code: "invalid_json",
        source: "rlm-plan",
        message: 'duplicate key "label": a JSON object may name a key only once',
        related: [{ range: rangeOf(text, '"label"'), message: "first occurrence of this key" }],
      },
      {
        range: rangeOf(text, "{", '"b"}'),
        severity: DiagnosticSeverity.Error,
        code: "invalid_json",
        source: "rlm-plan",
        message: "invalid JSON: comma expected",
      },
    ]);
  });
});
