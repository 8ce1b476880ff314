// Quick fixes, in process, against golden files discovered from test/service/golden/code-actions/:
// each fixture `<name>.input.rlmplan.json` names its fix (`//! code:` and `//! action:` lines)
// and marks with `|` where its diagnostic starts. Under the host profile plans/quick-fixes.host.json
// (or the file of plans/ its `//! host:` line names, as the editor holds it open), that
// diagnostic (as the client received it) is sent back for quick fixes, the action with that title
// is applied, and the plan, and the host profile when the fix edits it, must read as the golden
// files `<name>.expected.rlmplan.json` and `<name>.expected.host.json`.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { codeActions, type HostProfileFile } from "@rlm-plan/language-server/service/codeActions";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { CodeActionKind, type CodeAction, type Diagnostic, type Position } from "vscode-languageserver-protocol";
import { analyzed, HOST_URI, onTheWire, usableHostProfile } from "./support/analyzed";
import { directive, goldenFile, goldenTests } from "./support/golden";
import { applyWorkspaceEdit } from "./support/workspaceEdits";

const FOLDER = "code-actions";

describe("code actions: quick fixes (golden files)", () => {
  const hostUri = HOST_URI;
  const hostFile = (name: string): HostProfileFile => {
    const text = goldenFile("plans", name);
    return { uri: hostUri, text, profile: usableHostProfile(text) };
  };

  /** The plan's diagnostic with `code` (the one starting at `at`, when given) and its quick fixes. */
  function actionsFor(
    text: string,
    code: string,
    at: Position,
    host: HostProfileFile,
  ): { uri: string; diagnostic: Diagnostic; actions: CodeAction[] } {
    const { plan, uri } = analyzed(text, { host: host.text });
    const diagnostics = onTheWire(planDiagnostics(plan, { hostProblemsAsErrors: false }));
    const diagnostic = diagnostics.find(
      (d) => d.code === code && d.range.start.line === at.line && d.range.start.character === at.character,
    );
    assert.ok(
      diagnostic,
      `no ${code} diagnostic starting at ${JSON.stringify(at)} among ${JSON.stringify(diagnostics.map((d) => [d.code, d.range.start]))}`,
    );
    const actions = codeActions(plan, {
      diagnostics: [diagnostic],
      only: [CodeActionKind.QuickFix],
      hostProfile: () => host,
    });
    return { uri, diagnostic, actions: onTheWire(actions) };
  }

  goldenTests(FOLDER, (fixture) => {
    const code = directive(fixture, "code");
    const title = directive(fixture, "action");
    assert.ok(fixture.position, `${fixture.name}: mark where its diagnostic starts with |`);
    const host = hostFile(fixture.directives.host ?? "quick-fixes.host.json");
    const { uri, diagnostic, actions } = actionsFor(fixture.text, code, fixture.position, host);
    const action = actions.find((a) => a.title === title);
    assert.ok(action, `no action ${JSON.stringify(title)} among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(action.kind, CodeActionKind.QuickFix);
    assert.deepEqual(action.diagnostics, [diagnostic]);
    assert.ok(action.edit, "the action carries its edit");
    const after = applyWorkspaceEdit({ [uri]: fixture.text, [hostUri]: host.text }, action.edit);
    assert.equal(Object.keys(after).length, 1, "the fix edits one file");
    const outputs: Record<string, string> = { ".expected.rlmplan.json": after[uri] ?? fixture.text };
    if (after[hostUri] !== undefined) outputs[".expected.host.json"] = after[hostUri];
    return outputs;
  });
});
