// Breakpoints of plan files: each requested line is moved to the nearest step (verified there),
// and may carry a condition (a plan expression over the bindings, evaluated by the runtime) and
// a hit condition. A breakpoint is keyed by its step's JSON path, which is what a pause reports.

import type { DebugProtocol } from "@vscode/debugprotocol";
import {
  conditionHolds,
  nearestStep,
  parseCondition,
  stepKey,
  stepLines,
  type ParsedCondition,
  type StepLine,
} from "@rlm-plan/core/debug";
import { parsePlan } from "@rlm-plan/core/plan";
import { readErrorText } from "@rlm-plan/core/host";
import { type StepPause } from "@rlm-plan/core/run";
import { MAX_PLAN_BYTES, readTextFileSync } from "@rlm-plan/core/text";
import { hitConditionTest } from "./stepping";

interface StepBreakpoint {
  readonly id: number;
  readonly condition: Extract<ParsedCondition, { ok: true }> | undefined;
  readonly hitTest: ((hits: number) => boolean) | undefined;
  hits: number;
}

/** What a breakpoint check says: stop, or not, or the condition failed (said once, then not stopped). */
export type BreakpointHit =
  { readonly stop: true; readonly ids: readonly number[] } | { readonly stop: false; readonly conditionError?: string };

/** The steps of a plan file by line, or why there are none. */
function planFileSteps(file: string): { steps: StepLine[] } | { error: string } {
  let text: string;
  try {
    text = readTextFileSync(file, MAX_PLAN_BYTES);
  } catch (error) {
    return { error: `cannot read ${file}: ${readErrorText(error)}` };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const parsed = parsePlan({ kind: "document", text });
  if (!parsed.plan || !parsed.document)
    return { error: `the plan does not parse: ${parsed.problems[0]?.message ?? ""}` };
  return { steps: stepLines(parsed.plan, parsed.document) };
}

export class Breakpoints {
  /** file -> step key -> breakpoint. */
  private readonly byFile = new Map<string, Map<string, StepBreakpoint>>();
  private nextId = 1;

  /**
   * Replaces the breakpoints of `file`; answers one DAP breakpoint per request, in order, with
   * 0-based lines (the session converts). Several lines on one step share it.
   */
  set(file: string, requested: readonly DebugProtocol.SourceBreakpoint[], toLine: (line: number) => number) {
    const steps = planFileSteps(file);
    const table = new Map<string, StepBreakpoint>();
    this.byFile.set(file, table);
    return requested.map((bp): DebugProtocol.Breakpoint => {
      const id = this.nextId++;
      if ("error" in steps) return { id, verified: false, message: steps.error };
      const step = nearestStep(steps.steps, toLine(bp.line));
      if (!step) return { id, verified: false, message: "the plan has no steps" };
      const condition = bp.condition?.trim() ? parseCondition(bp.condition) : undefined;
      if (condition && !condition.ok) return { id, verified: false, message: `condition: ${condition.message}` };
      const hitTest = bp.hitCondition?.trim() ? hitConditionTest(bp.hitCondition) : undefined;
      if (bp.hitCondition?.trim() && !hitTest)
        return { id, verified: false, message: "hit condition: use a count such as 3, >= 3, == 3 or % 3" };
      const key = stepKey(step.path);
      if (!table.has(key)) table.set(key, { id, condition, hitTest, hits: 0 });
      return { id: table.get(key)?.id ?? id, verified: true, line: step.line, column: step.column };
    });
  }

  /** Whether a breakpoint is set on the step at `path` (time travel stops there, conditions aside). */
  has(file: string, path: StepPause["path"]): boolean {
    return this.byFile.get(file)?.has(stepKey(path)) === true;
  }

  /** Whether the breakpoints of `file` stop the run before the paused step. Counts hits. */
  check(file: string, pause: StepPause): BreakpointHit {
    const bp = this.byFile.get(file)?.get(stepKey(pause.path));
    if (!bp) return { stop: false };
    if (bp.condition) {
      const result = pause.evaluate(bp.condition.expr);
      // A binding the condition reads that is not bound yet: the condition does not hold.
      if (!result.ok)
        return result.error.kind === "unbound_variable" || result.error.kind === "missing_field"
          ? { stop: false }
          : { stop: false, conditionError: result.error.message };
      if (!conditionHolds(bp.condition, result.value)) return { stop: false };
    }
    bp.hits++;
    if (bp.hitTest && !bp.hitTest(bp.hits)) return { stop: false };
    return { stop: true, ids: [bp.id] };
  }
}
