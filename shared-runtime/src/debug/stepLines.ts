// Where each step of a plan file is, by line: what a debugger needs to verify a breakpoint (to
// the nearest step) and to show a paused step or a nested plan's frame in the source.

import type { JsonPath } from "../json";
import type { Plan, Step } from "../plan/ast";
import { planSteps } from "../plan/walk";
import { lineColumn } from "../text/lineColumn";
import type { PlanDocument } from "../text/planDocument";

export interface StepLine {
  readonly path: JsonPath;
  readonly step: Step;
  /** 0-based lines of the step object's first and last character. */
  readonly line: number;
  readonly endLine: number;
  readonly column: number;
  /** Nested plans the step is inside (0 for the root plan's steps). */
  readonly depth: number;
}

/** Every step of `plan` with its lines in `document`, in source order. */
export function stepLines(plan: Plan, document: PlanDocument): StepLine[] {
  const lines: StepLine[] = [];
  for (const { step, depth } of planSteps(plan)) {
    const range = document.rangeOf(step.path);
    if (!range) continue;
    const start = lineColumn(document.text, range.offset);
    const end = lineColumn(document.text, range.offset + range.length);
    lines.push({ path: step.path, step, line: start.line, endLine: end.line, column: start.character, depth });
  }
  return lines.sort((a, b) => a.line - b.line || a.depth - b.depth);
}

/**
 * The step a breakpoint on `line` (0-based) stands for: the step that starts on it (the
 * outermost one when several do), else the innermost step whose text spans it, else the next
 * step below, else the last step above. Undefined only for a plan without steps.
 */
export function nearestStep(lines: readonly StepLine[], line: number): StepLine | undefined {
  const starting = lines.find((s) => s.line === line);
  if (starting) return starting;
  let inside: StepLine | undefined;
  for (const s of lines) if (s.line <= line && line <= s.endLine && (!inside || s.depth > inside.depth)) inside = s;
  if (inside) return inside;
  return lines.find((s) => s.line > line) ?? lines[lines.length - 1];
}

/** A step path as one string key: `steps.1.plan.steps.0`. */
export function stepKey(path: JsonPath): string {
  return path.join(".");
}
