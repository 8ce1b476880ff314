// `rlm-plan test --format html [-o FILE]`: the test run as one self-contained page for a CI
// artifact: each case with its verdict, its failures (expected and actual), and its run as the run
// browser's page draws it (graph, timeline, values), read back from the run journal the case was
// recorded in. The same page script and standalone page as `runs export --format html`.

import { JournalStore } from "@rlm-plan/core/journal";
import type { SecretMask } from "@rlm-plan/core/secrets";
import type { JsonValue } from "@rlm-plan/core/json";
import { shownFile } from "../guardedOutput";
import { standaloneHtml, writeHtml } from "../ui/htmlExport";
import { runView } from "../ui/runView";
import { TEST_REPORT_DATA_ID, type TestReportCase, type TestReportView } from "../ui/uiApi";
import { MISSING_ASSETS, uiAssets } from "../ui/uiAssets";
import type { TestIo } from "./printReport";
import type { ReportedCase, TestReport } from "./testReport";

/** Where a case's run was recorded, or why it was not (--no-journal, --queue). */
export type CaseRecord = { readonly dir: string; readonly runId: number } | { readonly unrecorded: string };

/** Writes the page; 0, or 2 when the page's assets are missing or the file cannot be written. */
export async function writeHtmlReport(
  report: TestReport,
  records: readonly CaseRecord[],
  output: string | undefined,
  io: TestIo,
  mask: SecretMask,
): Promise<number> {
  const assets = uiAssets();
  if (!assets) {
    io.stderr.write(`rlm-plan: ${MISSING_ASSETS}\n`);
    return 2;
  }
  const stores = new Map<string, JournalStore>();
  try {
    const cases: TestReportCase[] = [];
    for (const [i, result] of report.cases.entries()) {
      const record = records[i] ?? { unrecorded: "it was not recorded" };
      cases.push(await reportCase(result, record, stores, io));
    }
    const view: TestReportView = {
      passed: report.summary.passed,
      failed: report.summary.failed,
      durationMs: report.summary.duration_ms,
      cases,
    };
    const title = `Tests: ${view.passed} passed, ${view.failed} failed · rlm-plan`;
    const html = mask.mask(standaloneHtml(assets, view, title, TEST_REPORT_DATA_ID));
    return writeHtml(io, html, output, "the test report");
  } finally {
    for (const store of stores.values()) store.close();
  }
}

async function reportCase(
  result: ReportedCase,
  record: CaseRecord,
  stores: Map<string, JournalStore>,
  io: TestIo,
): Promise<TestReportCase> {
  const { file, line, column } = result.location;
  const base = {
    id: result.id,
    place: `${shownFile(file)}:${line}:${column}`,
    ok: result.ok,
    durationMs: result.duration_ms,
    answered: result.answered,
    failures: result.failures.map((f) => ({
      assertion: f.assertion,
      message: f.message,
      expected: pretty(f.expected),
      actual: pretty(f.actual),
    })),
  };
  if ("unrecorded" in record) return { ...base, run: null, unrecorded: record.unrecorded };
  try {
    let store = stores.get(record.dir);
    if (!store) {
      store = JournalStore.open(record.dir);
      stores.set(record.dir, store);
    }
    const run = (await runView(store, record.runId)) ?? null;
    return { ...base, run, unrecorded: run ? null : `run ${record.runId} is no longer in the run journal` };
  } catch (error) {
    // One unreadable run leaves its case without a page; the report is still written.
    const why = `the run journal could not be read: ${(error as Error).message}`;
    io.stderr.write(`rlm-plan: ${result.id}: ${why}\n`);
    return { ...base, run: null, unrecorded: why };
  }
}

function pretty(value: JsonValue | undefined): string | null {
  return value === undefined ? null : JSON.stringify(value, null, 2);
}
