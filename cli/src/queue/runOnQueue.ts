// `rlm-plan run PLAN --queue URL`: the plan sent as one job, run by whichever worker takes it
// under that worker's host profile; its events come back as they happen (printed as a local run
// prints them) and its report at the end, then go into the submitting workspace's journal. A
// plan the worker refuses at its check comes back as that refusal (never retried); a job a
// worker died on is run again by another one, and the attempt is said.

import { observedReport, type ParallelMode, type RunEvent, type RunObserver, type RunReport } from "@rlm-plan/core/run";
import type { JsonObject } from "@rlm-plan/core/json";
import type { RunRecorder } from "@rlm-plan/core/journal";
import { JOB_VERSION, type RemoteRunReport } from "./planJob";
import type { QueueAddress } from "./queueUrl";
import { failedJobText, QueueSubmitter, type JobEnd } from "./submitter";
import { REFUSED_PREFIX } from "./workerJob";

export interface QueueRunOptions {
  readonly address: QueueAddress;
  readonly plan: { readonly name: string; readonly text: string };
  readonly mocks?: JsonObject;
  /** Input values the job carries (--input-text, --input-json, --inputs). */
  readonly inputs?: JsonObject;
  readonly parallel?: ParallelMode;
  readonly signal: AbortSignal;
  /** Hears the run's events as the worker sends them, as a local run's observers do. */
  readonly observer: RunObserver;
  /** A note for the user (which worker took the job, a new attempt). */
  readonly say: (line: string) => void;
  /** The submitting workspace's journal entry, written when the report comes back. */
  readonly recorder?: RunRecorder;
}

export type QueueRunResult =
  | { readonly kind: "report"; readonly report: RunReport; readonly worker: string; readonly attempt: number }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "cancelled" };

export async function runOnQueue(options: QueueRunOptions): Promise<QueueRunResult> {
  const submitter = await QueueSubmitter.connect(options.address);
  if ((await submitter.workers()) === 0)
    options.say(
      `no worker listens on ${options.address.shown} yet: the job waits for one (rlm-plan worker --queue URL)`,
    );
  let attempt = 0;
  let end: JobEnd | undefined;
  try {
    await submitter.run(
      [
        {
          v: JOB_VERSION,
          kind: "run",
          plan: options.plan,
          ...(options.inputs ? { inputs: options.inputs } : {}),
          ...(options.mocks ? { mocks: options.mocks } : {}),
          ...(options.parallel ? { parallel: options.parallel } : {}),
        },
      ],
      {
        progress: (_index, progress) => {
          if (progress.attempt !== attempt) {
            attempt = progress.attempt;
            options.say(
              `worker ${progress.worker} runs the job${attempt > 1 ? ` (attempt ${attempt}: an earlier worker stopped)` : ""}`,
            );
          }
          const event = progress.event;
          // Only the attempt in force prints: a dead worker's late words are not this run's.
          if (progress.attempt < attempt) return;
          options.observer.event?.(event);
        },
        end: (_index, ended) => {
          end = ended;
        },
      },
      options.signal,
    );
    if (!end) {
      await submitter.withdraw();
      return { kind: "cancelled" };
    }
  } finally {
    await submitter.close();
  }
  const ended = end as JobEnd;
  if (!ended.ok) {
    if (ended.reason.startsWith(REFUSED_PREFIX)) {
      const report = JSON.parse(ended.reason.slice(REFUSED_PREFIX.length)) as RemoteRunReport;
      await record(options.recorder, [], report);
      return { kind: "report", report: report as RunReport, worker: "", attempt: ended.attempts };
    }
    return { kind: "failed", message: failedJobText(ended) };
  }
  const result = ended.result;
  if (result.kind !== "run") return { kind: "failed", message: "the worker answered with another kind of result" };
  await record(options.recorder, result.events, result.report);
  return { kind: "report", report: result.report as RunReport, worker: result.worker, attempt: result.attempt };
}

/** The run's events and end into the submitting workspace's journal. */
async function record(
  recorder: RunRecorder | undefined,
  events: readonly RunEvent[],
  report: RemoteRunReport,
): Promise<void> {
  if (!recorder) return;
  for (const event of events) recorder.event(event);
  // On disk before the submitter says "recorded as run N" (the journal's group commit).
  await recorder.finished(observedReport(report as RunReport));
}
