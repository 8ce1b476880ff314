// A context step works on a context handle, and only the host makes those: an input it
// registers as a text or a list of items. Any other handle fails the step when it runs
// (`invalid_handle`), so the editor and `check` say so before: a literal, a value a step
// produced (a model reply, a tool result, a context result, a parallel list), or an input the
// host declares as a plain value. A sub-plan's result (rlm, retry) may be an input it passes
// on, and a field of an object may hold one: neither is judged. The runtime's validator is
// unchanged (the reference validates such plans and fails them at the step).

import type { Expr } from "./ast";
import type { ModelReference, PlanModel } from "./semanticModel";
import { quoted, type PlanProblem } from "./problems";
import { samePath } from "./stepChain";

export const NOT_A_HANDLE_KIND = "not_a_context_handle";

/** What a binding step's value is, for the message; undefined when it may be a handle. */
const PRODUCED: Readonly<Record<string, string>> = {
  model: "a model step's reply",
  tool: "a tool step's result",
  context: "a context step's result",
  parallel: "a parallel step's list of results",
};

const HANDLE_HINT =
  'a context step reads an input the host registers as a text or a list of items ({"ref": "input", ...})';

/**
 * Every context step whose handle cannot be one. `isContextInput` answers for the host's
 * inputs (true: a text or items input; false: a plain value; undefined: not declared or no host).
 */
export function contextHandleProblems(
  model: PlanModel,
  isContextInput?: (name: string) => boolean | undefined,
): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const walked of model.steps()) {
    const step = walked.step;
    if (step.op !== "context") continue;
    // Asked only of context steps: a step's references are listed when asked (scopeWalk.ts).
    const found = judge(step.handle, walked.references, isContextInput);
    if (found) {
      problems.push({
        phase: "validate",
        kind: NOT_A_HANDLE_KIND,
        message: `${found.what}, not a context handle: ${HANDLE_HINT}`,
        path: [...step.path, "handle"],
        target: "value",
        ...(found.host ? { hostDependent: true } : {}),
      });
    }
  }
  return problems;
}

function judge(
  handle: Expr,
  references: readonly ModelReference[],
  isContextInput: ((name: string) => boolean | undefined) | undefined,
): { what: string; host?: true } | undefined {
  switch (handle.kind) {
    case "literal":
      return { what: `the handle is the literal ${JSON.stringify(handle.value)}` };
    case "list":
      return { what: "the handle is a list" };
    case "object":
      return { what: "the handle is an object" };
    case "var": {
      const op = references.find((r) => samePath(r.path, handle.path))?.binding?.step?.op;
      const produced = op === undefined ? undefined : PRODUCED[op];
      return produced ? { what: `${quoted(handle.name)} is ${produced}` } : undefined;
    }
    case "input":
      return isContextInput?.(handle.name) === false
        ? { what: `the input ${quoted(handle.name)} is a plain value in the host profile`, host: true }
        : undefined;
    default:
      return undefined;
  }
}
