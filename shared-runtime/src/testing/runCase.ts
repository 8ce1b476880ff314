// One case of a test file, run as a run of a plan session (the one way into a run, as the CLI's
// `run`, the editor, the debugger and workers take) under the suite's host profile: the case's
// inputs replace the profile's of the same name, its mocks answer the tools and providers they
// name, and its cassette (when replaying or recording) is a layer over the host. The session
// records every case in the workspace's run journal (origin `test`, labelled with its test file
// and case) unless the run asks for none, and traces it when the profile says so; a recorded
// cassette is derived from that record. The report is
// the assertions' failures and what the run spent.

import { dirname, relative, resolve, sep } from "node:path";
import { stepPathText, type JsonObject, type JsonValue } from "../json";
import { profileHost } from "../host/createHost";
import { profileJournalDir } from "../journal/location";
import type { Mocks } from "../host/mocks";
import type { HostProfile } from "../host/profile";
import type { RunEvent } from "../run/events";
import type { RunObserver } from "../run/observer";
import type { HostFactory, RunReport, RunStage } from "../run/startRun";
import type { SecretMask } from "../mask/secretMask";
import type { Estimate } from "../plan/estimate";
import { openPlanSessionSync } from "../session/openSession";
import { checkExpectations, pointerOf, spentOf, type AssertionFailure, type Spent } from "./assertions";
import { CassetteReplay, loadCassette, replayingHost, type ModelNames } from "./cassette";
import { cassetteEntriesOf } from "./cassetteRecording";
import type { CassetteFiles } from "./cassetteFiles";
import type { BaselineFiles } from "./baselineFiles";
import { offlineHost } from "./offlineHost";
import { runAnsweringApprovals, type AnsweredRun } from "./caseApprovals";
import type { RunLife } from "../session/runLife";
import { recordCaseVerdict } from "./verdictRecord";
import type { CaseLocation, Expectations, TestCase } from "./testFile";

/** off: mocks only (a case with a cassette replays it); record: real calls, recorded; replay: nothing live. */
export type CassetteMode = "off" | "record" | "replay";

export interface CaseRunOptions {
  /** The environment tools inherit from and providers read keys from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  readonly mode?: CassetteMode;
  /** The cassettes of this test run (read once, written once); needed when a case has one. */
  readonly cassettes?: CassetteFiles;
  /**
   * Where each case's run is recorded: the profile's run journal by default (`.rlm-plan/` beside
   * it, or its `journal.dir`), a folder given here (`--journal DIR`), or nowhere (`false`:
   * `--no-journal`; recording cassettes needs the journal, so a case to record does not run).
   */
  readonly journal?: false | { readonly dir?: string };
  /** --bless or --baseline: each case's run blessed, or held to its baseline (read from the journal). */
  readonly baseline?: BaselineFiles;
  /** The mask of the test run's output: each case's session adds what it learns to it. */
  readonly mask?: SecretMask;
  /** A journal problem that did not stop a case (masked); a journal that cannot be opened is said for each case. */
  readonly onNotice?: (message: string) => void;
  /** Hears each case's journal entry (its folder and run number) once the case has ended. */
  readonly onRecorded?: (journal: { readonly dir: string; readonly runId: number }, testCase: TestCase) => void;
}

export interface CaseResult {
  readonly id: string;
  readonly name: string;
  readonly file: string;
  readonly location: CaseLocation;
  readonly repeat?: { readonly index: number; readonly of: number };
  readonly ok: boolean;
  readonly failures: readonly AssertionFailure[];
  readonly duration_ms: number;
  /** Where the run stopped (check, host, preflight or execute). */
  readonly stage: RunStage | "cassette";
  readonly spent: Spent;
  /** How the case's tools and providers answered. */
  readonly answered: "live" | "mocks" | "cassette" | "recorded";
  /** The run's value when it succeeded, its error when it failed. */
  readonly value?: JsonValue;
  readonly error?: { readonly phase: string; readonly kind: string; readonly message: string };
  /** Where a case sent to a queue ran (`rlm-plan test --queue`): the worker, and which start of the job it was. */
  readonly queued?: { readonly worker: string; readonly attempt: number; readonly resumed?: number };
}

