// `rlm-plan test [PATH...]`: finds the test files, loads every case (a bad test file is reported
// at file:line:col and nothing runs), selects (--filter, --shard), prices the selection before
// anything runs (--list prints it, --max-cost refuses it), runs the cases --jobs at a time,
// each as a run of its plan session, recorded in the run journal (--journal DIR, --no-journal),
// writes recorded cassettes and blessed baselines (--bless; --baseline holds the cases to them),
// and reports in the format asked for.

import { relative, resolve } from "node:path";
import type { SecretMask } from "@rlm-plan/core/secrets";
import { addSessionSecrets } from "@rlm-plan/core/session";
import {
  BaselineFiles,
  type CaseResult,
  caseWorstCase,
  CassetteFiles,
  isLive,
  loadTestFile,
  priceCases,
  RecordedRuns,
  runCases,
  type TestCase,
} from "@rlm-plan/core/testing";
import { runCasesOnQueue } from "../queue/testOnQueue";
import { withPassword } from "../queue/queueUrl";
import type { HostProfileError } from "@rlm-plan/core/host";
import { lineText, shownFile } from "../guardedOutput";
import { openSink } from "../sink";
import { styleFor, usageErrorText } from "../output";
import { Cancellation } from "../signals";
import { discoverTestFiles, type Discovery } from "./discover";
import { mergeCommand } from "./merge";
import { writeHtmlReport, type CaseRecord } from "./htmlReport";
import { caseTitle, printProgress, printReport, type TestIo } from "./printReport";
import { moneyOverLimit, overLimits, parseTestArgs, TEST_HELP, worstCaseText, type TestArgs } from "./testOptions";
import { REPORT_TYPE, REPORT_VERSION, summarize, type ReportedCase, type TestReport } from "./testReport";

export interface TestCommandIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  readonly handleSignals?: boolean;
}

/** Runs `rlm-plan test` with the arguments after "test". Never throws; resolves to the exit status. */
export async function testCommand(argv: readonly string[], unguarded: TestCommandIo): Promise<number> {
  const env = unguarded.env ?? process.env;
  const sink = openSink(unguarded, { env });
  try {
    return await testWith(
      argv,
      unguarded,
      { stdout: sink.stdout, stderr: sink.stderr, style: styleFor(unguarded.stdout, env) },
      sink.mask,
    );
  } finally {
    sink.end();
  }
}

