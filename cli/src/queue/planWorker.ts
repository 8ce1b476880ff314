// BullMQ's Worker with one change: a job whose stored data does not parse as JSON reaches the
// processor (which fails it at once, naming it) instead of throwing inside BullMQ's fetch. There
// the throw left the job active with no lock renewed, so the stalled check put it back and every
// worker took it again, forever (18 times in 55 s), and the message named no job.

import type { Job, JobJson, Worker } from "bullmq";
import { bullmq } from "./bullmq";

/** What a job's data is when its stored text did not parse: the parser's words. */
export class UnparseableJobData {
  constructor(readonly reason: string) {}
}

let planWorker: typeof Worker | undefined;

/** The Worker class of `rlm-plan worker` (made on first use: BullMQ is required then). */
export function planWorkerClass(): typeof Worker {
  const { Worker: BullWorker } = bullmq();
  planWorker ??= class PlanWorker extends BullWorker {
    protected override createJob(json: JobJson, jobId: string): Job {
      try {
        return super.createJob(json, jobId);
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error;
        const job = super.createJob({ ...json, data: "null" }, jobId);
        job.data = new UnparseableJobData(error.message);
        return job;
      }
    }
  };
  return planWorker;
}
