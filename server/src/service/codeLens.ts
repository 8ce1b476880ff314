// The code lens above the plan: "▶ Run plan" (the client's own run command when it has one, else
// the server's RunInEditorCommand, with the document URI), titled with the whole plan's worst case
// against the budget in force, "▶ Run plan (steps 12/64 · tools 5/16 · depth 2/4)" (worstCase.ts).
// Counters the plan never uses are left out; a figure over its limit is marked. The figures are
// not a lens of their own: a lens with nothing to run is still offered as runnable by lens
// pickers (Neovim's `codelens.run()`, VS Code's "Show CodeLens Commands"), and one lens per line
// is what `codelens.run()` runs without asking.

import type { SourceRange } from "@rlm-plan/core";
import type { CodeLens, Range } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { planStart } from "./diagnostics";
import { RunInEditorCommand, RunPlanClientCommand } from "../protocol";
import { worstCase } from "./worstCase";

export function codeLenses(plan: AnalyzedPlan, clientRunsPlans = false): CodeLens[] {
  // A lens needs only the plan's opening brace: no tree is parsed for it.
  const start = planStart(plan.document.getText());
  if (!start) return [];
  const range = rangeNearTop(plan.document.getText(), start);
  const figures = worstCase(plan, null);
  return [
    {
      range,
      command: {
        title: figures ? `▶ Run plan (${figures.title})` : "▶ Run plan",
        command: clientRunsPlans ? RunPlanClientCommand.command : RunInEditorCommand.command,
        arguments: [plan.document.uri],
      },
    },
  ];
}

/**
 * The range of a place near the top of the text, by counting the line breaks before it: the
 * document's `positionAt` would index every line of the text, an array kept with the document
 * (about 10 KiB for a 100-step plan), for each open plan, whether or not it is ever shown.
 */
export function rangeNearTop(text: string, at: SourceRange): Range {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < at.offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  const character = at.offset - lineStart;
  return { start: { line, character }, end: { line, character: character + at.length } };
}
