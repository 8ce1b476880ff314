// Where the run stops and how it goes on: the interpreter's pause hooks (a restart's target,
// a pause or step request, breakpoints, exception filters, a call held for approval:
// pendingApproval.ts), holding a step, and the resume
// requests, which in a recorded run go forward and back through the steps seen (timeTravel.ts).

import { StoppedEvent } from "@vscode/debugadapter";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { stepKey } from "@rlm-plan/core/debug";
import { type PlanError } from "@rlm-plan/core";
import { type StepPause } from "@rlm-plan/core/run";
import { stepName } from "./inspection";
import { approvalStop, isHeldForApproval } from "./pendingApproval";
import { THREAD_ID, type SessionState } from "./sessionState";
import { steppingStops, stopReason, type StepMode } from "./stepping";
import type { TimeTravel } from "./timeTravel";

export function beforeStep(s: SessionState, pause: StepPause): Promise<void> | undefined {
  s.travel?.reached(pause);
  // A run resumed after an approval goes through the steps the held run went through unstopped.
  s.passing.seen += 1;
  if (s.passing.seen <= s.passing.skip) return undefined;
  if (s.restartAt !== undefined) {
    // A restarted run passes the steps before the restarted one without stopping.
    if (stepKey(pause.path) !== s.restartAt) return undefined;
    s.restartAt = undefined;
    return hold(s, pause, undefined, new StoppedEvent("restart", THREAD_ID));
  }
  const depth = pause.frames.length;
  if (s.pauseRequested || steppingStops(s.stepping, depth)) {
    const mode = s.pauseRequested ? "pause" : s.stepping.mode;
    s.pauseRequested = false;
    const reason = s.entryStop ? "entry" : stopReason(mode);
    s.entryStop = false;
    return hold(s, pause, undefined, new StoppedEvent(reason, THREAD_ID));
  }
  s.entryStop = false;
  const hit = s.breakpoints.check(s.program, pause);
  if (hit.stop) {
    const event = new StoppedEvent("breakpoint", THREAD_ID) as DebugProtocol.StoppedEvent;
    event.body.hitBreakpointIds = [...hit.ids];
    return hold(s, pause, undefined, event);
  }
  if (hit.conditionError)
    s.output("stderr", `breakpoint condition at ${stepName(s.steps, pause.path)}: ${hit.conditionError}\n`);
  return undefined;
}

export function onStepFailed(s: SessionState, pause: StepPause, error: PlanError): Promise<void> | undefined {
  if (s.passing.seen < s.passing.skip) return undefined;
  // A call held for approval stops at its step whatever the filters: the action is in its variables.
  if (isHeldForApproval(error)) return hold(s, pause, error, approvalStop(s, error));
  if (!s.exceptionFilters.has("all") && !s.exceptionFilters.has(error.kind)) return undefined;
  const event = new StoppedEvent("exception", THREAD_ID, error.message) as DebugProtocol.StoppedEvent;
  event.body.description = `${error.kind}: ${error.message}`;
  return hold(s, pause, error, event);
}

/** Stops the run before the paused step until a continue or step command. */
function hold(
  s: SessionState,
  pause: StepPause,
  error: PlanError | undefined,
  event: DebugProtocol.StoppedEvent,
): Promise<void> {
  return new Promise<void>((resolve) => {
    s.held = {
      pause,
      error,
      resume: (mode) => {
        s.held = undefined;
        s.variableStore.reset();
        s.stepping = { mode, from: pause.frames.length };
        resolve();
      },
    };
    s.sendEvent(event);
  });
}

/** continue, next, stepIn, stepOut: the held run goes on (a recorded run first through the steps seen). */
export function resume(s: SessionState, response: DebugProtocol.Response, mode: StepMode): void {
  if (s.travel?.inThePast) return travelForward(s, response, mode);
  if (response.command === "continue")
    (response as DebugProtocol.ContinueResponse).body = { allThreadsContinued: true };
  s.sendResponse(response);
  if (s.held) s.held.resume(mode);
  else s.stepping = { mode, from: s.stepping.from };
}

export function pause(s: SessionState, response: DebugProtocol.PauseResponse): void {
  // The run stops before its next step (a running tool or model call finishes first).
  if (!s.held) s.pauseRequested = true;
  s.sendResponse(response);
}

/** A recorded run, shown at an earlier step: forward through what was seen, then on with the replay. */
function travelForward(s: SessionState, response: DebugProtocol.Response, mode: StepMode): void {
  const travel = s.travel as TimeTravel;
  if (mode === "continue") {
    const hit = travel.forwardTo((p) => s.breakpoints.has(s.program, p.path));
    if (!hit) return resume(s, response, mode);
    (response as DebugProtocol.ContinueResponse).body = { allThreadsContinued: true };
    s.sendResponse(response);
    return showTravelled(s, "breakpoint");
  }
  travel.forward();
  s.sendResponse(response);
  showTravelled(s, "step");
}

function showTravelled(s: SessionState, reason: string): void {
  s.variableStore.reset();
  s.sendEvent(new StoppedEvent(reason, THREAD_ID));
}

export function stepBack(s: SessionState, response: DebugProtocol.StepBackResponse): void {
  if (!s.travel) return s.fail(response, "step back works in a recorded run (Debug Recorded Run)");
  if (!s.held) return s.fail(response, "the run is not paused");
  s.travel.back();
  s.sendResponse(response);
  showTravelled(s, "step");
}

export function reverseContinue(s: SessionState, response: DebugProtocol.ReverseContinueResponse): void {
  if (!s.travel) return s.fail(response, "reverse continue works in a recorded run (Debug Recorded Run)");
  if (!s.held) return s.fail(response, "the run is not paused");
  const hit = s.travel.backTo((p) => s.breakpoints.has(s.program, p.path));
  s.sendResponse(response);
  showTravelled(s, hit ? "breakpoint" : "entry");
}
