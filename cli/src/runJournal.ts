// `rlm-plan run`'s side of the run journal: every run is recorded in the workspace's journal
// (`.rlm-plan/` beside the host profile; --journal DIR elsewhere, --no-journal not at all), and
// `--resume RUN` takes the plan, host profile and options the run was recorded with.

import { relative, resolve } from "node:path";
import { isJsonObject, newJsonObject, type JsonObject } from "@rlm-plan/core/json";
import {
  JournalError,
  journalFrom,
  JournalStore,
  namedJournalDir,
  resumePoint,
  type ResumePoint,
  ResumeRefusal,
} from "@rlm-plan/core/journal";
import type { ParallelMode, RunObserver } from "@rlm-plan/core/run";
import type { SecretMask } from "@rlm-plan/core/secrets";
import type { PlanSession, SessionRecording } from "@rlm-plan/core/session";
import type { HostProfile } from "@rlm-plan/core/host";
import type { RunTrace } from "@rlm-plan/core/telemetry";
import { basename } from "node:path";

export interface JournalArgs {
  readonly plan: string;
  readonly host: string | undefined;
  readonly inputs: Record<string, string>;
  /** Inline input values (--input-text, --input-json, --inputs). */
  readonly inputValues: JsonObject;
  readonly mocks: string | undefined;
  readonly parallel: ParallelMode | undefined;
  /** --journal DIR. */
  readonly journal: string | undefined;
  /** --no-journal. */
  readonly noJournal: boolean;
  /** --resume RUN. */
  readonly resume: number | undefined;
  /** --otlp URL. */
  readonly otlp: string | undefined;
}

interface Writer {
  write(text: string): unknown;
}

/** A resume's journal and point, read before the plan (the plan's path comes from it). */
export interface Resuming {
  readonly store: JournalStore;
  readonly point: ResumePoint;
}

/**
 * For --resume: the run's recorded plan, host profile and options as arguments, or an exit status
 * after saying why not.
 */
export function resumeArgs<A extends JournalArgs>(args: A, stderr: Writer): { args: A; resuming: Resuming } | number {
  const id = args.resume as number;
  const dir =
    args.journal !== undefined ? namedJournalDir(args.journal) : journalFrom(process.cwd(), args.plan || undefined);
  if (typeof dir !== "string") {
    stderr.write(
      dir.length === 0
        ? "rlm-plan: --resume: no run journal here (.rlm-plan/ in this folder, above it or below it, or beside a host profile); pass --journal DIR\n"
        : `rlm-plan: --resume: no run journal here, and ${dir.length} below: ${dir.map(shown).join(", ")}; pass --journal DIR\n`,
    );
    return 2;
  }
  let store: JournalStore | undefined;
  try {
    store = JournalStore.open(dir);
    for (const notice of store.notices) stderr.write(`rlm-plan: ${notice}\n`);
    const point = resumePoint(store, id);
    const options = (JSON.parse(point.run.details) as { options?: JsonObject }).options ?? {};
    const plan = point.run.plan_file;
    if (plan === null) throw new ResumeRefusal(`run ${id} was not started from a plan file`);
    if (args.plan !== "" && relative(args.plan, plan) !== "")
      throw new ResumeRefusal(`run ${id} ran the plan ${plan}, not ${args.plan}`);
    const inputs = (options["inputs"] ?? {}) as Record<string, string>;
    const values = options["input_values"];
    return {
      args: {
        ...args,
        plan,
        host: point.run.host_file ?? undefined,
        inputs: Object.assign(Object.create(null) as Record<string, string>, inputs),
        inputValues: Object.assign(newJsonObject(), isJsonObject(values) ? values : {}),
        mocks: typeof options["mocks"] === "string" ? options["mocks"] : undefined,
        parallel: (options["parallel"] as ParallelMode | undefined) ?? undefined,
      },
      resuming: { store, point },
    };
  } catch (error) {
    store?.close();
    const known = error instanceof ResumeRefusal || error instanceof JournalError;
    stderr.write(`rlm-plan: ${known ? "cannot resume: " : ""}${messageOf(error)}\n`);
    return known ? 1 : 2;
  }
}

