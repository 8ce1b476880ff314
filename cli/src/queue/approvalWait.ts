// A worker's job whose run waits for approval (docs/workers.md, "Approvals"): the worker does not
// hold it. The job is moved back to the queue's delayed set (BullMQ's moveToDelayed and
// DelayedError: not a failure, no attempt spent) and looked at again every APPROVAL_POLL_MS by
// whichever worker takes it; once the votes decided, that worker resumes the journal's run,
// which the journal lets happen once, and the approved call is made there.

import type { Job } from "bullmq";
import { bullmq } from "./bullmq";

/** How often a waiting job is looked at again: a decision is acted on within this. */
const APPROVAL_POLL_MS = 2000;

/** What the worker says once, when a job's run starts waiting (not at each look). */
export const WAITING_LINE = `waits for approval: handed back to the queue, looked at again every ${APPROVAL_POLL_MS / 1000} s until the votes decide`;

/** Hands the job back to the queue until APPROVAL_POLL_MS from now, then tells `handed` (once it is so); never returns. */
export async function handBackWaiting(job: Job, token: string | undefined, handed?: () => void): Promise<never> {
  const { DelayedError } = bullmq();
  await job.moveToDelayed(Date.now() + APPROVAL_POLL_MS, token);
  handed?.();
  throw new DelayedError();
}
