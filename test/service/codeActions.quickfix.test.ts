// Quick fixes, in process, against golden files discovered from test/service/golden/code-actions/:
// each fixture `<name>.input.rlmplan.json` names its fix (`//! code:` and `//! action:` lines)
// and marks with `|` where its diagnostic starts. Under the folder's host profile, that
// diagnostic (as the client received it) is sent back for quick fixes, the action with that title
// is applied, and the plan, and the host profile when the fix edits it, must read as the golden
// files `<name>.expected.rlmplan.json` and `<name>.expected.host.json`.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codeActions, showHostProfile, type HostProfileFile } from "@rlm-plan/language-server/service/codeActions";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { RunInEditorCommand } from "@rlm-plan/language-server/protocol";
import {
  CodeActionKind,
  type CodeAction,
  type Diagnostic,
  type Position,
  type ShowDocumentParams,
} from "vscode-languageserver-protocol";
import { rangeOf } from "../protocol/support/lspClient";
import { analyzed, HOST_URI, onTheWire, usableHostProfile } from "./support/analyzed";
import { directive, goldenFile, goldenFixture, goldenTests } from "./support/golden";
import { applyWorkspaceEdit } from "./support/workspaceEdits";

const FOLDER = "code-actions";

describe("code actions: quick fixes (golden files)", () => {
  const hostText = goldenFile(FOLDER, "rlmplan.host.json");
  const hostUri = HOST_URI;
  const host: HostProfileFile = { uri: hostUri, text: hostText, profile: usableHostProfile(hostText) };
  const input = (name: string) => goldenFixture(FOLDER, `${name}.input.rlmplan.json`).text;

  /** The plan's diagnostic with `code` (the one starting at `at`, when given) and its quick fixes. */
  function actionsFor(
    text: string,
    code: string,
    at?: Position,
    hostFile: HostProfileFile = host,
  ): { uri: string; diagnostic: Diagnostic; actions: CodeAction[] } {
    const { plan, uri } = analyzed(text, { host: hostFile.text });
    const diagnostics = onTheWire(planDiagnostics(plan, { hostProblemsAsErrors: false }));
    const diagnostic = diagnostics.find(
      (d) => d.code === code && (!at || (d.range.start.line === at.line && d.range.start.character === at.character)),
    );
    assert.ok(
      diagnostic,
      `no ${code} diagnostic${at ? ` starting at ${JSON.stringify(at)}` : ""} among ${JSON.stringify(diagnostics.map((d) => [d.code, d.range.start]))}`,
    );
    const actions = codeActions(plan, {
      diagnostics: [diagnostic],
      only: [CodeActionKind.QuickFix],
      hostProfile: () => hostFile,
    });
    return { uri, diagnostic, actions: onTheWire(actions) };
  }

  goldenTests(FOLDER, (fixture) => {
    const code = directive(fixture, "code");
    const title = directive(fixture, "action");
    assert.ok(fixture.position, `${fixture.name}: mark where its diagnostic starts with |`);
    const { uri, diagnostic, actions } = actionsFor(fixture.text, code, fixture.position);
    const action = actions.find((a) => a.title === title);
    assert.ok(action, `no action ${JSON.stringify(title)} among ${JSON.stringify(actions.map((a) => a.title))}`);
    assert.equal(action.kind, CodeActionKind.QuickFix);
    assert.deepEqual(action.diagnostics, [diagnostic]);
    assert.ok(action.edit, "the action carries its edit");
    const after = applyWorkspaceEdit({ [uri]: fixture.text, [hostUri]: hostText }, action.edit);
    assert.equal(Object.keys(after).length, 1, "the fix edits one file");
    const outputs: Record<string, string> = { ".expected.rlmplan.json": after[uri] ?? fixture.text };
    if (after[hostUri] !== undefined) outputs[".expected.host.json"] = after[hostUri];
    return outputs;
  });

  it("unbound variable: the nearest name first, then adding its step, which is never preferred", () => {
    const { actions } = actionsFor(input("unbound-variable"), "unbound_variable");
    assert.deepEqual(
      actions.map((a) => [a.title, "isPreferred" in a ? a.isPreferred : undefined]),
      [
        ['Change to the variable "hits"', true],
        ['Add a model step binding "hit" before this step', undefined],
      ],
    );
  });

  it("isPreferred only when one fix is clearly right: a one-letter slip, not a guess", () => {
    const preferred = (op: string) => {
      const text = `{"steps": [{"op": "${op}", "plan": {"steps": [{"op": "final", "value": 1}]}, "bind": "x"}, {"op": "final", "value": 1}]}`;
      const { actions } = actionsFor(text, "unknown_operator");
      return actions.map((a) => [a.title, "isPreferred" in a ? a.isPreferred === true : false]);
    };
    assert.deepEqual(preferred("rlmm"), [['Change to "rlm"', true]]);
    assert.deepEqual(preferred("fly"), [['Change to "rlm"', false]]);
  });

  it("two budget problems on one range: each diagnostic gets the fix of its own budget", () => {
    // 43 attempts of a tool call and a step: 86 steps and 43 tool calls, over 64 and 16.
    const text = `{"steps": [{"op": "retry", "attempts": 43, "plan": {"steps": [{"op": "tool", "name": "count_items", "args": [1], "bind": "n"}, {"op": "final", "value": 1}]}, "bind": "r"}, {"op": "final", "value": 1}]}`;
    const { plan } = analyzed(text, { host: hostText });
    const budgets = onTheWire(planDiagnostics(plan, { hostProblemsAsErrors: false })).filter(
      (d) => d.code === "budget_exceeded",
    );
    assert.equal(budgets.length, 2);
    assert.deepEqual(budgets[0]?.range, budgets[1]?.range);
    const fixes = budgets.map((diagnostic) =>
      codeActions(plan, { diagnostics: [diagnostic], only: [CodeActionKind.QuickFix], hostProfile: () => host }).map(
        (a) => a.title,
      ),
    );
    assert.deepEqual(fixes.sort(), [
      ["Raise max_steps to 88 in rlmplan.host.json"],
      ["Raise max_tool_calls to 43 in rlmplan.host.json"],
    ]);
  });

  it("a fix that widens the host's trust is never preferred; a rename to a registered name may be", () => {
    const fixes = (step: string) => {
      const text = `{"steps": [${step}, {"op": "final", "value": 1}]}`;
      const { plan } = analyzed(text, { host: hostText });
      const diagnostics = onTheWire(planDiagnostics(plan, { hostProblemsAsErrors: false }));
      const actions = codeActions(plan, { diagnostics, only: [CodeActionKind.QuickFix], hostProfile: () => host });
      return actions.map((a) => [a.title, a.isPreferred === true]);
    };
    assert.deepEqual(fixes(`{"op": "model", "provider": "locall", "prompt": "hi", "bind": "g"}`), [
      ['Grant "model(locall)" in rlmplan.host.json', false],
      ['Change to the registered provider "local"', true],
      ['Open rlmplan.host.json at "providers"', false],
    ]);
    assert.deepEqual(fixes(`{"op": "tool", "name": "join", "args": [], "bind": "j"}`), [
      ['Grant "tool(join)" in rlmplan.host.json', false],
      ['Open rlmplan.host.json at "tools"', false],
    ]);
  });

  it("unknown_tool: opens the host profile at its tools section", async () => {
    const { diagnostic, actions } = actionsFor(input("unknown-tool"), "unknown_tool");
    const open = actions.find((a) => a.title === 'Open rlmplan.host.json at "tools"');
    const selection = rangeOf(hostText, '"tools"');
    assert.deepEqual(open, {
      title: 'Open rlmplan.host.json at "tools"',
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      command: {
        title: 'Open rlmplan.host.json at "tools"',
        command: "rlmPlan.server.showHostProfile",
        arguments: [{ uri: hostUri, selection }],
      },
    });
    // Running the command asks the client to show the file with the key selected.
    const shown: ShowDocumentParams[] = [];
    const result = await showHostProfile(open?.command?.arguments ?? [], (params) => {
      shown.push(params);
      return Promise.resolve({ success: true });
    });
    assert.equal(result, true);
    assert.deepEqual(shown, [{ uri: hostUri, takeFocus: true, selection }]);
  });

  it("capability_denied: edits the host profile's text in the editor when it is open", () => {
    // Open, with unsaved changes: a one-line list the fix extends.
    const edited = hostText.replace(/"capabilities": \[[^\]]*\]/, '"capabilities": ["rlm", "tool(count_items)"]');
    assert.notEqual(edited, hostText);
    const open = { uri: hostUri, text: edited, profile: usableHostProfile(edited) };
    {
      const { diagnostic, actions } = actionsFor(input("capability-denied"), "capability_denied", undefined, open);
      const grant = actions.find((a) => a.title === 'Grant "tool(sum)" in rlmplan.host.json');
      assert.ok(grant?.edit);
      assert.deepEqual(grant.diagnostics, [diagnostic]);
      const after = applyWorkspaceEdit({ [hostUri]: edited }, grant.edit);
      assert.equal(
        after[hostUri],
        edited.replace(
          '"capabilities": ["rlm", "tool(count_items)"]',
          '"capabilities": [\n    "rlm",\n    "tool(count_items)",\n    "tool(sum)"\n  ]',
        ),
      );
    }
  });

  it("no fix for a stale diagnostic, or when only other kinds are asked for", () => {
    const text = input("unknown-operator");
    const { diagnostic } = actionsFor(text, "unknown_operator");
    const ask = (planText: string, only: string) =>
      codeActions(analyzed(planText, { host: hostText }).plan, {
        diagnostics: [diagnostic],
        only: [only],
        hostProfile: () => host,
      });
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
