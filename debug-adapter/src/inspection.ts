// The DAP requests that look at the paused run: threads, the call stack (one frame per nested
// plan), scopes, variables, the console's evaluate and the stopping error's details.

import { Source, Thread } from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { basename } from "node:path";
import { operationName, type RunFrame } from "@rlm-plan/core/run";
import { parseDebugExpression, stepKey, type StepLine } from "@rlm-plan/core/debug";
import { THREAD_ID, type SessionState } from "./sessionState";
import { preview } from "./variables";
import { isHeldForApproval, pendingApprovalEntries } from "./pendingApproval";

export function threads(s: SessionState, response: DebugProtocol.ThreadsResponse): void {
  response.body = { threads: [new Thread(THREAD_ID, `plan ${basename(s.program) || "run"}`)] };
  s.sendResponse(response);
}

/** One frame per nested plan, innermost first, each at the step that plan is running. */
export function stackTrace(s: SessionState, response: DebugProtocol.StackTraceResponse): void {
  const pause = s.viewed()?.pause;
  if (!pause) {
    response.body = { stackFrames: [], totalFrames: 0 };
    s.sendResponse(response);
    return;
  }
  const frames = pause.frames;
  const source = new Source(basename(s.program), s.toClientPath(s.program));
  const stackFrames: DebugProtocol.StackFrame[] = frames
    .map((frame, i) => {
      const at = i === frames.length - 1 ? pause.path : (frames[i + 1] as Extract<RunFrame, { step: unknown }>).step;
      const line = s.steps.get(stepKey(at));
      return {
        id: frames.length - i,
        name: `${frameName(frame, s.steps)}: ${stepName(s.steps, at)}`,
        source,
        line: s.toClientLine(line?.line ?? 0),
        column: s.toClientColumn(line?.column ?? 0),
      };
    })
    .reverse();
  response.body = { stackFrames, totalFrames: stackFrames.length };
  s.sendResponse(response);
}

/** The step a call-stack frame is at (the ids stackTrace gave). */
export function frameStep(s: SessionState, frameId: number): RunFrame["path"] | undefined {
  // The pause the stack shows: a recorded run's earlier step when stepped back to, else where it is held.
  const pause = s.held ? s.viewed()?.pause : undefined;
  if (!pause) return undefined;
  const frames = pause.frames;
  const i = frames.length - frameId;
  if (i < 0 || i >= frames.length) return undefined;
  return i === frames.length - 1 ? pause.path : (frames[i + 1] as Extract<RunFrame, { step: unknown }>).step;
}

export function scopes(s: SessionState, response: DebugProtocol.ScopesResponse): void {
  const viewed = s.viewed();
  const error = viewed?.error;
  // Read when shown: votes come in while the run is stopped.
  const approval = error && isHeldForApproval(error) ? () => pendingApprovalEntries(s, error) ?? [] : undefined;
  response.body = { scopes: viewed ? s.variableStore.scopes(viewed.pause, error, approval) : [] };
  s.sendResponse(response);
}

export async function variables(
  s: SessionState,
  response: DebugProtocol.VariablesResponse,
  args: DebugProtocol.VariablesArguments,
): Promise<void> {
  response.body = { variables: s.held ? await s.variableStore.variables(args.variablesReference) : [] };
  s.sendResponse(response);
}

/** Evaluates a plan expression in the paused step's scope: `name.field` or `{"ref": ...}` JSON. */
export async function evaluate(
  s: SessionState,
  response: DebugProtocol.EvaluateResponse,
  args: DebugProtocol.EvaluateArguments,
): Promise<void> {
  // The step shown: after Step Back in a recorded run, an earlier one (its bindings as they were).
  const shown = s.held ? s.viewed() : undefined;
  if (!shown) return s.fail(response, "the run is not paused: pause it or stop at a breakpoint to evaluate");
  const parsed = parseDebugExpression(args.expression);
  if (!parsed.ok) return s.fail(response, parsed.message);
  const result = shown.pause.evaluate(parsed.expr);
  if (!result.ok) return s.fail(response, result.error.message);
  const variable = await s.variableStore.variable("result", result.value);
  response.body = {
    result: variable.value,
    variablesReference: variable.variablesReference,
    ...(variable.type ? { type: variable.type } : {}),
  };
  s.sendResponse(response);
}

export function exceptionInfo(s: SessionState, response: DebugProtocol.ExceptionInfoResponse): void {
  const error = s.held?.error;
  if (!error) return s.fail(response, "the run did not stop on an error");
  response.body = {
    exceptionId: error.kind,
    description: error.message,
    breakMode: s.exceptionFilters.has("all") ? "always" : "userUnhandled",
    details: {
      message: error.message,
      typeName: `${error.phase}/${error.kind}`,
      stackTrace: preview({ ...error } as never),
    },
  };
  s.sendResponse(response);
}

/** A step as the call stack and the console name it: its operation and what it binds. */
export function stepName(steps: ReadonlyMap<string, StepLine>, path: readonly (string | number)[]): string {
  const line = steps.get(stepKey(path));
  if (!line) return path.join(".");
  const step = line.step;
  return `${operationName(step)}${"bind" in step ? ` -> ${step.bind}` : ""}`;
}

function frameName(frame: RunFrame, steps: ReadonlyMap<string, StepLine>): string {
  if (frame.kind === "root") return "plan";
  const opener = steps.get(stepKey(frame.step))?.step;
  const bind = opener && "bind" in opener ? ` ${opener.bind}` : "";
  switch (frame.kind) {
    case "rlm":
      return `rlm${bind}`;
    case "branch":
      return `parallel${bind} branch ${frame.branch}`;
    case "attempt":
      return `retry${bind} attempt ${frame.attempt}/${frame.attempts}`;
  }
}
