// When a paused run stops again: the stepping rules of the adapter, apart from the protocol.
// Depth is the number of nested plans a step is inside plus one (the pause's frame count).

export type StepMode =
  /** Stop at breakpoints and exceptions only. */
  | "continue"
  /** The next step at the same level or above: a nested plan runs through. */
  | "next"
  /** The very next step: into the nested plan of an rlm, a parallel branch or a retry attempt. */
  | "stepIn"
  /** The next step outside the current plan. */
  | "stepOut"
  /** The next step, whatever it is (a pause request or stopOnEntry). */
  | "pause";

export interface Stepping {
  readonly mode: StepMode;
  /** The depth where the step command was given. */
  readonly from: number;
}

/** Whether the stepping command alone stops the run before a step at `depth`. */
export function steppingStops(stepping: Stepping, depth: number): boolean {
  switch (stepping.mode) {
    case "continue":
      return false;
    case "next":
      return depth <= stepping.from;
    case "stepOut":
      return depth < stepping.from;
    case "stepIn":
    case "pause":
      return true;
  }
}

/** The DAP stop reason for a stepping stop. */
export function stopReason(mode: StepMode): "step" | "pause" {
  return mode === "pause" ? "pause" : "step";
}

/**
 * A breakpoint's hit condition as VS Code writes it: `5` or `>= 5` (from the 5th hit on),
 * `> 5`, `== 5` (only the 5th), `< 5`, `<= 5`, `% 5` (every 5th). Undefined when invalid.
 */
export function hitConditionTest(text: string): ((hits: number) => boolean) | undefined {
  const match = /^\s*(>=|>|==|=|<=|<|%)?\s*(\d+)\s*$/.exec(text);
  if (!match) return undefined;
  const n = Number(match[2]);
  switch (match[1]) {
    case undefined:
    case ">=":
      return (hits) => hits >= n;
    case ">":
      return (hits) => hits > n;
    case "==":
    case "=":
      return (hits) => hits === n;
    case "<":
      return (hits) => hits < n;
    case "<=":
      return (hits) => hits <= n;
    default:
      return n > 0 ? (hits) => hits % n === 0 : undefined;
  }
}
