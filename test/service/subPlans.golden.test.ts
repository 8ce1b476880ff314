// Extract and inline a sub-plan, asked as code actions, against golden files at fixtures of
// test/service/golden/sub-plans/: a `//! select: L:C-L:C` selection (extract) or a `|` cursor
// (inline). Each golden file holds the refactorings offered (a refused one with its reason),
// the snippet a snippet-taking client gets, the text after the edit with its problems and worst
// case before and after, and for an extraction the inline of the new step (back to the input).

import assert from "node:assert/strict";
import { describe } from "node:test";
import { codeActions } from "@rlm-plan/language-server/service/codeActions";
import type { AnalyzedPlan } from "@rlm-plan/language-server/service/analyzedPlan";
import type { CodeAction, Range, TextEdit } from "vscode-languageserver-protocol";
import { analyzed } from "./support/analyzed";
import { goldenTests, rangeDirective } from "./support/golden";
import { scenarioOf } from "./support/scenarios";
import { applyTextEdits } from "./support/workspaceEdits";

const REFACTOR = ["refactor"];

function refactorings(plan: AnalyzedPlan, range: Range, snippets: boolean): CodeAction[] {
  const options = { snippetEdits: snippets, disabledActions: true };
  return codeActions(plan, { diagnostics: [], only: REFACTOR, hostProfile: () => undefined, range, ...options });
}

function worst(plan: AnalyzedPlan): string {
  const total = plan.analysis.estimates?.total;
  assert.ok(total, "no estimate");
  return Object.entries(total)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(", ");
}

function errors(plan: AnalyzedPlan): string {
  const found = plan.problems.filter((problem) => !problem.severity).map((problem) => problem.message);
  return found.length === 0 ? "none" : found.join("; ");
}

function editsOf(action: CodeAction, uri: string): TextEdit[] {
  const edits = action.edit?.changes?.[uri];
  assert.ok(edits, `${action.title}: no plain edits for ${uri}`);
  return edits;
}

describe("extract and inline a sub-plan (golden files)", () => {
  goldenTests("sub-plans", (fixture) => {
    const { plan, uri, text, host } = scenarioOf(fixture);
    const selected = rangeDirective(fixture, "select");
    const cursor = fixture.position;
    const range = selected ?? (cursor && { start: cursor, end: cursor });
    assert.ok(range, `${fixture.name}: give a //! select: range or a | cursor`);
    const offered = refactorings(plan, range, false);
    const lines = offered.map((action) =>
      action.disabled
        ? `${action.kind}: ${action.title}: ${action.disabled.reason}`
        : `${action.kind}: ${action.title}`,
    );
    let out = `offered:\n${lines.map((line) => `  ${line}\n`).join("") || "  nothing\n"}`;
    const action = offered.find((each) => !each.disabled);
    if (!action) return { ".expected.txt": out };
    const snippetAction = refactorings(plan, range, true).find((each) => each.title === action.title);
    const snippetEdit = snippetAction?.edit?.documentChanges?.[0];
    if (snippetEdit && "edits" in snippetEdit) {
      const edit = snippetEdit.edits[0];
      if (edit && "snippet" in edit) out += `snippet:\n${edit.snippet.value}\n`;
    }
    const after = applyTextEdits(text, editsOf(action, uri));
    const afterPlan = analyzed(after, host ? { host: host.text } : {}).plan;
    out += `worst case before: ${worst(plan)}\nworst case after:  ${worst(afterPlan)}\nerrors after: ${errors(afterPlan)}\n`;
    out += `---\n${after}\n`;
    if (action.kind === "refactor.extract") {
      // Inline the new step (at the edit's start) and compare with the input.
      const at = editsOf(action, uri)[0]?.range.start;
      assert.ok(at);
      const back = refactorings(afterPlan, { start: at, end: at }, false).find(
        (each) => each.kind === "refactor.inline",
      );
      if (back?.disabled) out += `inline back: refused: ${back.disabled.reason}\n`;
      else if (back) {
        const inlined = applyTextEdits(after, editsOf(back, uri));
        out += inlined === text ? "inline back: the input again\n" : `inline back: differs:\n${inlined}\n`;
      } else out += "inline back: not offered\n";
    }
    return { ".expected.txt": out };
  });
});