export interface Recording extends SessionRecording {
  /** "run 12 in .rlm-plan": for the last line. */
  readonly where: string;
  /** " --journal DIR" for the commands the last line names, when they would not find this journal from here. */
  readonly journalOption: string;
}

/**
 * Starts recording through the session (the one recording path, session/runRecording.ts), or
 * continues a resumed run's entry. A journal that cannot be opened never stops the run: it is
 * said, and the run goes on unrecorded. A refused resume is an exit status.
 */
export function startRecording(
  args: JournalArgs,
  session: PlanSession,
  stderr: Writer,
  resuming: Resuming | undefined,
): Recording | undefined | number {
  if (args.noJournal) return undefined;
  const say = (message: string) => void stderr.write(`rlm-plan: ${message}\n`);
  const started = session.record({
    origin: "cli",
    ...(args.journal !== undefined ? { dir: args.journal } : {}),
    options: recordedOptions(args),
    ...(resuming ? { resume: resuming } : {}),
    onNotice: say,
  });
  if (!started.ok) {
    say(`cannot resume: ${started.refusal}`);
    return 1;
  }
  const { recording } = started;
  if (!recording) return undefined;
  // What `runs show N` and `run --resume N` typed here would read.
  const found = journalFrom(process.cwd());
  const journalOption =
    typeof found === "string" && resolve(found) === recording.store.dir
      ? ""
      : ` --journal ${shellWord(shown(recording.store.dir))}`;
  return { ...recording, where: `run ${recording.recorder.runId} in ${shown(recording.store.dir)}`, journalOption };
}

/** What the run's last lines say of its journal entry (RunArgs' recorded fields). */
export function recordedArgs(recording: Recording): {
  recordedAs: number;
  recordedWhere: string;
  recordedJournal: string;
} {
  return {
    recordedAs: recording.recorder.runId,
    recordedWhere: recording.where,
    recordedJournal: recording.journalOption,
  };
}

/**
 * What a resume needs to run the same way again: inputs, mocks and parallel mode as given. Files
 * under `inputs` (paths), values under `input_values`, the key a test case's run uses too.
 */
function recordedOptions(args: JournalArgs): JsonObject {
  const inputs: JsonObject = {};
  for (const [name, file] of Object.entries(args.inputs)) inputs[name] = resolvePath(file);
  return {
    ...(Object.keys(inputs).length > 0 ? { inputs } : {}),
    ...(Object.keys(args.inputValues).length > 0 ? { input_values: args.inputValues } : {}),
    ...(args.mocks !== undefined ? { mocks: resolvePath(args.mocks) } : {}),
    ...(args.parallel !== undefined ? { parallel: args.parallel } : {}),
  };
}

function resolvePath(file: string): string {
  return resolve(file);
}

function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel !== "" && !rel.startsWith("..") ? rel : dir;
}

/** A path as a shell reads it back whole: quoted when it holds anything but plain path characters. */
function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What watches a run from outside, and what is left of it once the result is printed. */
export interface RunWatchers {
  readonly observers: RunObserver[];
  /**
   * The trace's flush, bounded by its deadline and ended at once when `signal` aborts (Ctrl-C):
   * awaited after the result, so telemetry never holds it.
   */
  settled(signal: AbortSignal): Promise<void>;
}

/** What watches the run: a trace exporter with --otlp or the profile's telemetry.otlp. */
export function runObservers(
  args: JournalArgs,
  profile: Pick<HostProfile, "telemetry">,
  recording: Recording | undefined,
  mask: SecretMask,
  env: NodeJS.ProcessEnv,
  stderr: Writer,
): RunWatchers {
  const url = args.otlp ?? profile.telemetry?.otlp;
  if (url === undefined) return { observers: [], settled: () => Promise.resolve() };
  // OpenTelemetry (a tenth of the bundle, with http and zlib) only for a run that exports a trace.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { RunTrace: Trace } = require("@rlm-plan/core/telemetry") as { RunTrace: typeof RunTrace };
  const trace = new Trace({
    url,
    planName: basename(args.plan),
    mask,
    env,
    ...(recording ? { runId: recording.recorder.runId } : {}),
    onNotice: (message) => void stderr.write(`rlm-plan: ${mask.mask(message)}\n`),
  });
  return { observers: [trace], settled: (signal) => trace.settled(signal) };
}
