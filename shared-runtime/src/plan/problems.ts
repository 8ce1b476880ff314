// Structured problems: what every phase reports instead of throwing. A problem carries what a
// user needs (phase, kind, the reference's reason, the offending name or number) and where in
// the plan it is (a JSON path that editors turn into a source range).

import type { JsonPath, JsonValue } from "../json";
import type { ProblemTarget } from "../text/pathRanges";
import type { Count } from "./count";

export type Phase = "parse" | "normalize" | "validate" | "preflight" | "execute";

/** Which token of the node at `path` the problem is about (text/ locates it). */
export type { ProblemTarget };

export interface RelatedLocation {
  readonly path: JsonPath;
  readonly target: ProblemTarget;
  readonly message: string;
  /** Where it is, when the reporter knows (saves a walk of the tree for each problem). */
  readonly offset?: number;
  readonly length?: number;
}

export interface PlanProblem {
  readonly phase: Phase;
  /** The reference's error kind: invalid_plan, capability_denied, budget_exceeded, ... */
  readonly kind: string;
  /** For invalid_plan: the reason identifier, e.g. unbound_variable, missing_field. */
  readonly reason?: string;
  /** The reason with its arguments, written as the reference writes it: `missing_field(bind)`. */
  readonly detail?: string;
  readonly message: string;
  /** Where the problem is; absent for problems of the whole input (empty text, bad budget). */
  readonly path?: JsonPath;
  readonly target?: ProblemTarget;
  readonly related?: readonly RelatedLocation[];
  /** True when the problem depends on the host (capabilities, budget, registries), not the plan. */
  readonly hostDependent?: boolean;
  /**
   * "warning": the plan runs, but likely not as its author meant (an unknown key the runtime
   * ignores). "hint": the plan runs as written, but a value is not what it may seem (a count
   * of a capped search result); hints are kept apart from problems (`analysis.hints`). Absent:
   * an error, or a warning when host-dependent.
   */
  readonly severity?: "warning" | "hint";
  /** The name the author probably meant (a known key, an allowed option), for quick fixes. */
  readonly suggestion?: string;
  /** Source offset for parse errors in text that never became a value. */
  readonly offset?: number;
  readonly length?: number;
  readonly capability?: string;
  readonly budget?: string;
  /** Exact: a bigint beyond 2^53. */
  readonly estimated?: Count;
  readonly limit?: number;
  readonly value_shape?: string;
  readonly value?: JsonValue;
  readonly field?: string;
}

/** Renders one argument of a reason the way the reference prints terms, briefly. */
function termArg(value: unknown): string {
  if (typeof value === "string") {
    return /^[a-z][A-Za-z0-9_]*$/.test(value) ? value : JSON.stringify(value);
  }
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "nan";
  if (value === null || typeof value === "boolean") return String(value);
  if (value === undefined) return "_";
  let text: string;
  try {
    text = JSON.stringify(value) ?? "_";
  } catch {
    text = "_";
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function detailText(reason: string, ...args: readonly unknown[]): string {
  return args.length === 0 ? reason : `${reason}(${args.map(termArg).join(",")})`;
}

/** A short, quoted rendering of a name for messages; long names are cut. */
export function quoted(name: string): string {
  const cut = name.length > 60 ? `${name.slice(0, 57)}...` : name;
  return JSON.stringify(cut);
}

/** "a, b or c": a list of names as messages write it. */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
