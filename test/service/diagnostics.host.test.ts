// Host-dependent diagnostics, in process: no host (one information diagnostic), capability,
// registry and budget problems as warnings (or errors, by setting), and a host profile with
// errors (its own diagnostics; the plans say they are not checked). Plans checked again as the
// profile changes: test/protocol/diagnostics.hostSync.test.ts.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hostProfileDiagnostics, planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { hostProfile, rangeOf } from "../protocol/support/lspClient";
import { collapsed, HOST, messageOf, PLAN } from "../support/hostDiagnosticsPlan";
import { analyzed, HOST_FILE, HOST_URI, hostProfileResult, onTheWire, type PlanOptions } from "./support/analyzed";

function brief(diagnostic: Diagnostic): [string | number | undefined, DiagnosticSeverity | undefined, string] {
  return [diagnostic.code, diagnostic.severity, messageOf(diagnostic)];
}

/** The plan's diagnostics under `options.host`, with the setting `hostProblemsAsErrors`. */
function diagnosticsOf(text: string, options: PlanOptions, hostProblemsAsErrors = false): Diagnostic[] {
  return onTheWire(planDiagnostics(analyzed(text, options).plan, { hostProblemsAsErrors }));
}

describe("diagnostics: the host profile", () => {
  it("says once, at the top, that there is no host profile, and guesses no capability", () => {
    const diagnostics = diagnosticsOf(PLAN, {});
    assert.deepEqual(diagnostics, [
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        severity: DiagnosticSeverity.Information,
        code: "no_host_profile",
        source: "rlm-plan",
        message: "No host profile (rlmplan.host.json) found: capabilities, tools and providers are not checked",
      },
    ]);
  });

  it("reports capabilities, unregistered names and budgets as warnings on their tokens", () => {
    const diagnostics = diagnosticsOf(PLAN, { host: HOST });
    assert.deepEqual(
      diagnostics.map((d) => ({ range: d.range, brief: brief(d) })),
      [
        {
          range: rangeOf(PLAN, '"steps"'),
          brief: [
            "budget_exceeded",
            DiagnosticSeverity.Warning,
            'worst case tool calls 2 exceeds the budget\'s max_tool_calls of 1: raise "max_tool_calls" in the budget of rlmplan.host.json, or make the plan do less',
          ],
        },
        {
          range: rangeOf(PLAN, '"nope"'),
          brief: [
            "unknown_tool",
            DiagnosticSeverity.Warning,
            'the plan calls tool "nope", which the host does not register: register it under "tools" in rlmplan.host.json (it registers "count_items")',
          ],
        },
        {
          range: rangeOf(PLAN, '"local"'),
          brief: [
            "capability_denied",
            DiagnosticSeverity.Warning,
            'this step needs the capability model(local), which the host does not grant: add "model(local)" to "capabilities" in rlmplan.host.json',
          ],
        },
      ],
    );
  });

  it("makes host problems errors when rlmPlan.hostProblemsAsErrors is set, and back", () => {
    const errors = diagnosticsOf(PLAN, { host: HOST }, true);
    assert.deepEqual(
      errors.map((d) => [d.code, d.severity]),
      [
        ["budget_exceeded", DiagnosticSeverity.Error],
        ["unknown_tool", DiagnosticSeverity.Error],
        ["capability_denied", DiagnosticSeverity.Error],
      ],
    );
    const warnings = diagnosticsOf(PLAN, { host: HOST }, false);
    assert.deepEqual(
      warnings.map((d) => d.severity),
      [DiagnosticSeverity.Warning, DiagnosticSeverity.Warning, DiagnosticSeverity.Warning],
    );
  });

  it("a host profile with errors: its own diagnostics, located, and the plans say they are not checked", () => {
    const granted = {
      ...HOST,
      capabilities: [...HOST.capabilities, "model(local)"],
      budget: { max_tool_calls: 2 },
      tools: { ...HOST.tools, nope: { type: "builtin", builtin: "sum" } },
    };
    assert.deepEqual(diagnosticsOf(PLAN, { host: granted }), []);
    const broken = hostProfile({ ...granted, capabilites: [] });
    const document = TextDocument.create(HOST_URI, "json", 1, broken);
    const own = onTheWire(hostProfileDiagnostics(document, hostProfileResult(broken), HOST_FILE));
    // The wording is the runtime loader's; here it matters that it arrives, located.
    assert.deepEqual(
      own.map((d) => [d.code, d.severity, d.range, messageOf(d).startsWith('unknown key "capabilites"')]),
      [["invalid_host_profile", DiagnosticSeverity.Error, rangeOf(broken, '"capabilites"'), true]],
    );
    const planSide = diagnosticsOf(PLAN, { host: broken });
    assert.deepEqual(
      planSide.map((d) => [d.code, d.severity, d.relatedInformation?.[0]?.location]),
      [
        [
          "invalid_host_profile",
          DiagnosticSeverity.Warning,
          { uri: HOST_URI, range: collapsed(rangeOf(broken, '"capabilites"')) },
        ],
      ],
    );
    assert.match(
      messageOf(planSide[0] as Diagnostic),
      /^The host profile rlmplan\.host\.json has 1 problem \(line 27: unknown key "capabilites".*\): until it is fixed, capabilities, tools and providers are not checked$/,
    );
  });
});
