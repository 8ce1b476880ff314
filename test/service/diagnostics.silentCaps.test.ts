// Silent caps in the editor: a count of a search result gets an Information diagnostic on the
// counting tool's name, naming the host's max_results and where it is set, with the search as
// a related place; counting an input directly gets none. In process.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { DiagnosticSeverity } from "vscode-languageserver-protocol";
import { rangeOf } from "../protocol/support/lspClient";
import { analyzed, onTheWire } from "./support/analyzed";

describe("diagnostics: silent caps", () => {
  const host = {
    capabilities: ["context(search)", "context(reduce)", "tool(count_items)"],
    context: { max_results: 7 },
    inputs: { doc: { type: "text", text: "a\nb" } },
    tools: { count_items: { type: "builtin", builtin: "count_items" } },
  };
  const diagnosticsOf = (text: string) =>
    onTheWire(planDiagnostics(analyzed(text, { host }).plan, { hostProblemsAsErrors: false }));

  it("a hint on the count of a search, the search related", () => {
    const text = `{"steps": [
  {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "a"}, "bind": "hits"},
  {"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "n"},
  {"op": "final", "value": {"ref": "var", "name": "n"}}
]}`;
    const diagnostics = diagnosticsOf(text);
    assert.deepEqual(
      diagnostics.map((d) => ({
        range: d.range,
        severity: d.severity,
        code: d.code,
        message: d.message,
        related: d.relatedInformation?.map((r) => ({ range: r.location.range, message: r.message })),
      })),
      [
        {
          range: rangeOf(text, '"count_items"'),
          severity: DiagnosticSeverity.Information,
          code: "silent_cap",
          message:
            'count_items counts at most 7 items here: "hits" is a context search result, and a search stops at 7 hits without saying so (context.max_results in rlmplan.host.json)',
          related: [{ range: rangeOf(text, '"search"'), message: "this search returns at most 7 hits" }],
        },
      ],
    );
  });

  it("nothing when the input's lines are counted directly", () => {
    const text = `{"steps": [
  {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "reduce", "reducer": "count"}, "bind": "lines"},
  {"op": "final", "value": {"ref": "var", "name": "lines"}}
]}`;
    const diagnostics = diagnosticsOf(text);
    assert.deepEqual(diagnostics, []);
  });
});
