// One job on a worker: the plan session opened with the job's plan text under the WORKER's host
// profile (capabilities, budget, tools, providers are the profile's; the job only gives inputs
// and mocks), the run through the one pipeline (session.run), its events sent to the submitter
// as they happen, recorded in the worker's journal, and the result sent back masked. A retried
// job (its worker died) continues the journal entry of its earlier attempt when that journal is
// shared with this worker: completed steps' calls are answered from it, not made again.

import type { Job } from "bullmq";
import type { Redis } from "ioredis";
import {
  checkSameInputs,
  type JournalStore,
  resumePoint,
  type ResumePoint,
  ResumeRefusal,
  RunRecorder,
} from "@rlm-plan/core/journal";
import type { JsonObject } from "@rlm-plan/core/json";
import type { HostProfile } from "@rlm-plan/core/host";
import { estimatePlan, parsePlan } from "@rlm-plan/core/plan";
import type { RunEvent, RunObserver, RunReport } from "@rlm-plan/core/run";
import type { SecretMask } from "@rlm-plan/core/secrets";
import { openPlanSession, type PlanSession } from "@rlm-plan/core/session";
import { judgeRun, stepWatcher } from "@rlm-plan/core/testing";
import { bullmq } from "./bullmq";
import { ceilingObserver } from "./fleetCeiling";
import { styleFor } from "../output";
import { runEventPrinter } from "../runEventPrinter";
import { UnparseableJobData } from "./planWorker";
import {
  JOB_VERSION,
  MAX_RETURNED_EVENTS,
  readPlanJob,
  type JobProgress,
  type PlanJob,
  type PlanJobResult,
  type RemoteRunReport,
} from "./planJob";

/** What every job of one worker shares. */
export interface WorkerContext {
  /** The worker's host profile (absolute): the only source of capabilities, tools and providers. */
  readonly profileFile: string;
  /** It, read once when the worker started (a changed profile takes a restart). */
  readonly profile: HostProfile;
  /** Its text, for the journal's record (read once too). */
  readonly profileText: string;
  readonly name: string;
  readonly queue: string;
  readonly env: NodeJS.ProcessEnv;
  readonly mask: SecretMask;
  /** For fleet ceilings' counters. */
  readonly redis: Redis;
  /** The worker's journal, unless --no-journal. */
  readonly journal: JournalStore | undefined;
  readonly say: (line: string) => void;
}

/** A run job's plan failed its check on the worker: the job fails at once (never retried), with the report. */
export const REFUSED_PREFIX = "rlm-plan: the plan was refused on the worker: ";

