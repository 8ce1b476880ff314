// One recorded run as its page shows it (`rlm-plan ui`) and as `runs export --format html`
// writes it: the journal's run (queries.ts), its steps as `runs diff` reads them
// (recordedSteps.ts), its calls on a timeline, and its plan graph drawn by the editor's renderer
// (graph/svg.ts) with each step's state. Nothing is computed here that the core already says.

import { analyzePlanText } from "@rlm-plan/core/analysis";
import { buildPlanGraph, pathId, type GraphOptions } from "@rlm-plan/core/graph";
import { pointer, type JsonPath } from "@rlm-plan/core/json";
import { runDetail, stepsOf, stepStarts, type JournalStore, type RunDetail } from "@rlm-plan/core/journal";
import type { StepOutcome } from "@rlm-plan/core/journal";
import { recordedApprovalForecast, recordedWorstCase } from "@rlm-plan/core/session";
import type { RunView, RunViewCall, RunViewStep } from "./uiApi";

/**
 * A step's state in the graph, by its recorded status: the classes the editor's graph styles. A
 * step a running run has not reached yet has none (it is not skipped, only not yet run).
 */
function graphState(status: StepOutcome["status"], running: boolean): string | undefined {
  switch (status) {
    case "ok":
      return "ok";
    case "failed":
      return "failed";
    case "unfinished":
      return running ? "running" : "cancelled";
    case "not run":
      return running ? undefined : "skipped";
  }
}

/** The run's view, or undefined when the journal has no such run. */
export async function runView(store: JournalStore, id: number): Promise<RunView | undefined> {
  const run = runDetail(store, id);
  return run ? viewOf(run) : undefined;
}

export async function viewOf(run: RunDetail): Promise<RunView> {
  const outcomes = stepsOf(run);
  const starts = stepStarts(run);
  const worst = recordedWorstCase(run);
  const last = run.events.reduce((max, e) => Math.max(max, e.segment), 1);
  // Steps and calls on one clock, the journal's: from the run's recorded start.
  const offset = clockOffset(run, last);
  const steps: RunViewStep[] = [...outcomes].map(([key, outcome]) => {
    const path = JSON.parse(key) as JsonPath;
    const at = pointer(path);
    const id = pathId(path);
    const start = starts.get(key);
    const startedMs = start === undefined ? null : start + offset;
    return { ...outcome, pointer: at, id, startedMs, worstCase: worst.steps.get(at) ?? null };
  });
  const calls: RunViewCall[] = run.calls
    .filter((call) => call.segment === last)
    .map((call) => ({
      kind: call.kind,
      name: call.name,
      model: call.model,
      step: Array.isArray(call.path) ? pointer(call.path as JsonPath) : "",
      status: call.status,
      // The journal records a call's elapsed time when it begins (recorder.ts), on its own clock.
      startedMs: call.elapsedMs,
      durationMs: call.durationMs,
      error: call.error ?? null,
    }));
  const running = run.status === "running";
  const states = Object.fromEntries(
    steps.flatMap((step) => {
      const state = graphState(step.status, running);
      return state === undefined ? [] : [[step.id, state]];
    }),
  );
  const d = run.details as Record<string, unknown>;
  const e = d["error"] as Record<string, unknown> | undefined;
  return {
    run: summaryOf(run),
    planDigest: run.planDigest,
    hostFile: run.hostFile,
    planText: run.planText,
    graphSvg: run.planText === null ? null : await graphSvg(run.planText, states, recordedApprovalForecast(run)?.steps),
    steps,
    calls,
    value: "value" in d ? JSON.stringify(d["value"], null, 2) : null,
    error: e
      ? { phase: String(e["phase"] ?? ""), kind: String(e["kind"] ?? ""), message: String(e["message"] ?? "") }
      : null,
    counters: counters(d),
    forks: run.forks,
    forkOf: run.forkOf,
    worstCase: worst.run,
  };
}

/**
 * Where the run's clock (its events' elapsed_ms, from when it began to execute) starts on the
 * journal's (its calls' and its own elapsed_ms, from the recording's start: preflight comes
 * between), as the recorder wrote it (recorder.ts, clock_offset_ms). A run recorded before it
 * did: when finished in one segment, the gap at the end (both clocks end with the run); else 0.
 */
function clockOffset(run: RunDetail, segment: number): number {
  const recorded = run.details["clock_offset_ms"];
  if (typeof recorded === "number") return recorded;
  if (run.elapsedMs === null || run.segments > 1) return 0;
  let end = 0;
  for (const e of run.events) {
    const at = e.event["elapsed_ms"];
    if (e.segment === segment && typeof at === "number") end = Math.max(end, at);
  }
  return Math.max(0, run.elapsedMs - end);
}

/** The summary fields of a run (what the Runs page lists), without its texts, events and calls. */
function summaryOf(run: RunDetail): RunView["run"] {
  const { id, uid, origin, label, plan, planFile, status, stage, errorKind, startedAt, endedAt } = run;
  const { elapsedMs, segments, mocked, forkOf, usage } = run;
  return {
    id,
    uid,
    origin,
    label,
    plan,
    planFile,
    status,
    stage,
    errorKind,
    startedAt,
    endedAt,
    elapsedMs,
    segments,
    mocked,
    forkOf,
    ...(usage !== undefined ? { usage } : {}),
  };
}

const COUNTERS = ["steps", "model_calls", "tool_calls", "context_ops", "output_bytes"] as const;

/** Spent against the static worst case and the budget, as the run recorded them (runs show's table). */
function counters(details: Record<string, unknown>): RunView["counters"] {
  const of = (name: string) => (details[name] ?? {}) as Record<string, unknown>;
  const num = (value: unknown) => (typeof value === "number" ? value : null);
  return COUNTERS.map((name) => ({
    name,
    spent: num(of("spent")[name]),
    estimate: num(of("estimate")[name]),
    budget: num(of("budget")[`max_${name}`]),
  }));
}

/**
 * The plan graph as the editor draws it (same model, layout and renderer), states as classes; no
 * inline stylesheet (the page links the renderer's GRAPH_STYLE as a file). Null when the text gives
 * no graph.
 */
async function graphSvg(
  planText: string,
  states: Readonly<Record<string, string>>,
  approvals: GraphOptions["approvals"],
): Promise<string | null> {
  const analysis = analyzePlanText(planText);
  // The steps the recorded host profile's approval rules can hold are marked, as in the editor.
  const graph = buildPlanGraph(analysis, { approvals });
  if (graph.nodes.length === 0) return null;
  // The layout engine (elkjs) is loaded for a drawing only: `rlm-plan ui` starts without it.
  const { layoutPlanGraph } = await import("@rlm-plan/core/graph/layout");
  const { renderSvg } = await import("@rlm-plan/core/graph/render");
  return renderSvg(graph, await layoutPlanGraph(graph), { stylesheet: false, states });
}
