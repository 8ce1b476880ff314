// The "Test This Step" code lens above each step, for clients that run plans themselves (the
// VS Code extension): its command (TestStepClientCommand) opens the step's bindings to edit and
// runs that step alone. Kept apart from the plan's own lens (codeLens.ts), which every client gets.

import { pointer } from "@rlm-plan/core/json";
import type { CodeLens } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange } from "./diagnostics";
import { TestStepClientCommand } from "../protocol";

/** A generated plan of thousands of steps gets no lens past these: a lens a line is unreadable there. */
const MAX_STEP_LENSES = 500;

export function stepLenses(plan: AnalyzedPlan, clientRunsPlans: boolean): CodeLens[] {
  const model = plan.analysis.model;
  if (!clientRunsPlans || !model) return [];
  const steps = model.steps().slice(0, MAX_STEP_LENSES);
  const ranges = plan.analysis.document.rangesOf(steps.map(({ path }) => ({ path })));
  return steps.flatMap(({ path }, i) => {
    const range = ranges[i];
    if (!range) return [];
    return [
      {
        // The step object's opening brace: the lens sits on the step's first line.
        range: lspRange(plan.document, { offset: range.offset, length: 1 }),
        command: {
          title: "Test This Step",
          command: TestStepClientCommand.command,
          arguments: [plan.document.uri, pointer(path)],
        },
      },
    ];
  });
}