export async function runPlanJob(job: Job, context: WorkerContext, signal: AbortSignal): Promise<PlanJobResult> {
  const { UnrecoverableError } = bullmq();
  if (job.data instanceof UnparseableJobData)
    throw new UnrecoverableError(`malformed job: job ${job.id ?? "?"}'s stored data is not JSON (${job.data.reason})`);
  const read = readPlanJob(job.data);
  if (!read.ok) throw new UnrecoverableError(`malformed job: ${read.message}`);
  const planJob = read.job;
  const attempt = Math.max(1, job.attemptsStarted);
  const opened = await openPlanSession({
    text: planJob.plan.text,
    hostProfile: context.profileFile,
    profile: { ok: true, profile: context.profile },
    env: context.env,
    mask: context.mask,
    ...(planJob.inputs ? { inputValues: planJob.inputs } : {}),
    ...(planJob.mocks ? { mocks: { value: planJob.mocks, name: `${planJob.plan.name} (the job's mocks)` } } : {}),
  });
  if (!opened.ok) {
    const { failure } = opened;
    if (failure.kind === "invalid_mocks") {
      const first = failure.errors[0];
      throw new UnrecoverableError(`malformed job: the job's mocks: ${first ? first.message : "not a mocks object"}`);
    }
    // The worker's own profile went missing or bad since it started: another worker may run the job.
    throw new Error(
      `this worker cannot run jobs: ${failure.kind === "no_host_profile" ? failure.message : `the host profile ${failure.kind === "invalid_host_profile" ? failure.file : ""} is invalid`}`,
    );
  }
  const session = opened.session;
  const refusal = session.staticRefusal();
  if (refusal && planJob.kind === "run")
    throw new UnrecoverableError(`${REFUSED_PREFIX}${JSON.stringify(remoteReport(refusal))}`);

  const base = { v: JOB_VERSION, worker: context.name, attempt } as const;
  const recording = startJobRecording(job, planJob, session, context);
  const observers: RunObserver[] = recording ? [recording.recorder] : [];
  if (planJob.ceiling) observers.push(ceilingObserver(context.redis, context.queue, planJob.ceiling, session.mocks));
  const events: RunEvent[] = [];
  let progress: Promise<unknown> = Promise.resolve();
  const steps = stepWatcher();
  const sent: RunObserver = {
    event: (event) => {
      if (planJob.kind !== "run") return;
      if (events.length < MAX_RETURNED_EVENTS) events.push(event);
      const message: JobProgress = { attempt, worker: context.name, event };
      // In order, and never failing the run: a lost progress message loses a line of output only.
      progress = progress.then(() =>
        job.updateProgress(context.mask.maskValue(message as unknown as JsonObject)).catch(() => undefined),
      );
    },
  };
  // The worker's log shows each job's steps as `run` prints them, failed retry attempts included.
  const logged = runEventPrinter(
    { file: planJob.plan.name, text: planJob.plan.text },
    {
      json: false,
      mocked: session.mocks !== undefined,
      style: styleFor({ isTTY: false }, {}),
      textOut: (line) => context.say(`job ${job.id ?? "?"}: ${line.trimEnd()}`),
    },
  );
  const started = performance.now();
  const handle = session.run({
    signal,
    ...(planJob.parallel ? { parallel: planJob.parallel } : {}),
    observers: [...observers, steps.observer, sent, logged.observer],
  });
  const report = await handle.done;
  await progress;
  const resumed = recording?.resumed ? { resumed: recording.recorder.runId } : {};
  if (planJob.kind === "run") {
    const result: PlanJobResult = { ...base, ...resumed, kind: "run", report: remoteReport(report), events };
    return context.mask.maskValue(result as unknown as JsonObject) as unknown as PlanJobResult;
  }
  const plan = parsePlan({ kind: "document", text: planJob.plan.text }).plan;
  const judged = judgeRun(planJob.expect ?? {}, plan ? estimatePlan(plan) : undefined, report, steps);
  const result: PlanJobResult = {
    ...base,
    ...resumed,
    kind: "case",
    verdict: { ...judged, answered: session.mocks ? "mocks" : "live" },
    duration_ms: Math.round(performance.now() - started),
  };
  return context.mask.maskValue(result as unknown as JsonObject) as unknown as PlanJobResult;
}

/** The report as JSON carries it (no validated plan, no host errors' functions). */
function remoteReport(report: RunReport): RemoteRunReport {
  return {
    outcome: report.outcome,
    stage: report.stage,
    mocked: report.mocked,
    ...(report.budget ? { budget: report.budget } : {}),
    ...(report.location ? { location: { line: report.location.line, column: report.location.column } } : {}),
  };
}

/**
 * The job's entry in the worker's journal: a retried job continues its earlier attempt's entry
 * when this worker can see it (a journal shared by the workers) and its plan and host profile
 * are the same; otherwise it runs anew. A journal that fails never stops the job.
 */
function startJobRecording(
  job: Job,
  planJob: PlanJob,
  session: PlanSession,
  context: WorkerContext,
): { recorder: RunRecorder; resumed: boolean } | undefined {
  const store = context.journal;
  if (!store) return undefined;
  const jobKey = `${context.queue}/${job.id ?? ""}`;
  try {
    const meta = {
      origin: "worker" as const,
      plan: { file: planJob.plan.name, text: planJob.plan.text },
      hostProfile: { file: context.profileFile, text: context.profileText },
      options: { job: jobKey, attempt: Math.max(1, job.attemptsStarted), worker: context.name } as JsonObject,
      mask: session.mask,
      onNotice: (message: string) => context.say(`job ${job.id ?? "?"}: ${message}`),
    };
    const point = job.attemptsStarted > 1 ? earlierAttempt(store, jobKey, planJob, meta.hostProfile) : undefined;
    if (point) return { recorder: RunRecorder.resume(store, point, meta), resumed: true };
    return { recorder: RunRecorder.begin(store, meta), resumed: false };
  } catch (error) {
    context.say(
      `job ${job.id ?? "?"}: this run is not recorded: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

function earlierAttempt(
  store: JournalStore,
  jobKey: string,
  planJob: PlanJob,
  hostProfile: { file: string; text: string },
): ResumePoint | undefined {
  const row = store.db
    .prepare(
      "SELECT id FROM runs WHERE origin = 'worker' AND status <> 'ok' AND status <> 'failed' AND json_extract(details, '$.options.job') = ? ORDER BY id DESC LIMIT 1",
    )
    .get(jobKey) as { id: number } | undefined;
  if (!row) return undefined;
  try {
    const point = resumePoint(store, row.id);
    checkSameInputs(point, planJob.plan.text, hostProfile);
    return point;
  } catch (error) {
    if (error instanceof ResumeRefusal) return undefined;
    throw error;
  }
}
