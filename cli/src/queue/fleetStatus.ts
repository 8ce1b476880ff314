// What `rlm-plan ui --queue URL`'s Fleet page shows of a queue, read through BullMQ's own
// getters (never its Redis keys): the workers connected to it (Queue.getWorkers: Redis's client
// list, so a worker that died is gone at once, and one that hangs shows a growing idle time),
// the job counts by state, the jobs waiting, active and failed, with how often each was tried, and
// the queue's schedules.

import type { Job, Queue } from "bullmq";
import { answeredWithin, bullmq, connectionOf, KEY_PREFIX } from "./bullmq";
import type { QueueAddress } from "./queueUrl";
import { schedulesOf } from "./schedules";
import type { FleetJob, FleetView, FleetWorker } from "../ui/uiApi";

/** The states counted, in the order shown. */
const COUNTED = ["waiting", "active", "delayed", "prioritized", "completed", "failed"] as const;
/** At most this many jobs of each listed state. */
const LISTED = 20;

export class FleetStatus {
  private constructor(
    private readonly address: QueueAddress,
    private readonly queue: Queue,
  ) {}

  /** A reader of the queue (no connection is made until the first read). */
  static open(address: QueueAddress): FleetStatus {
    const { Queue } = bullmq();
    return new FleetStatus(
      address,
      new Queue(address.queue, { connection: connectionOf(address, "commands"), prefix: KEY_PREFIX }),
    );
  }

  async read(): Promise<FleetView> {
    const queue = this.queue;
    const [workers, counts, jobs, schedules] = await answeredWithin(
      this.address,
      Promise.all([
        queue.getWorkers(),
        queue.getJobCounts(...COUNTED),
        Promise.all(
          (["waiting", "active", "failed"] as const).map(async (state) => ({
            state,
            jobs: await queue.getJobs([state], 0, LISTED - 1),
          })),
        ),
        schedulesOf(queue),
      ]),
      () => undefined,
    );
    const listed = jobs.flatMap(({ state, jobs: some }) =>
      some.filter((job): job is Job => job !== undefined).map((job) => jobOf(job, state)),
    );
    return {
      queue: this.address.shown,
      workers: workersOf(workers),
      counts,
      jobs: listed,
      retried: listed.filter((job) => job.attempts > 1).length,
      schedules,
    };
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

function jobOf(job: Job, state: FleetJob["state"]): FleetJob {
  return {
    id: job.id ?? "",
    state,
    name: job.name,
    attempts: Math.max(job.attemptsStarted ?? 0, job.attemptsMade),
    queuedAt: new Date(job.timestamp).toISOString(),
    failedReason: job.failedReason || null,
  };
}

/**
 * The workers by name, from Redis's client list: BullMQ names a worker's connections
 * PREFIX:QUEUE:w:NAME, and a worker holds more than one, so each name is one worker (most recently
 * active connection's idle time, oldest connection's age).
 */
function workersOf(clients: readonly Record<string, string>[]): FleetWorker[] {
  const byName = new Map<string, FleetWorker>();
  for (const client of clients) {
    const raw = client["rawname"] ?? "";
    const at = raw.indexOf(":w:");
    const name = at < 0 ? "(unnamed)" : raw.slice(at + 3);
    const seen = byName.get(name);
    const age = Number(client["age"] ?? 0);
    const idle = Number(client["idle"] ?? 0);
    byName.set(name, {
      name,
      addr: seen?.addr ?? client["addr"] ?? "",
      ageSeconds: Math.max(age, seen?.ageSeconds ?? 0),
      idleSeconds: Math.min(idle, seen?.idleSeconds ?? idle),
    });
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
