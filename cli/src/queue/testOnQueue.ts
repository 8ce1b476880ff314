// `rlm-plan test --queue URL`: every selected case a job on the queue, run by whichever worker
// takes it under that worker's host profile; the results come back into one report in case
// order, each case exactly once (the first end of a job counts; a job's later word is ignored).
// A fleet ceiling (--ceiling) is a counter in Redis every worker takes from before a live call.

import { randomUUID } from "node:crypto";
import type { CaseResult, TestCase } from "@rlm-plan/core/testing";
import { JOB_VERSION, mocksJson, type CeilingCounter, type PlanJob } from "./planJob";
import type { QueueAddress } from "./queueUrl";
import { failedJobText, QueueSubmitter } from "./submitter";

export interface QueueTestOptions {
  readonly address: QueueAddress;
  readonly ceiling?: Partial<Record<CeilingCounter, number>>;
  readonly signal?: AbortSignal;
  /** The plan's name as the worker shows it (a path relative to the submitter's folder). */
  readonly planName: (testCase: TestCase) => string;
  /** A note for the user (no worker listening yet). */
  readonly say?: (line: string) => void;
}

/** Runs the cases on the queue; resolves to their results in case order (fewer when cancelled). */
export async function runCasesOnQueue(
  cases: readonly TestCase[],
  options: QueueTestOptions,
  onResult?: (result: CaseResult) => void,
): Promise<CaseResult[]> {
  const submitter = await QueueSubmitter.connect(options.address);
  if ((await submitter.workers()) === 0)
    options.say?.(
      `no worker listens on ${options.address.shown} yet: the cases wait for one (rlm-plan worker --queue URL)`,
    );
  const ceiling = options.ceiling ? { id: randomUUID(), limits: options.ceiling } : undefined;
  const results: CaseResult[] = new Array<CaseResult>(cases.length);
  const started = cases.map(() => performance.now());
  try {
    const jobs: PlanJob[] = cases.map((testCase) => ({
      v: JOB_VERSION,
      kind: "case",
      plan: { name: options.planName(testCase), text: testCase.suite.planText },
      inputs: testCase.inputs,
      ...(testCase.mocks ? { mocks: mocksJson(testCase.mocks) } : {}),
      expect: testCase.expect,
      ...(testCase.approvals ? { approvals: testCase.approvals } : {}),
      ...(ceiling ? { ceiling } : {}),
    }));
    await submitter.run(
      jobs,
      {
        end: (index, end) => {
          const testCase = cases[index] as TestCase;
          const base = {
            id: testCase.id,
            name: testCase.name,
            file: testCase.suite.file,
            location: testCase.location,
            ...(testCase.repeat ? { repeat: testCase.repeat } : {}),
          };
          const result: CaseResult =
            end.ok && end.result.kind === "case"
              ? {
                  ...base,
                  ...end.result.verdict,
                  duration_ms: end.result.duration_ms,
                  queued: {
                    worker: end.result.worker,
                    attempt: end.result.attempt,
                    ...(end.result.resumed !== undefined ? { resumed: end.result.resumed } : {}),
                  },
                }
              : {
                  ...base,
                  ok: false,
                  failures: [
                    {
                      assertion: "ok",
                      message: end.ok
                        ? "the worker answered a test case with another kind of result"
                        : failedJobText(end),
                    },
                  ],
                  duration_ms: Math.round(performance.now() - (started[index] ?? 0)),
                  stage: "host",
                  spent: { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0, output_bytes: 0 },
                  answered: testCase.mocks ? "mocks" : "live",
                };
          results[index] = result;
          onResult?.(result);
        },
      },
      options.signal,
    );
    if (options.signal?.aborted) await submitter.withdraw();
  } finally {
    await submitter.close();
  }
  return results.filter((r) => r !== undefined);
}
