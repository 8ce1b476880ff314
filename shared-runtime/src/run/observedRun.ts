// How a run's observers (a front end's printer, the journal, the trace exporter) stand around it:
// their call wrappers joined to the run's own, told how it ended; an observer's failure never
// changes the run. Their events come from the interpreter's reporter (runEvents.ts).

import type { JsonObject } from "../json";
import { chainInterceptors, type ObservedReport, type RunObserver } from "./observer";
import type { RunReport, StartRunOptions } from "./runContract";

/** The options with every observer's call wrapper joined to the run's own. */
export function observed(options: StartRunOptions, observers: readonly RunObserver[]): StartRunOptions {
  if (observers.length === 0) return options;
  const calls = chainInterceptors([
    ...observers.flatMap((o) => (o.call ? [o.call] : [])),
    ...(options.calls ? [options.calls] : []),
  ]);
  const before = Math.max(options.elapsedBeforeMs ?? 0, ...observers.map((o) => o.elapsedBeforeMs ?? 0));
  return {
    ...options,
    ...(calls ? { calls } : {}),
    ...(before > 0 ? { elapsedBeforeMs: before } : {}),
  };
}

/** Every observer hears how the run ended; their failures are theirs. */
export async function tell(observers: readonly RunObserver[], report: RunReport): Promise<void> {
  if (observers.length === 0) return;
  const ended = observedReport(report);
  await Promise.all(
    observers.map((o) =>
      Promise.resolve()
        .then(() => o.finished?.(ended))
        .catch(() => undefined),
    ),
  );
}

/** A run's report as observers hear it (also what a queued run sends back to its submitter's journal). */
export function observedReport(report: RunReport): ObservedReport {
  const { outcome } = report;
  return {
    stage: report.stage,
    ok: outcome.ok,
    ...(outcome.ok ? { value: outcome.value } : { error: outcome.error as unknown as JsonObject }),
    ...(report.budget ? { budget: report.budget } : {}),
    remaining: { ...outcome.budget_remaining },
    checkpoints: outcome.checkpoints,
    transitions: outcome.transitions.length,
    mocked: report.mocked,
  };
}
