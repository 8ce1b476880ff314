// `rlm-plan run PLAN --queue URL`: the plan sent as one job, run by whichever worker takes it
// under that worker's host profile; its events come back as they happen (printed as a local run
// prints them) and its report at the end. The worker's journal entry is the run's one record:
// the result names it, and nothing is written here. A plan the worker refuses at its check comes
// back as that refusal, a value of the job's result (never retried); a job a worker died on is
// run again by another one, and the attempt is said.

import { heldForApprovalText } from "../runEventPrinter";
import type { ParallelMode, RunObserver, RunReport } from "@rlm-plan/core/run";
import type { JsonObject } from "@rlm-plan/core/json";
import { JOB_VERSION, type JobRecord } from "./planJob";
import type { QueueAddress } from "./queueUrl";
import { failedJobText, QueueSubmitter, type JobEnd } from "./submitter";

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
}

export type QueueRunResult =
  | {
      readonly kind: "report";
      readonly report: RunReport;
      readonly worker: string;
      readonly attempt: number;
      /** The worker's journal entry of the run. */
      readonly recorded?: JobRecord;
    }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "cancelled" };

export async function runOnQueue(options: QueueRunOptions): Promise<QueueRunResult> {
  const submitter = await QueueSubmitter.connect(options.address);
  if ((await submitter.workers()) === 0)
    options.say(
      `no worker listens on ${options.address.shown} yet: the job waits for one (rlm-plan worker --queue URL)`,
    );
  let attempt = 0;
  // The job was handed back waiting for approval (queue/approvalWait.ts): its next attempt is the votes', not a dead worker's.
  let waiting = false;
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
              waiting
                ? `worker ${progress.worker} goes on with the job: the votes decided`
                : `worker ${progress.worker} runs the job${attempt > 1 ? ` (attempt ${attempt}: an earlier worker stopped)` : ""}`,
            );
            waiting = false;
          }
          const event = progress.event;
          // Only the attempt in force prints: a dead worker's late words are not this run's.
          if (progress.attempt < attempt) return;
          const held = heldForApprovalText(event);
          if (held !== undefined && !waiting) {
            waiting = true;
            options.say(
              `${held}: approve with rlm-plan runs approve RUN --as NAME --reason TEXT against the worker's journal (runs list --status waiting); this waits until a worker goes on with the run`,
            );
          }
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
  if (!ended.ok) return { kind: "failed", message: failedJobText(ended) };
  const result = ended.result;
  // Refused at the worker's check: the report of that refusal, never retried.
  if (result.kind === "refused")
    return { kind: "report", report: result.report as RunReport, worker: "", attempt: result.attempt };
  if (result.kind !== "run") return { kind: "failed", message: "the worker answered with another kind of result" };
  return {
    kind: "report",
    report: result.report as RunReport,
    worker: result.worker,
    attempt: result.attempt,
    ...(result.recorded ? { recorded: result.recorded } : {}),
  };
}