async function testWith(
  argv: readonly string[],
  unguarded: TestCommandIo,
  io: TestIo,
  mask: SecretMask,
): Promise<number> {
  const env = unguarded.env ?? process.env;
  const args = parseTestArgs(argv);
  if (args === "help") {
    io.stdout.write(`${TEST_HELP}\n`);
    return 0;
  }
  if (typeof args === "string") {
    io.stderr.write(usageErrorText(args, "test"));
    return 2;
  }
  if (args.kind === "merge") return mergeCommand(args, io);
  const cancel = new Cancellation(io.stderr, { signal: unguarded.signal, handleSignals: unguarded.handleSignals });
  try {
    return await runTests(args, io, env, mask, cancel);
  } catch (error) {
    io.stderr.write(`rlm-plan: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    cancel.dispose();
  }
}

async function runTests(
  args: TestArgs,
  io: TestIo,
  env: NodeJS.ProcessEnv,
  mask: SecretMask,
  cancel: Cancellation,
): Promise<number> {
  const discovery = discoverTestFiles(args.paths);
  for (const error of discovery.errors) io.stderr.write(`rlm-plan: ${error}\n`);
  if (discovery.errors.length > 0) return 2;
  for (const empty of discovery.empty) io.stderr.write(`rlm-plan: ${empty}\n`);

  const all: TestCase[] = [];
  const problems: HostProfileError[] = [];
  for (const file of discovery.files) {
    const loaded = loadTestFile(file);
    // Warnings are said whether or not the file has errors, as the editor shows both.
    for (const w of loaded.ok ? loaded.suite.warnings : (loaded.warnings ?? []))
      io.stderr.write(`${display(w.file)}:${w.line}:${w.column}: warning: ${w.message}\n`);
    if (!loaded.ok) problems.push(...loaded.errors);
    else {
      addSessionSecrets(mask, { env, profile: loaded.suite.profile });
      // One by one: a dataset's million cases spread into one call overflow the stack.
      for (const testCase of loaded.suite.cases) all.push(testCase);
    }
  }
  for (const p of problems) io.stderr.write(`${display(p.file)}:${p.line}:${p.column}: error: ${p.message}\n`);
  if (problems.length > 0) {
    io.stderr.write(
      `rlm-plan: ${problems.length} problem${problems.length === 1 ? "" : "s"} in the test files; nothing ran\n`,
    );
    return 2;
  }

  const filter = args.filter;
  const selected = filter === undefined ? all : all.filter((c) => c.id.includes(filter));
  const indexed = selected.map((testCase, index) => ({ testCase, index }));
  const shard = args.shard;
  const mine = shard ? indexed.filter(({ index }) => index % shard.of === shard.index - 1) : indexed;
  const cases = mine.map(({ testCase }) => testCase);
  const price = priceCases(cases, args.mode);
  const files = new Set(cases.map((c) => c.suite.file)).size;
  const header = `${cases.length} case${cases.length === 1 ? "" : "s"} in ${files} file${files === 1 ? "" : "s"}; worst case ${worstCaseText(price.total)}; live: ${price.liveCases} case${price.liveCases === 1 ? "" : "s"}, ${worstCaseText(price.live)}`;

  if (args.list) {
    for (const c of cases) {
      const live = isLive(c, args.mode) ? "  (live)" : "";
      io.stdout.write(
        `${shownFile(c.location.file)}:${c.location.line}  ${caseTitle(c)}  ${worstCaseText(caseWorstCase(c))}${live}\n`,
      );
    }
    io.stdout.write(`${header}\n`);
    return emptyRunStatus(args, discovery, all.length, selected.length, io) ?? 0;
  }
  if (args.maxCost) {
    const over = [...overLimits(price.live, args.maxCost), ...moneyOverLimit(price.liveMoney, args.maxCost.cost)];
    if (over.length > 0) {
      io.stderr.write(
        `rlm-plan: refused: the worst case of the ${price.liveCases} live case${price.liveCases === 1 ? "" : "s"} is over --max-cost: ${over.join(", ")}; nothing ran\n`,
      );
      return 2;
    }
  }
  if (args.format === "text") io.stderr.write(`rlm-plan: ${header}\n`);

  const cassettes = new CassetteFiles(mask);
  const baselines = args.baseline ? new BaselineFiles(args.baseline) : undefined;
  const started = performance.now();
  const byCase = new Map(mine.map(({ testCase, index }) => [testCase, index]));
  const onResult = args.format === "text" ? (result: CaseResult) => printProgress(result, io) : undefined;
  let results: CaseResult[];
  // Where each case's run was recorded (the HTML report draws it from there).
  const records = new Map<TestCase, CaseRecord>();
  if (args.queue) {
    const address = withPassword(args.queue, args.queuePasswordFile, env);
    if (typeof address === "string") {
      io.stderr.write(`rlm-plan: ${address}\n`);
      return 2;
    }
    const taped = cases.find((c) => c.cassette !== undefined);
    if (taped) {
      io.stderr.write(
        `rlm-plan: ${caseTitle(taped)} has a cassette: cassettes are read on this machine, so it cannot run with --queue; nothing ran\n`,
      );
      return 2;
    }
    // A job carries a whole plan: a case that runs one step is run here.
    const alone = cases.find((c) => c.step !== undefined);
    if (alone) {
      io.stderr.write(
        `rlm-plan: ${caseTitle(alone)} runs one step ("step"): a worker runs whole plans, so it cannot run with --queue; nothing ran\n`,
      );
      return 2;
    }
    if (address.password !== undefined) addSessionSecrets(mask, { env, clientValues: [address.password] });
    if (args.format === "text") io.stderr.write(`rlm-plan: sending the cases to ${address.shown}\n`);
    try {
      results = await runCasesOnQueue(
        cases,
        {
          address,
          signal: cancel.signal,
          planName: (c) => display(c.suite.planFile),
          say: (line) => void io.stderr.write(`rlm-plan: ${lineText(line)}\n`),
          ...(args.ceiling ? { ceiling: args.ceiling } : {}),
        },
        onResult,
      );
    } catch (error) {
      io.stderr.write(
        `rlm-plan: cannot use the queue ${address.shown}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return 2;
    }
  } else {
    const noticed = new Set<string>();
    const recorded = new RecordedRuns();
    results = await runCases(
      cases,
      {
        jobs: args.jobs,
        env,
        mode: args.mode,
        cassettes,
        ...(baselines ? { baseline: baselines } : {}),
        signal: cancel.signal,
        mask,
        ...(args.journal === false
          ? { journal: false as const }
          : args.journal !== undefined
            ? { journal: { dir: args.journal } }
            : {}),
        // Each journal problem once, however many cases met it.
        onNotice: (message) => {
          if (noticed.has(message)) return;
          noticed.add(message);
          io.stderr.write(`rlm-plan: ${message}\n`);
        },
        onRecorded: ({ dir, runId }, testCase) => {
          recorded.add(dir, runId);
          records.set(testCase, { dir, runId });
        },
      },
      onResult,
    );
    if (args.mode !== "record" && args.format === "text")
      for (const [dir, ids] of recorded.runs)
        io.stderr.write(`rlm-plan: the cases' runs are ${runList(ids)} in the run journal ${display(dir)}\n`);
  }
  if (args.mode === "record") {
    // The record is the journal's; the cassettes are derived from it.
    for (const [dir, ids] of cassettes.journal.runs)
      io.stderr.write(`rlm-plan: the recorded runs are ${runList(ids)} in the run journal ${display(dir)}\n`);
    for (const file of cassettes.write()) io.stderr.write(`rlm-plan: recorded ${display(file)}\n`);
  }
  // Blessed files are written even when the run was cancelled: what ran is blessed, the rest kept.
  for (const { file, cases: n } of baselines?.write() ?? [])
    io.stderr.write(`rlm-plan: blessed ${n} case${n === 1 ? "" : "s"} in ${display(file)}\n`);
  const unblessed = args.baseline === "bless" ? results.filter((r) => !r.ok).length : 0;
  if (unblessed > 0)
    io.stderr.write(
      `rlm-plan: ${unblessed} failing case${unblessed === 1 ? " was" : "s were"} not blessed: a baseline is a run that passes\n`,
    );
  const reported: ReportedCase[] = results.map((r, i) => ({ ...r, index: byCase.get(cases[i] as TestCase) ?? i }));
  const report: TestReport = {
    type: REPORT_TYPE,
    version: REPORT_VERSION,
    selected: selected.length,
    ...(shard ? { shard } : {}),
    cases: reported,
    summary: summarize(reported, performance.now() - started),
  };
  if (args.format === "html") {
    const unrecorded = args.queue
      ? "it ran on a worker (--queue): its run is in the worker's run journal"
      : args.journal === false
        ? "the run journal is off (--no-journal)"
        : "it was not recorded";
    const written = await writeHtmlReport(
      report,
      results.map((_, i) => records.get(cases[i] as TestCase) ?? { unrecorded }),
      args.output,
      io,
      mask,
    );
    if (written !== 0) return written;
  } else printReport(report, args.format, io);
  if (cancel.signal.aborted) {
    const left = cases.length - results.length;
    io.stderr.write(`rlm-plan: the test run was cancelled; ${left} case${left === 1 ? "" : "s"} did not run\n`);
    return cancel.status;
  }
  return emptyRunStatus(args, discovery, all.length, selected.length, io) ?? (report.summary.failed > 0 ? 1 : 0);
}

