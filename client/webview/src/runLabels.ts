// What the graph view writes on a step from its run state: the state line above the box, the
// failed-attempts badge below it, and the failures at the head of its hover text.

import type { StepRunState } from "../../src/graph/messages";

/** "ok · 4 ms · 3 steps left": the step's state, how long it took, what its plan has left. */
export function runLabel(state: StepRunState): string {
  const parts: string[] = [state.state];
  if (state.durationMs !== undefined) parts.push(`${Math.round(state.durationMs)} ms`);
  if (state.remaining?.steps !== undefined) parts.push(`${state.remaining.steps} steps left`);
  return parts.join(" · ");
}

/** "✗ 1 failed attempt" on a step that failed and ran again (or still runs); a step's last failure is its state. */
export function attemptsBadge(state: StepRunState): string | undefined {
  const count = (state.failures ?? 0) - (state.state === "failed" || state.state === "cancelled" ? 1 : 0);
  if (count <= 0) return undefined;
  return `✗ ${count} failed attempt${count === 1 ? "" : "s"}`;
}

/** What the run's events said failed on a step, a line each: "Attempt 1/3 failed [execute/tool_error]: reason". */
export function failureText(state: StepRunState | undefined): string {
  const failures = state?.lastFailures ?? [];
  if (failures.length === 0) return "";
  const hidden = (state?.failures ?? 0) - failures.length;
  const lines = failures.map((f) => {
    const attempt =
      f.attempt === undefined ? "Failed" : `Attempt ${f.attempt}${f.attempts ? `/${f.attempts}` : ""} failed`;
    return `${attempt} [${f.phase}/${f.kind}]: ${f.message}`;
  });
  return [...(hidden > 0 ? [`(${hidden} earlier failures)`] : []), ...lines].join("\n");
}
