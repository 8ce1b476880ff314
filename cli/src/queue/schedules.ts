// Schedules: a plan run by the fleet on a cron expression, as BullMQ job schedulers. A schedule's
// job template is the job `run --queue` sends (format JOB_VERSION, the plan's text and its input
// values, checked by readPlanJob before it is stored; never a capability or a profile): each
// iteration is one job, id `repeat:NAME:MILLIS`, that a worker runs under its own host profile
// and journals with origin `schedule`, labelled NAME. The worker that takes an iteration queues
// the next one (BullMQ does this when the job becomes active), so only one iteration ever
// waits; docs/workers.md says what that means for runs missed while no worker runs.
// `listSchedules` is what `schedule list` prints, and what a fleet view reads.

import type { Queue } from "bullmq";
import type { JsonObject } from "@rlm-plan/core/json";
import { answeredWithin, bullmq, connectClient, connectionOf, KEY_PREFIX } from "./bullmq";
import { JOB_VERSION, readPlanJob, type PlanJob } from "./planJob";
import type { QueueAddress } from "./queueUrl";
import type { FleetSchedule } from "../ui/uiApi";
import { QUEUED_JOB_OPTIONS } from "./submitter";

/** A schedule's name: it is in every iteration's job id (`repeat:NAME:MILLIS`), so no ':'. */
const SCHEDULE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

export interface ScheduleSpec {
  readonly name: string;
  readonly cron: string;
  /** The IANA time zone the cron expression is read in; default UTC. */
  readonly tz?: string;
  readonly plan: { readonly name: string; readonly text: string };
  readonly inputs?: JsonObject;
}

/** One schedule as the queue holds it. */
/** One schedule as `schedule list` and the Fleet page show it (its shape is the page's, uiApi.ts). */
export type ScheduleRow = FleetSchedule;

/** Why NAME cannot name a schedule, or undefined. */
export function scheduleNameProblem(name: string): string | undefined {
  return SCHEDULE_NAME.test(name)
    ? undefined
    : `the schedule name ${JSON.stringify(name.slice(0, 100))} must be 1 to 100 letters, digits, '_', '.' or '-'`;
}

const FIELDS = ["minute", "hour", "day-of-month", "month", "day-of-week"];

/**
 * Why EXPR (read in TZ) is not a cron expression BullMQ can schedule, located at its field; or
 * undefined. The check is BullMQ's own next-time rule (cron-parser), so what passes here is what
 * the scheduler accepts.
 */
export function cronProblem(expr: string, tz: string | undefined): string | undefined {
  if (tz !== undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
    } catch {
      return `--tz ${JSON.stringify(tz)} is not an IANA time zone (for example Europe/Paris, UTC)`;
    }
  }
  const found = [...expr.matchAll(/\S+/g)];
  const fields = found.map((m) => m[0]);
  const names = fields.length === 6 ? ["second", ...FIELDS] : FIELDS;
  const form = `5 fields (${FIELDS.join(" ")}) or 6 with a second first, for example "0 9 * * 1-5"`;
  if (expr.trim() === "" || (fields.length !== 5 && fields.length !== 6))
    return `--cron ${JSON.stringify(expr)}: a cron expression has ${form}; this has ${expr.trim() === "" ? 0 : fields.length}`;
  const problem = (pattern: string): string | undefined => {
    try {
      const next = bullmq().getNextMillis(Date.now(), { pattern, tz: tz ?? "UTC" });
      return next === undefined || !Number.isFinite(next) ? "it never comes due" : undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  const whole = problem(fields.join(" "));
  if (whole === undefined) return undefined;
  // The field at fault: the first whose replacement by "*" makes the expression valid.
  const at = fields.findIndex((_, i) => problem(fields.map((f, j) => (j === i ? "*" : f)).join(" ")) === undefined);
  if (at < 0) return `--cron ${JSON.stringify(expr)}: ${whole}`;
  const column = (found[at]?.index ?? 0) + 1;
  return `--cron ${JSON.stringify(expr)}: field ${at + 1} (${names[at]}) ${JSON.stringify(fields[at])} at column ${column}: ${whole}`;
}

/** The job every iteration of SPEC runs, checked as a worker checks it; or why it is refused. */
export function scheduledJob(spec: ScheduleSpec): PlanJob | string {
  const job: PlanJob = {
    v: JOB_VERSION,
    kind: "run",
    plan: spec.plan,
    ...(spec.inputs ? { inputs: spec.inputs } : {}),
  };
  const read = readPlanJob(job);
  return read.ok ? read.job : `the schedule's job would be refused by every worker: ${read.message}`;
}

/** Opens the queue of ADDRESS for schedules (a wrong address or password is said at once). */
async function openQueue(address: QueueAddress): Promise<Queue> {
  (await connectClient(address)).disconnect();
  const { Queue: BullQueue } = bullmq();
  const queue = new BullQueue(address.queue, { connection: connectionOf(address, "commands"), prefix: KEY_PREFIX });
  await answeredWithin(address, queue.waitUntilReady(), () => void queue.close());
  return queue;
}

async function withQueue<T>(address: QueueAddress, use: (queue: Queue) => Promise<T>): Promise<T> {
  const queue = await openQueue(address);
  try {
    return await use(queue);
  } finally {
    await queue.close();
  }
}

/**
 * Adds the schedule, or replaces the one of that name; resolves to its first iteration's due time
 * and how many workers listen on the queue now (-1: unknown).
 */
export async function addSchedule(
  address: QueueAddress,
  spec: ScheduleSpec,
  job: PlanJob,
): Promise<{ next?: number; workers: number }> {
  return withQueue(address, async (queue) => {
    // Always a zone: without one, each worker would read the expression in its own machine's.
    await queue.upsertJobScheduler(
      spec.name,
      { pattern: spec.cron, tz: spec.tz ?? "UTC" },
      { name: job.kind, data: job, opts: QUEUED_JOB_OPTIONS },
    );
    const next = (await queue.getJobScheduler(spec.name))?.next;
    const workers = await queue.getWorkersCount().catch(() => -1);
    return { ...(next !== undefined ? { next } : {}), workers };
  });
}

/** Every schedule of the queue, soonest due first. */
export async function listSchedules(address: QueueAddress): Promise<ScheduleRow[]> {
  return withQueue(address, schedulesOf);
}

/** A queue's schedules, soonest first (also the Fleet page's, on its own queue). */
export async function schedulesOf(queue: Queue): Promise<ScheduleRow[]> {
  const schedulers = await queue.getJobSchedulers(0, -1, true);
  return schedulers.map((s) => {
    const data = s.template?.data as Partial<PlanJob> | undefined;
    return {
      name: s.key,
      cron: s.pattern ?? `every ${s.every ?? "?"} ms`,
      tz: s.tz ?? "UTC",
      plan: typeof data?.plan?.name === "string" ? data.plan.name : "?",
      ...(s.next !== undefined && Number.isFinite(s.next) ? { next: s.next } : {}),
      iterations: s.iterationCount ?? 0,
    };
  });
}

/** Removes the schedule and its waiting iteration; false when the queue has no schedule of that name. */
export async function removeSchedule(address: QueueAddress, name: string): Promise<boolean> {
  return withQueue(address, (queue) => queue.removeJobScheduler(name));
}
