// A test run's report: the JSON `--json` prints and `rlm-plan test merge` reads (each case with
// its place in the whole selection, so shards merge back into the order of one run), and the
// summary every format ends with.

import type { CaseResult } from "@rlm-plan/core/testing";
import { diffText } from "../runsDiff";

export const REPORT_TYPE = "rlm-plan-test-report";
export const REPORT_VERSION = 1;

export interface ReportedCase extends CaseResult {
  /** The case's position among the cases selected (before sharding), from 0. */
  readonly index: number;
}

export interface TestReport {
  readonly type: typeof REPORT_TYPE;
  readonly version: typeof REPORT_VERSION;
  /** The cases selected (files, --filter) before --shard took its part. */
  readonly selected: number;
  readonly shard?: { readonly index: number; readonly of: number };
  readonly cases: readonly ReportedCase[];
  readonly summary: Summary;
}

export interface Summary {
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly duration_ms: number;
}

export function summarize(cases: readonly ReportedCase[], durationMs: number): Summary {
  const failed = cases.filter((c) => !c.ok).length;
  return { total: cases.length, passed: cases.length - failed, failed, duration_ms: Math.round(durationMs) };
}

export function summaryText(summary: Summary): string {
  const seconds = (summary.duration_ms / 1000).toFixed(1);
  return `${summary.passed} passed, ${summary.failed} failed (${summary.total} case${summary.total === 1 ? "" : "s"}, ${seconds} s)`;
}

/** A failure's message, and under a baseline failure the diff `rlm-plan runs diff` would show. */
export function failureText(failure: CaseResult["failures"][number]): string {
  return failure.diff ? `${failure.message}\n${diffText(failure.diff).trimEnd()}` : failure.message;
}
