// Code action requests, in process, where the case is a sequence of calls rather than one answer
// (every action offered, with its edit or command, is the goldens' of code-actions-offered/): the
// request the "Open rlmplan.host.json" action's command sends the client, a diagnostic sent back
// after the text changed, and the kinds a client asks for.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codeActions, showHostProfile, type HostProfileFile } from "@rlm-plan/language-server/service/codeActions";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { RunInEditorCommand } from "@rlm-plan/language-server/protocol";
import { CodeActionKind, type Diagnostic, type ShowDocumentParams } from "vscode-languageserver-protocol";
import { rangeOf } from "../protocol/support/lspClient";
import { analyzed, HOST_URI, onTheWire, usableHostProfile } from "./support/analyzed";
import { goldenFile, goldenFixture } from "./support/golden";

describe("code actions: requests", () => {
  const hostText = goldenFile("plans", "quick-fixes.host.json");
  const host: HostProfileFile = { uri: HOST_URI, text: hostText, profile: usableHostProfile(hostText) };
  const input = (name: string) => goldenFixture("code-actions", `${name}.input.rlmplan.json`).text;

  /** The plan's first diagnostic with `code`, as the client received it. */
  function diagnosticOf(text: string, code: string): Diagnostic {
    const { plan } = analyzed(text, { host: hostText });
    const diagnostic = onTheWire(planDiagnostics(plan, { hostProblemsAsErrors: false })).find((d) => d.code === code);
    assert.ok(diagnostic, `no ${code} diagnostic`);
    return diagnostic;
  }

  it("the Open action's command asks the client to show the host profile with its tools key selected", async () => {
    const text = input("unknown-tool");
    const diagnostic = diagnosticOf(text, "unknown_tool");
    const actions = codeActions(analyzed(text, { host: hostText }).plan, {
      diagnostics: [diagnostic],
      hostProfile: () => host,
    });
    const open = actions.find((a) => a.title === 'Open rlmplan.host.json at "tools"');
    assert.ok(open?.command, "the Open action carries its command");
    const shown: ShowDocumentParams[] = [];
    const result = await showHostProfile(open.command.arguments ?? [], (params) => {
      shown.push(params);
      return Promise.resolve({ success: true });
    });
    assert.equal(result, true);
    assert.deepEqual(shown, [{ uri: HOST_URI, takeFocus: true, selection: rangeOf(hostText, '"tools"') }]);
  });

  it("no fix for a stale diagnostic, or when only other kinds are asked for", () => {
    const text = input("unknown-operator");
    const diagnostic = diagnosticOf(text, "unknown_operator");
    const ask = (planText: string, only: string) =>
      codeActions(analyzed(planText, { host: hostText }).plan, {
        diagnostics: [diagnostic],
        only: [only],
        hostProfile: () => host,
      });
    assert.ok(ask(text, CodeActionKind.QuickFix).length > 0, "the diagnostic has fixes while it is current");
    assert.deepEqual(ask(text, CodeActionKind.Refactor), []);
    assert.deepEqual(ask(text.replace('"contxt"', '"context"'), CodeActionKind.QuickFix), []);
  });

  it("Run plan is a source action naming the lens's command, for editors without code lenses", () => {
    const { plan, uri } = analyzed(input("missing-final"), { host: hostText });
    const ask = (only?: string[]) =>
      onTheWire(
        codeActions(plan, {
          diagnostics: [],
          ...(only ? { only } : {}),
          hostProfile: () => host,
          runCommand: RunInEditorCommand.command,
        }),
      );
    assert.deepEqual(ask(), [
      {
        title: "Run plan",
        kind: "source.runPlan",
        command: { title: "Run plan", command: "rlmPlan.server.runInEditor", arguments: [uri] },
      },
    ]);
    assert.deepEqual(ask([CodeActionKind.QuickFix]), []);
  });
});