export async function runTestCase(testCase: TestCase, options: CaseRunOptions = {}): Promise<CaseResult> {
  const started = performance.now();
  const { suite } = testCase;
  const env = options.env ?? process.env;
  const mode = options.mode ?? "off";
  const base = {
    id: testCase.id,
    name: testCase.name,
    file: suite.file,
    location: testCase.location,
    ...(testCase.repeat ? { repeat: testCase.repeat } : {}),
  };
  const notRun = (message: string): CaseResult => ({
    ...base,
    ok: false,
    failures: [{ assertion: "ok", message }],
    duration_ms: Math.round(performance.now() - started),
    stage: "cassette",
    spent: spentOf(undefined, { steps: 0, model_calls: 0, tool_calls: 0, context_ops: 0, output_bytes: 0 }),
    answered: "cassette",
  });

  const chosen = testCaseHost(testCase, { env, mode, ...(options.cassettes ? { cassettes: options.cassettes } : {}) });
  if ("error" in chosen) return notRun(chosen.error);
  const { host, answered, replay } = chosen;
  if (answered === "recorded" && !options.cassettes) return notRun("recording needs the test run's cassettes");
  if (answered === "recorded" && options.journal === false)
    return notRun("--record derives the cassette from the run journal, and the run journal is off (--no-journal)");
  const approving = testCase.approvals !== undefined || testCase.expect.approvals !== undefined;
  if (approving && options.journal === false)
    return notRun("the case's approvals are votes in the run journal, and the run journal is off (--no-journal)");

  // The case's plan session: the suite's plan and profile (already read), the case's host.
  const opened = openPlanSessionSync({
    file: suite.planFile,
    text: suite.planText,
    hostProfile: suite.profile.file,
    profile: { ok: true, profile: suite.profile },
    host,
    env,
    ...(options.mask ? { mask: options.mask } : {}),
  });
  if (!opened.ok) return notRun(opened.mask.mask(sessionFailureText(opened.failure)));
  const { session } = opened;
  let unrecorded: string | undefined;
  // The session attaches the journal and the trace (the profile's telemetry.otlp) itself.
  const life: RunLife = {
    origin: "test",
    label: caseLabel(testCase),
    // Recording a cassette, blessing or checking a baseline read the case's run back from the
    // journal: it is on even where the profile turns recording off.
    ...(options.journal === false
      ? { journal: false as const }
      : options.journal?.dir !== undefined
        ? { journal: { dir: options.journal.dir } }
        : answered === "recorded" || options.baseline || approving
          ? { journal: { dir: profileJournalDir(suite.profile) } }
          : {}),
    given: caseOptions(testCase, mode),
    onNotice: (message) => {
      unrecorded = message;
      options.onNotice?.(message);
    },
  };
  const prepared = session.prepareRun(life);
  const recorded = prepared.recorded;
  if (!recorded && answered === "recorded")
    return notRun(`--record writes the run journal, which could not be opened: ${unrecorded ?? "it is off"}`);

  const only = testCase.step && { at: testCase.step.at, bindings: new Map(Object.entries(testCase.step.bindings)) };
  const runOptions = (steps: StepWatch) => ({
    observers: [steps.observer],
    ...(only ? { only } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const firstSteps = stepWatcher();
  // Each time the run waits for approval the case's votes are cast and it is resumed, in the same entry.
  // The trace is sent (or given up, within its deadline) before the case's result is told.
  const played = await runAnsweringApprovals(
    { run: prepared.start(runOptions(firstSteps)), steps: firstSteps },
    testCase.approvals ?? [],
    testCase.expect,
    (continued, clock) => {
      const steps = stepWatcher();
      const resumed = session.resume(continued, {
        ...runOptions(steps),
        life: { ...life, ...(clock ? { clock } : {}) },
      });
      return resumed.ok ? { ok: true, running: { run: resumed.run, steps } } : resumed;
    },
    options.signal,
  );
  const { report } = played;
  const steps = played.running.steps;
  if (recorded) {
    const journal = { dir: recorded.dir, runId: recorded.id };
    // The cassette is what the journal recorded of this run.
    if (answered === "recorded" && testCase.cassette !== undefined) {
      options.cassettes?.add(testCase.cassette, cassetteEntriesOf(journal, cassetteCaseKey(testCase)));
      options.cassettes?.journal.add(journal.dir, journal.runId);
    }
    options.onRecorded?.(journal, testCase);
  }
  const judged = judgeRun(
    testCase.expect,
    testCase.step ? testCase.step.estimate : suite.estimate,
    report,
    steps,
    played,
  );
  const gate = options.baseline?.judge(
    testCase,
    recorded ? { dir: recorded.dir, runId: recorded.id } : (unrecorded ?? "it is off"),
    judged.spent,
    judged.failures.length > 0,
  );
  if (gate) judged.failures.push(gate);
  // A replay miss is the reason, whatever the assertions say about the failure it caused.
  const miss = replay?.misses[0];
  if (miss && !judged.failures.some((f) => f.message.includes(miss.message)))
    judged.failures.unshift({ assertion: "ok", message: miss.message });
  if (recorded)
    await recordCaseVerdict({ dir: recorded.dir, runId: recorded.id }, judged.failures, session.mask, options.onNotice);
  return {
    ...base,
    ...judged,
    ok: judged.failures.length === 0,
    duration_ms: Math.round(performance.now() - started),
    answered,
  };
}

/** Which steps a run started and completed (JSON pointers): an observer of its event stream. */
export interface StepWatch {
  readonly observer: RunObserver;
  readonly completed: readonly string[];
  readonly started: ReadonlySet<string>;
}

export function stepWatcher(): StepWatch {
  const completed: string[] = [];
  const started = new Set<string>();
  return {
    completed,
    started,
    observer: {
      event: (event: RunEvent) => {
        if (event.type === "step_started") started.add(pointerOf(event.path));
        else if (event.type === "step_finished") completed.push(pointerOf(event.path));
      },
    },
  };
}

/** What a case's run amounts to against its expectations: the one verdict, wherever the case ran (here or on a worker). */
export function judgeRun(
  expect: Expectations,
  estimate: Estimate | undefined,
  report: RunReport,
  steps: Pick<StepWatch, "completed" | "started">,
  answered?: Pick<AnsweredRun, "failures" | "approvals">,
): Pick<CaseResult, "ok" | "stage" | "spent" | "value" | "error"> & { failures: AssertionFailure[] } {
  const { outcome } = report;
  const approvals = answered?.approvals;
  const checked = checkExpectations(expect, {
    outcome,
    ...(approvals ? { approvals } : {}),
    ...(report.budget ? { budget: report.budget } : {}),
    completed: [...steps.completed],
    started: new Set(steps.started),
    ...(estimate ? { estimate } : {}),
  });
  // A vote refused or missing says why the run waits: the generic "the run failed" would repeat it.
  const voted = answered?.failures ?? [];
  const failures = [...voted, ...checked.filter((f) => voted.length === 0 || f.assertion !== "ok")];
  return {
    ok: failures.length === 0,
    failures,
    stage: report.stage,
    spent: spentOf(report.budget, outcome.budget_remaining),
    ...(outcome.ok
      ? { value: outcome.value }
      : { error: { phase: outcome.error.phase, kind: outcome.error.kind, message: outcome.error.message } }),
  };
}

/** A case as the journal lists it: its test file relative to the host profile's folder, "#", the case's id within it. */
export function caseLabel(testCase: TestCase): string {
  const { suite } = testCase;
  const file = relative(dirname(suite.profile.file), resolve(suite.file)).split(sep).join("/");
  return `${file}${testCase.id.slice(suite.file.length)}`;
}

/** The case's run options as the journal keeps them: which test file and case, how it was answered. */
function caseOptions(testCase: TestCase, mode: CassetteMode): JsonObject {
  return {
    test: {
      file: resolve(testCase.suite.file),
      case: testCase.name,
      ...(testCase.repeat ? { repeat: { index: testCase.repeat.index, of: testCase.repeat.of } } : {}),
    },
    // Values, not files: a CLI run's `inputs` are files (resume reads them so).
    ...(Object.keys(testCase.inputs).length > 0 ? { input_values: testCase.inputs } : {}),
    ...(testCase.step ? { step: stepPathText(testCase.step.at), bindings: testCase.step.bindings } : {}),
    ...(testCase.cassette !== undefined ? { cassette: resolve(testCase.cassette), mode } : {}),
  };
}

function sessionFailureText(failure: { readonly kind: string; readonly message?: string }): string {
  return failure.message ?? `the case's plan session could not open (${failure.kind})`;
}

/** How a case's tools and providers answer, and the host that answers them that way. */
export type CaseHost =
  | {
      readonly host: HostFactory;
      readonly answered: CaseResult["answered"];
      /** The replay a cassette answers from (its misses name the nearest request). */
      readonly replay?: CassetteReplay;
    }
  | { readonly error: string };

/**
 * The host of one case (the test runner's and the debugger's): the case's inputs over the
 * profile's; in record mode the real tools and providers (the journal records them); with a
 * cassette, its replies; else the case's mocks over the profile's tools and providers.
 */
export function testCaseHost(
  testCase: TestCase,
  options: { readonly env?: NodeJS.ProcessEnv; readonly mode?: CassetteMode; readonly cassettes?: CassetteFiles },
): CaseHost {
  const { suite } = testCase;
  const env = options.env ?? process.env;
  const mode = options.mode ?? "off";
  const models: ModelNames = (provider) => suite.profile.providers.get(provider)?.model;
  if (testCase.cassette !== undefined && mode === "record")
    return { host: caseHost(suite.profile, testCase, undefined, env), answered: "recorded" };
  if (testCase.cassette !== undefined) {
    const loaded = options.cassettes?.cassette(testCase.cassette) ?? loadCassette(testCase.cassette);
    if (!loaded.ok) {
      const first = loaded.errors[0];
      return {
        error: first ? `${first.file}:${first.line}:${first.column}: ${first.message}` : "cannot read the cassette",
      };
    }
    const replay = new CassetteReplay(loaded.cassette, cassetteCaseKey(testCase));
    return {
      host: replayingHost(caseHost(suite.profile, testCase, undefined, env), replay, models),
      answered: "cassette",
      replay,
    };
  }
  if (mode === "replay" && testCase.mocks === undefined)
    return { error: "--replay: the case has neither a cassette nor mocks, so it would call real tools and providers" };
  if (mode === "replay" && testCase.mocks !== undefined)
    return {
      host: offlineHost(caseHost(suite.profile, testCase, testCase.mocks, env), testCase.mocks),
      answered: "mocks",
    };
  return { host: caseHost(suite.profile, testCase, testCase.mocks, env), answered: testCase.mocks ? "mocks" : "live" };
}

/**
 * How a cassette names the case that made a call: the test file relative to the cassette's
 * folder, "#", the case's id within it; the same from whatever folder the tests are run.
 */
function cassetteCaseKey(testCase: TestCase): string {
  const file = relative(dirname(testCase.cassette ?? "."), resolve(testCase.suite.file))
    .split(sep)
    .join("/");
  return `${file}${testCase.id.slice(testCase.suite.file.length)}`;
}

/** The suite's host for one case: its inputs over the profile's, its mocks over the profile's tools and providers. */
function caseHost(
  profile: HostProfile,
  testCase: TestCase,
  mocks: Mocks | undefined,
  env: NodeJS.ProcessEnv,
): HostFactory {
  return profileHost(profile, { env, inputValues: testCase.inputs, ...(mocks ? { mocks } : {}) });
}
