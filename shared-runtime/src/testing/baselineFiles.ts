// The baseline files of one test run (`NAME.rlmplan.baseline.json` beside `NAME.rlmplan.test.json`):
// with --baseline each read once however many cases it holds, and each case's run (read back
// from the run journal, as `runs diff` reads it) held to its blessed one; with --bless each
// passing case's run collected, and every file written once at the end, its other cases kept (a
// --filter blesses only what it selects).

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { JsonObject } from "../json";
import { JournalStore } from "../journal/journalStore";
import { runDetail } from "../journal/queries";
import { readErrorText } from "../host/profile";
import { MAX_PLAN_BYTES, readTextFileSync } from "../text/boundedFile";
import { shownPath } from "../text/shownPath";
import { TEST_FILE_SUFFIX } from "../workspaceFiles";
import type { AssertionFailure, Spent } from "./assertions";
import { caseBaseline, checkBaseline, sortedJson, type CaseBaseline } from "./baseline";
import { schemaFileReader } from "./schemaFile";
import type { TestCase } from "./testCase";

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const BASELINE_SCHEMA = require("../../schemas/plan-baseline.schema.json") as Readonly<Record<string, unknown>>;

export const BASELINE_FILE_SUFFIX = ".rlmplan.baseline.json";

/** bless: record each passing case's run as its baseline; check: hold each case's run to it. */
export type BaselineMode = "bless" | "check";

const readBaselineFile = schemaFileReader(BASELINE_SCHEMA, "the baseline file", { allowUnionTypes: true });

/** The baseline file of a test file: NAME.rlmplan.test.json -> NAME.rlmplan.baseline.json, beside it. */
export function baselineFileOf(testFile: string): string {
  const stem = testFile.endsWith(TEST_FILE_SUFFIX)
    ? testFile.slice(0, -TEST_FILE_SUFFIX.length)
    : testFile.replace(/\.json$/, "");
  return `${stem}${BASELINE_FILE_SUFFIX}`;
}

type ReadBaselines = { readonly cases: ReadonlyMap<string, CaseBaseline> } | { readonly error: string };

export class BaselineFiles {
  private readonly read = new Map<string, ReadBaselines>();
  private readonly blessed = new Map<string, Map<string, CaseBaseline>>();

  constructor(readonly mode: BaselineMode) {}

  /**
   * A case's run (its journal entry, or why it has none) blessed or held to its baseline: the
   * failure to report, if any. `spent` is what the run spent; `failed` says the case failed its
   * assertions (not blessed).
   */
  judge(
    testCase: TestCase,
    journal: { readonly dir: string; readonly runId: number } | string,
    spent: Spent,
    failed: boolean,
  ): AssertionFailure | undefined {
    if (this.mode === "bless" && failed) return undefined;
    if (typeof journal === "string")
      return {
        assertion: "baseline",
        message: `baseline: the case's run is read back from the run journal, which could not be opened: ${journal}`,
      };
    const store = JournalStore.openExisting(journal.dir);
    const run = store ? runDetail(store, journal.runId) : undefined;
    store?.close();
    if (!run)
      return {
        assertion: "baseline",
        message: `baseline: run ${journal.runId} is not in the run journal ${shownPath(journal.dir)}`,
      };
    if (this.mode === "bless") {
      this.bless(testCase, caseBaseline(run, spent));
      return undefined;
    }
    const file = baselineFileOf(testCase.suite.file);
    const read = this.baselines(file);
    if ("error" in read) return { assertion: "baseline", message: `baseline: ${read.error}` };
    const blessed = read.cases.get(testCase.name);
    if (!blessed)
      return {
        assertion: "baseline",
        message: `baseline: the case has no baseline in ${shownPath(file)}; run rlm-plan test --bless to record one`,
      };
    const verdict = checkBaseline(blessed, run, spent, {
      tolerance: testCase.suite.costTolerance ?? 0,
      expect: testCase.expect,
    });
    if (!verdict) return undefined;
    return {
      assertion: "baseline",
      message: `baseline: the run differs from the blessed one: ${verdict.reasons.join("; ")}`,
      diff: verdict.diff,
    };
  }

  /** Writes every blessed file (its cases not run this time kept); returns the files and how many cases each blessed. */
  write(): { readonly file: string; readonly cases: number }[] {
    const written: { file: string; cases: number }[] = [];
    for (const [file, cases] of this.blessed) {
      const kept = existsSync(file) ? this.baselines(file) : { cases: new Map<string, CaseBaseline>() };
      const all = new Map("cases" in kept ? kept.cases : []);
      for (const [name, baseline] of cases) all.set(name, baseline);
      const byName: Record<string, CaseBaseline> = Object.create(null) as Record<string, CaseBaseline>;
      for (const [name, baseline] of all) byName[name] = baseline;
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${sortedJson({ type: "rlm-plan.baseline", version: 1, cases: byName })}\n`);
      written.push({ file, cases: cases.size });
    }
    return written;
  }

  /** A repeated case is blessed by its first run. */
  private bless(testCase: TestCase, baseline: CaseBaseline): void {
    const file = baselineFileOf(testCase.suite.file);
    let cases = this.blessed.get(file);
    if (!cases) this.blessed.set(file, (cases = new Map()));
    if (!cases.has(testCase.name)) cases.set(testCase.name, baseline);
  }

  private baselines(file: string): ReadBaselines {
    let read = this.read.get(file);
    if (!read) {
      read = readBaselines(file);
      this.read.set(file, read);
    }
    return read;
  }
}

function readBaselines(file: string): ReadBaselines {
  let text: string;
  try {
    text = readTextFileSync(file, MAX_PLAN_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { error: `there is no baseline file ${shownPath(file)}; run rlm-plan test --bless to record one` };
    return { error: `cannot read the baseline file ${shownPath(file)}: ${readErrorText(error)}` };
  }
  const checked = readBaselineFile(text, shownPath(file));
  if (!checked.ok) {
    const first = checked.errors[0];
    return { error: first ? `${first.file}:${first.line}:${first.column}: ${first.message}` : "a bad baseline file" };
  }
  const cases = (checked.value as JsonObject)["cases"] as unknown as Record<string, CaseBaseline>;
  return { cases: new Map(Object.entries(cases)) };
}
