// One job on a worker: the plan session opened with the job's plan text under the WORKER's host
// profile (capabilities, budget, tools, providers are the profile's; the job only gives inputs
// and mocks), the run through the session like every front end's (recorded in the worker's
// journal and traced as its profile says), its events sent to the submitter as they happen, and
// the result sent back masked, naming the journal entry. A retried job (its worker died)
// continues the journal entry of its earlier attempt when that journal is shared with this
// worker (the session's resume): completed steps' calls are answered from it, not made again.

import type { Job } from "bullmq";
import type { Redis } from "ioredis";
import type { JsonObject } from "@rlm-plan/core/json";
import type { HostProfile } from "@rlm-plan/core/host";
import { estimatePlan, parsePlan } from "@rlm-plan/core/plan";
import type { RunObserver, RunReport } from "@rlm-plan/core/run";
import type { SecretMask } from "@rlm-plan/core/secrets";
import {
  jobAwaitingApproval,
  openPlanSession,
  unfinishedJobRun,
  type PlanSession,
  type RunLife,
  type SessionRun,
} from "@rlm-plan/core/session";
import { judgeRun, runAnsweringApprovals, stepWatcher, waitsForApproval } from "@rlm-plan/core/testing";
import { handBackWaiting, WAITING_LINE } from "./approvalWait";
import { bullmq } from "./bullmq";
import { ceilingObserver } from "./fleetCeiling";
import { styleFor } from "../output";
import { runEventPrinter } from "../runEventPrinter";
import { UnparseableJobData } from "./planWorker";
import {
  JOB_VERSION,
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
  readonly name: string;
  readonly queue: string;
  readonly env: NodeJS.ProcessEnv;
  readonly mask: SecretMask;
  /** For fleet ceilings' counters. */
  readonly redis: Redis;
  /** The worker's journal folder (--journal DIR or the profile's), or false (--no-journal, or the profile's off). */
  readonly journal: false | { readonly dir: string };
  readonly say: (line: string) => void;
}

/**
 * Whether the job's run waits for votes not yet given (it was handed back and is looked at
 * again): the worker then hands it back once more, opening and running nothing.
 */
export function awaitsApproval(job: Job, context: WorkerContext): boolean {
  if (!context.journal || job.attemptsStarted <= 1 || job.data instanceof UnparseableJobData) return false;
  const read = readPlanJob(job.data);
  return (
    read.ok && read.job.kind === "run" && jobAwaitingApproval(context.journal.dir, jobKeyOf(job, context)) !== undefined
  );
}

export async function runPlanJob(
  job: Job,
  token: string | undefined,
  context: WorkerContext,
  signal: AbortSignal,
): Promise<PlanJobResult> {
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
  const base = { v: JOB_VERSION, worker: context.name, attempt } as const;
  const refusal = session.staticRefusal();
  // Refused at its check: a value of the job's result (the job completes, so it is never retried).
  if (refusal && planJob.kind === "run") {
    const result: PlanJobResult = { ...base, kind: "refused", report: remoteReport(refusal) };
    return context.mask.maskValue(result as unknown as JsonObject) as unknown as PlanJobResult;
  }

  const observers: RunObserver[] = [];
  if (planJob.ceiling) observers.push(ceilingObserver(context.redis, context.queue, planJob.ceiling, session.mocks));
  let progress: Promise<unknown> = Promise.resolve();
  const steps = stepWatcher();
  const sent: RunObserver = {
    event: (event) => {
      if (planJob.kind !== "run") return;
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
  const runOptions = (watch: typeof steps) => ({
    signal,
    ...(planJob.parallel ? { parallel: planJob.parallel } : {}),
    observers: [...observers, watch.observer, sent, logged.observer],
  });
  const { run: first, resumed, life } = startJobRun(job, planJob, session, context, runOptions(steps));
  // A case's run waits for no one: its own votes are cast here and it is resumed on this worker.
  const played =
    planJob.kind === "case"
      ? await runAnsweringApprovals(
          { run: first, steps },
          planJob.approvals ?? [],
          planJob.expect ?? {},
          (continued, clock) => {
            const watch = stepWatcher();
            const again = session.resume(continued, {
              ...runOptions(watch),
              life: { ...life, ...(clock ? { clock } : {}) },
            });
            return again.ok ? { ok: true, running: { run: again.run, steps: watch } } : again;
          },
          signal,
        )
      : { report: await first.done, running: { run: first, steps }, failures: [] };
  const { report } = played;
  const run = played.running.run;
  await progress;
  await run.settled(signal);
  if (planJob.kind === "run" && waitsForApproval(report))
    return handBackWaiting(job, token, () => context.say(`job ${job.id ?? "?"}: ${WAITING_LINE}`));
  const recorded = run.recorded ? { recorded: { dir: run.recorded.dir, id: run.recorded.id } } : {};
  const continued = resumed && run.recorded ? { resumed: run.recorded.id } : {};
  if (planJob.kind === "run") {
    const result: PlanJobResult = { ...base, ...continued, ...recorded, kind: "run", report: remoteReport(report) };
    return context.mask.maskValue(result as unknown as JsonObject) as unknown as PlanJobResult;
  }
  const plan = parsePlan({ kind: "document", text: planJob.plan.text }).plan;
  const judged = judgeRun(
    planJob.expect ?? {},
    plan ? estimatePlan(plan) : undefined,
    report,
    played.running.steps,
    played,
  );
  const result: PlanJobResult = {
    ...base,
    ...continued,
    ...recorded,
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
 * The job's run through the session: a retried job continues its earlier attempt's journal entry
 * when this worker can see it (a journal shared by the workers) and its plan and host profile are
 * the same; otherwise it runs anew. A journal that fails never stops the job.
 */
function startJobRun(
  job: Job,
  planJob: PlanJob,
  session: PlanSession,
  context: WorkerContext,
  options: Omit<Parameters<PlanSession["run"]>[0], "life">,
): { run: SessionRun; resumed: boolean; life: RunLife } {
  const jobKey = jobKeyOf(job, context);
  const say = (message: string) => context.say(`job ${job.id ?? "?"}: ${message}`);
  // An iteration of a schedule (BullMQ's job scheduler NAME made it): journaled as such, labelled NAME.
  const schedule = job.repeatJobKey;
  const life: RunLife = {
    ...(schedule ? { origin: "schedule", label: schedule } : { origin: "worker" }),
    planName: planJob.plan.name,
    journal: context.journal,
    given: { job: jobKey, attempt: Math.max(1, job.attemptsStarted), worker: context.name },
    onNotice: say,
  };
  if (context.journal && job.attemptsStarted > 1) {
    try {
      const earlier = unfinishedJobRun(context.journal.dir, jobKey);
      if (earlier) {
        const resumed = session.resume(earlier, { ...options, life });
        if (resumed.ok) return { run: resumed.run, resumed: true, life };
      }
    } catch (error) {
      say(`its earlier attempt cannot be continued: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { run: session.run({ ...options, life }), resumed: false, life };
}

/** The job as its runs are recorded in the journal: "QUEUE/ID". */
function jobKeyOf(job: Job, context: WorkerContext): string {
  return `${context.queue}/${job.id ?? ""}`;
}
