// What watches a session's run, attached by the session whoever starts it: the run journal's
// recorder (runRecording.ts: the profile's journal, a folder the user named, or none when the
// profile or the user turns it off) and the OpenTelemetry trace (the profile's `telemetry.otlp`,
// or a URL the user gave). A front end says who it is and what it opts out of, never what to
// attach. OpenTelemetry is required only for a run that exports a trace, the journal only for a
// run that records: a run without them loads none of it (ARCHITECTURE.md, "Start-up").

import { userInfo } from "node:os";
import { basename } from "node:path";
import type { JsonObject } from "../json";
import type { RunOrigin } from "../journal/runOrigin";
import type { ResumePoint } from "../journal/replay";
import type { JournalStore } from "../journal/journalStore";
import type { RunObserver } from "../run/observer";
import type { RunHandle } from "../run/startRun";
import type { RunTrace } from "../telemetry/runTrace";
import type { RecordedSession } from "./runRecording";

/** Who starts a run and what the user asked of its journal and trace. */
export interface RunLife {
  /** Names the run's origin in the journal. */
  readonly origin: RunOrigin;
  /** What the run is within its origin (a test run's "FILE#CASE"): listed and filtered by `rlm-plan runs list`. */
  readonly label?: string;
  /** What the run was given, as the front end names it (inputs, mocks, parallel): for history and resume. */
  readonly given?: JsonObject;
  /** `false`: record nothing (`--no-journal`); a folder: record there (`--journal DIR`), even where the profile says not to. */
  readonly journal?: false | { readonly dir: string };
  /** An OTLP/HTTP endpoint (`--otlp URL`) over the profile's `telemetry.otlp`. */
  readonly otlp?: string;
  /** The run this one forks and the step it forks at (session.fork() sets it). */
  readonly forkOf?: { readonly run: number; readonly step: string };
  /** The plan's name in the journal and the trace, for a session without a plan file (a queued job's). */
  readonly planName?: string;
  /** A journal or trace problem that did not stop the run, masked. */
  readonly onNotice?: (message: string) => void;
  /**
   * Who starts the run (`run --as NAME`), default the OS user: an approval rule may forbid them to
   * approve it (docs/approvals.md). A resumed run keeps its starter.
   */
  readonly startedBy?: string;
  /**
   * The time approval requests are asked and decided at; default the wall clock. A test case that
   * lets a request time out resumes its run past the deadline (testing/caseApprovals.ts), waiting no real time.
   */
  readonly clock?: () => number;
}

/** Where a run is recorded. */
export interface RecordedRef {
  readonly dir: string;
  readonly id: number;
  readonly uid: string;
}

/** A session's run: its handle, its journal entry, and the end of its trace. */
export interface SessionRun extends RunHandle {
  /** Where the run is recorded, or undefined when it is not. */
  readonly recorded: RecordedRef | undefined;
  /**
   * Resolves once the run's trace is sent or given up (bounded by its deadline; at once when
   * `signal` aborts). Await it after showing the result: telemetry never holds a run.
   */
  settled(signal?: AbortSignal): Promise<void>;
}

/** What the session knows that a run's watchers need. */
export interface LifeSession extends RecordedSession {
  env(): NodeJS.ProcessEnv;
}

/** The watchers attached to one run, before it starts. */
export interface AttachedLife {
  readonly observers: readonly RunObserver[];
  readonly recorded: RecordedRef | undefined;
  readonly store: JournalStore | undefined;
  readonly trace: RunTrace | undefined;
  /**
   * The approval gate (approvalGate.ts), for a profile with approval rules: the innermost watcher,
   * after the front end's, so a call answered from a recorded run (a fork's, a replay's) never
   * reaches it.
   */
  readonly gate?: RunObserver;
}

export type LifeStart =
  { readonly ok: true; readonly life: AttachedLife } | { readonly ok: false; readonly refusal: string };

/** Attaches the journal and the trace a run of `session` gets; `resume` continues a recorded entry. */
export function attachLife(
  session: LifeSession,
  life: RunLife,
  resume?: { readonly store: JournalStore; readonly point: ResumePoint },
): LifeStart {
  const say = (message: string) => {
    try {
      life.onNotice?.(session.mask.mask(message));
    } catch {
      // a listener's failure is its own
    }
  };
  const journalOff = life.journal === false && !resume;
  const startedBy = starterOf(life, resume?.point);
  const started = journalOff
    ? { ok: true as const, recording: undefined }
    : // The journal (its store, SQLite, the recorder's node:crypto) only for a run that records.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      (require("./runRecording") as typeof import("./runRecording")).startSessionRecording(session, {
        origin: life.origin,
        ...(life.label !== undefined ? { label: life.label } : {}),
        ...(life.forkOf ? { forkOf: life.forkOf } : {}),
        ...(life.journal ? { dir: life.journal.dir } : {}),
        ...(life.planName !== undefined ? { planName: life.planName } : {}),
        options: { ...life.given, started_by: startedBy },
        ...(resume ? { resume } : {}),
        onNotice: say,
      });
  if (!started.ok) return started;
  const recording = started.recording;
  const recorded = recording
    ? { dir: recording.store.dir, id: recording.recorder.runId, uid: recording.recorder.uid }
    : undefined;
  const url = life.otlp ?? session.profile?.telemetry?.otlp;
  let trace: RunTrace | undefined;
  if (url !== undefined) {
    // OpenTelemetry (four packages, with http and zlib) only for a run that exports a trace.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { RunTrace: Trace } = require("../telemetry/runTrace") as typeof import("../telemetry/runTrace");
    trace = new Trace({
      url,
      planName: basename(session.file ?? life.planName ?? "plan"),
      mask: session.mask,
      env: session.env(),
      ...(recorded ? { runId: recorded.id } : {}),
      onNotice: say,
    });
  }
  const observers: RunObserver[] = [];
  if (recording) observers.push(recording.recorder);
  if (trace) observers.push(trace);
  const rules = session.profile?.approvals ?? [];
  const gate =
    rules.length > 0
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require("./approvalGate") as typeof import("./approvalGate")).approvalGate({
          rules,
          journal: recording ? { store: recording.store, runId: () => recording.recorder.runId } : undefined,
          mask: session.mask,
          requester: startedBy,
          ...(life.clock ? { now: life.clock } : {}),
          ...(trace ? { onEntry: (entry) => trace.approvalEntry(entry) } : {}),
        })
      : undefined;
  return { ok: true, life: { observers, recorded, store: recording?.store, trace, ...(gate ? { gate } : {}) } };
}

/** Who started the run: a resumed run's recorded starter, else the front end's, else the OS user. */
function starterOf(life: RunLife, resumed: ResumePoint | undefined): string {
  if (resumed) {
    try {
      const recorded = (JSON.parse(resumed.run.details) as { options?: { started_by?: unknown } }).options?.started_by;
      if (typeof recorded === "string") return recorded;
    } catch {
      // details unreadable: the front end's say
    }
  }
  return life.startedBy ?? osUserName();
}

/** Who a front end's user is when they give no name (`--as NAME`): the OS user, "unknown" where it has none. */
export function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return "unknown";
  }
}