/**
 * A gate that ran nothing fails: 1 when a path held no test file or nothing was selected (the
 * report is written first, JUnit's tests="0" too), unless --allow-empty; undefined otherwise.
 */
function emptyRunStatus(
  args: TestArgs,
  discovery: Discovery,
  loaded: number,
  selected: number,
  io: TestIo,
): 1 | undefined {
  if (args.allowEmpty || (discovery.empty.length === 0 && selected > 0)) return undefined;
  const n = discovery.empty.length;
  const why =
    n > 0
      ? `${n === 1 ? "a path" : `${n} paths`} named no test file, so what ${n === 1 ? "it was" : "they were"} meant to test did not run`
      : args.filter !== undefined && loaded > 0
        ? `--filter ${JSON.stringify(args.filter)} matches none of the ${loaded} case${loaded === 1 ? "" : "s"}, so nothing was tested`
        : "there is no test case, so nothing was tested";
  io.stderr.write(`rlm-plan: ${why}; pass --allow-empty if that is expected\n`);
  return 1;
}

/** "run 3" or "runs 3-5" (ids are consecutive unless another process recorded meanwhile: then listed). */
function runList(ids: readonly number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const first = sorted[0] ?? 0;
  const last = sorted[sorted.length - 1] ?? 0;
  if (sorted.length === 1) return `run ${first}`;
  return last - first === sorted.length - 1 ? `runs ${first}-${last}` : `runs ${sorted.join(", ")}`;
}

function display(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel !== "" && !rel.startsWith("..") ? rel : file;
}
