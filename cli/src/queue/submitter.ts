// The submitting side of a queue (`run --queue`, `test --queue`): jobs added under ids of this
// submission, each job's progress (its run's events) and its end (result or failure) routed to
// the caller exactly once per job, however many workers tried it. Ends come from BullMQ's event
// stream (QueueEvents, listened to before the first job is added) and, as a safety net, from
// reading the jobs still open every few seconds; the first word on a job wins.

import { randomUUID } from "node:crypto";
import type { Job, JobsOptions, Queue, QueueEvents } from "bullmq";
import { answeredWithin, bullmq, connectClient, connectionOf, KEY_PREFIX } from "./bullmq";
import type { JobProgress, PlanJob, PlanJobResult } from "./planJob";
import type { QueueAddress } from "./queueUrl";

export type JobEnd =
  | { readonly ok: true; readonly result: PlanJobResult }
  | { readonly ok: false; readonly reason: string; readonly attempts: number; readonly vanished?: true };

export interface SubmissionListener {
  progress?(index: number, progress: JobProgress): void;
  end(index: number, end: JobEnd): void;
}

/**
 * How every plan job is queued, submitted or made by a schedule: a job of one failed start (a
 * worker that threw, or handed the job back) is tried 3 times; ended jobs are kept a day (done)
 * or a week (failed) for the fleet's views, then dropped.
 */
export const QUEUED_JOB_OPTIONS = {
  attempts: 3,
  removeOnComplete: { age: 24 * 3600 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const satisfies JobsOptions;
const RECONCILE_MS = 2000;

export class QueueSubmitter {
  /** This submission's id: job ids are ID-INDEX. */
  readonly id = randomUUID();
  private readonly open = new Map<string, number>();
  private listener: SubmissionListener | undefined;
  private timer: NodeJS.Timeout | undefined;
  private allEnded: (() => void) | undefined;
  private reconciling = false;

  private constructor(
    private readonly queue: Queue,
    private readonly events: QueueEvents,
  ) {}

  /** Connects (or throws the connection's error, never with its password). */
  static async connect(address: QueueAddress): Promise<QueueSubmitter> {
    // Asked once first: a wrong address or password is said at once, not retried forever.
    (await connectClient(address)).disconnect();
    const { Queue, QueueEvents } = bullmq();
    const queue = new Queue(address.queue, { connection: connectionOf(address, "commands"), prefix: KEY_PREFIX });
    const events = new QueueEvents(address.queue, {
      connection: connectionOf(address, "blocking"),
      prefix: KEY_PREFIX,
    });
    queue.on("error", () => undefined);
    events.on("error", () => undefined);
    await answeredWithin(address, Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), () => {
      void queue.disconnect();
      void events.disconnect();
    });
    return new QueueSubmitter(queue, events);
  }

  /** Adds the jobs and resolves when every one has ended (each end told once), or `signal` aborts. */
  async run(jobs: readonly PlanJob[], listener: SubmissionListener, signal?: AbortSignal): Promise<void> {
    this.listener = listener;
    const ended = new Promise<void>((resolve) => (this.allEnded = resolve));
    this.events.on("progress", ({ jobId, data }: { jobId: string; data: unknown }) => {
      const index = this.open.get(jobId);
      if (index !== undefined && data !== null && typeof data === "object")
        this.listener?.progress?.(index, data as JobProgress);
    });
    this.events.on("completed", ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
      this.settle(jobId, { ok: true, result: parsed(returnvalue) as PlanJobResult }),
    );
    this.events.on("failed", ({ jobId, failedReason }: { jobId: string; failedReason: string }) => {
      if (!this.open.has(jobId)) return;
      void this.queue.getJob(jobId).then((job) => this.settle(jobId, failure(job, failedReason)));
    });
    const options: JobsOptions = QUEUED_JOB_OPTIONS;
    jobs.forEach((_job, index) => this.open.set(`${this.id}-${index}`, index));
    for (let start = 0; start < jobs.length; start += 500)
      await this.queue.addBulk(
        jobs.slice(start, start + 500).map((data, i) => ({
          name: data.kind,
          data,
          opts: { ...options, jobId: `${this.id}-${start + i}` },
        })),
      );
    if (jobs.length === 0) return;
    this.timer = setInterval(() => void this.reconcile(), RECONCILE_MS);
    const aborted = new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
    await Promise.race([ended, aborted]);
  }

  /** How many workers listen on the queue now (BullMQ's client list). */
  async workers(): Promise<number> {
    return this.queue.getWorkersCount().catch(() => -1);
  }

  /** Removes the jobs no worker has taken yet (a cancelled submission). */
  async withdraw(): Promise<number> {
    let removed = 0;
    for (const id of this.open.keys()) {
      const job = await this.queue.getJob(id);
      if (job && (await job.getState()) === "waiting") {
        await job.remove().then(
          () => removed++,
          () => undefined,
        );
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([this.events.close(), this.queue.close()]);
  }

  private settle(jobId: string, end: JobEnd): void {
    const index = this.open.get(jobId);
    if (index === undefined) return;
    this.open.delete(jobId);
    this.listener?.end(index, end);
    if (this.open.size === 0) this.allEnded?.();
  }

  /**
   * Jobs whose end the event stream did not bring (a reconnect, a trimmed stream) are read; a job
   * Redis no longer has (restarted empty, flushed) ends as vanished: no worker will ever end it.
   * Every read has the Queue's command timeout, so a silent Redis never stalls this.
   */
  private async reconcile(): Promise<void> {
    if (this.reconciling) return;
    this.reconciling = true;
    try {
      for (const id of [...this.open.keys()]) await this.reconcileJob(id);
    } finally {
      this.reconciling = false;
    }
  }

  private async reconcileJob(id: string): Promise<void> {
    const job = await this.queue.getJob(id).catch(() => "unknown" as const);
    if (job === "unknown") return;
    if (!job) {
      this.settle(id, {
        ok: false,
        reason: `job ${id} vanished from the queue: Redis no longer has it (restarted empty, or flushed), so no worker will end it`,
        attempts: 0,
        vanished: true,
      });
      return;
    }
    if (job.finishedOn !== undefined && job.returnvalue !== null && job.returnvalue !== undefined && !job.failedReason)
      this.settle(id, { ok: true, result: parsed(job.returnvalue) as PlanJobResult });
    else if (job.finishedOn !== undefined && job.failedReason && (await job.isFailed().catch(() => false)))
      this.settle(id, failure(job, job.failedReason));
  }
}

/** A failed job's end in words: how often it was tried and why, or that it vanished. */
export function failedJobText(end: JobEnd & { ok: false }): string {
  if (end.vanished) return end.reason;
  return `the job failed on the queue after ${end.attempts} attempt${end.attempts === 1 ? "" : "s"}: ${end.reason}`;
}

function failure(job: Job | undefined, reason: string): JobEnd {
  return { ok: false, reason, attempts: job?.attemptsStarted ?? job?.attemptsMade ?? 1 };
}

function parsed(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
