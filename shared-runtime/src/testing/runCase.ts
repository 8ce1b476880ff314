// One case of a test file, run through startRun (the one run pipeline) under the suite's host
// profile: the case's inputs replace the profile's of the same name, its mocks answer the tools
// and providers they name, and its cassette (when replaying or recording) is a layer over the
// host. The report is the assertions' failures and what the run spent.

import { dirname, relative, resolve, sep } from "node:path";
import type { JsonValue } from "../json";
import { profileHost } from "../host/createHost";
import { withInputValues } from "../host/inputValues";
import { runPolicy } from "../session/analysisPolicy";
import type { Mocks } from "../host/mocks";
import type { HostProfile } from "../host/profile";
import type { RunEvent } from "../run/events";
import { startRun, type HostFactory, type RunReport, type RunStage } from "../run/startRun";
import type { Estimate } from "../plan/estimate";
import { checkExpectations, pointerOf, spentOf, type AssertionFailure, type Spent } from "./assertions";
import { CassetteReplay, loadCassette, replayingHost, type ModelNames } from "./cassette";
import type { CaseRecording } from "./cassetteRecording";
import { safeErrorText } from "../run/errors";
import type { CassetteFiles } from "./cassetteFiles";
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
  let recording: CaseRecording | undefined;
  if (answered === "recorded") {
    if (!options.cassettes) return notRun("recording needs the test run's cassettes");
    try {
      recording = options.cassettes.journal.begin(
        suite.profile,
        { file: resolve(suite.planFile), text: suite.planText },
        { test: testCase.id, cassette: testCase.cassette ?? null },
      );
    } catch (error) {
      return notRun(`--record writes the run journal, which could not be opened: ${safeErrorText(error)}`);
    }
  }

  const steps = stepWatcher();
  const report = await startRun({
    source: { kind: "document", text: suite.planText },
    policy: runPolicy(suite.profile),
    host,
    onEvent: steps.onEvent,
    ...(recording ? { observers: [recording.recorder] } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  }).done;
  // The cassette is what the journal recorded of this run.
  if (recording && testCase.cassette !== undefined)
    options.cassettes?.add(testCase.cassette, recording.entries(cassetteCaseKey(testCase)));
  const judged = judgeRun(testCase.expect, suite.estimate, report, steps);
  // A replay miss is the reason, whatever the assertions say about the failure it caused.
  const miss = replay?.misses[0];
  if (miss && !judged.failures.some((f) => f.message.includes(miss.message)))
    judged.failures.unshift({ assertion: "ok", message: miss.message });
  return {
    ...base,
    ...judged,
    ok: judged.failures.length === 0,
    duration_ms: Math.round(performance.now() - started),
    answered,
  };
}

/** Which steps a run started and completed (JSON pointers), from its event stream. */
export interface StepWatch {
  readonly onEvent: (event: RunEvent) => void;
  readonly completed: readonly string[];
  readonly started: ReadonlySet<string>;
}

export function stepWatcher(): StepWatch {
  const completed: string[] = [];
  const started = new Set<string>();
  return {
    completed,
    started,
    onEvent: (event) => {
      if (event.type === "step_started") started.add(pointerOf(event.path));
      else if (event.type === "step_finished") completed.push(pointerOf(event.path));
    },
  };
}

/** What a case's run amounts to against its expectations: the one verdict, wherever the case ran (here or on a worker). */
export function judgeRun(
  expect: Expectations,
  estimate: Estimate | undefined,
  report: RunReport,
  steps: Pick<StepWatch, "completed" | "started">,
): Pick<CaseResult, "ok" | "stage" | "spent" | "value" | "error"> & { failures: AssertionFailure[] } {
  const { outcome } = report;
  const failures = checkExpectations(expect, {
    outcome,
    ...(report.budget ? { budget: report.budget } : {}),
    completed: [...steps.completed],
    started: new Set(steps.started),
    ...(estimate ? { estimate } : {}),
  });
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
  return withInputValues(profileHost(profile, { env, ...(mocks ? { mocks } : {}) }), testCase.inputs);
}
