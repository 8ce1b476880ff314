// Replaying a recorded run without executing anything (the debugger's "Debug Recorded Run"): the
// plan runs again through the one pipeline, every model and tool call answered from the journal
// (the same book a resume reads, replay.ts) and a call the journal does not hold refused, never
// made; every tool and provider is mocked, so no program, server, key or network is touched.
// Context operations are the runtime's own work on the inputs and run again, so every binding is
// as it was. A fork (ForkReplies) answers from the same book only up to the step it forks at.

import type { JsonObject, JsonValue } from "../json";
import type { RunEvent } from "../run/events";
import type { CallInterceptor, RunObserver } from "../run/observer";
import type { SecretMask } from "../mask/secretMask";
import { callIdentity } from "./requestKey";
import { ReplayBook, ResumeRefusal, type ResumePoint } from "./replay";
import { CALL_COLUMNS, EVENT_COLUMNS, RUN_COLUMNS, type CallRow, type EventRow, type RunRow } from "./rows";
import type { JournalStore } from "./journalStore";

/** A recorded run, whatever its status, as replay needs it. */
export function recordedRun(store: JournalStore, id: number): ResumePoint {
  const db = store.db;
  const run = db.prepare(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`).get(id) as RunRow | undefined;
  if (!run) throw new ResumeRefusal(`there is no run ${id} in the run journal ${store.file}`);
  const events = db.prepare(`SELECT ${EVENT_COLUMNS} FROM events WHERE run_id = ? ORDER BY seq`).all(id) as EventRow[];
  const calls = db.prepare(`SELECT ${CALL_COLUMNS} FROM calls WHERE run_id = ? ORDER BY seq`).all(id) as CallRow[];
  return { run, events, calls, elapsedMs: events.reduce((max, e) => Math.max(max, e.elapsed_ms), 0) };
}

/**
 * Mocks naming every tool and provider of the profile and of the recorded calls, with no answer:
 * the host then builds no program or connection, and checks no key. The replay answers every
 * call before the host is asked.
 */
export function replayMocks(
  point: ResumePoint,
  profile: { tools: ReadonlyMap<string, unknown>; providers: ReadonlyMap<string, unknown> },
): JsonObject {
  const tools: JsonObject = {};
  const providers: JsonObject = {};
  for (const name of profile.tools.keys()) tools[name] = [];
  for (const name of profile.providers.keys()) providers[name] = [];
  for (const call of point.calls) (call.kind === "tool" ? tools : providers)[call.name] = [] as JsonValue[];
  return { tools, providers };
}

/**
 * A run's recorded calls without those of the step at `path` and the steps inside it: what a
 * restart from that step (the debugger's Restart Frame) answers the steps before it with.
 */
export function callsBefore(point: ResumePoint, path: readonly (string | number)[]): ResumePoint {
  const within = (callPath: string): boolean => {
    const parsed = JSON.parse(callPath) as unknown[];
    return parsed.length >= path.length && path.every((part, i) => parsed[i] === part);
  };
  return { ...point, calls: point.calls.filter((call) => !within(call.path)) };
}

/**
 * The observer that answers a run's calls from the journal: a replay refuses any other call
 * (`strict`); a restart from a step makes the others for real.
 */
export class RecordedReplies implements RunObserver {
  private readonly book: ReplayBook;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly point: ResumePoint,
    private readonly mask: SecretMask,
    private readonly strict = true,
  ) {
    // Every ended step counts as completed: the book answers all of the run's calls.
    this.book = new ReplayBook(point);
  }

  readonly call: CallInterceptor = (call, proceed) => {
    const path = JSON.stringify(call.step.path);
    const occurrence = (this.counts.get(path) ?? 0) + 1;
    this.counts.set(path, occurrence);
    const identity = callIdentity(call, this.mask);
    const recorded = this.book.take(path, occurrence, identity.key);
    if (recorded) return recorded();
    if (!this.strict) return proceed();
    return Promise.reject(
      new Error(
        `run ${this.point.run.id} recorded no answer to this ${call.kind} call of "${call.name}" (a replay executes nothing): the run went another way here, or the call's reply could not be recorded`,
      ),
    );
  };
}

/**
 * The observer of a fork (`run --from RUN --step PATH`): its calls are answered from the recorded
 * run until the step at `at` starts, or until the run no longer matches the record (a step
 * missing from it or with another operation at that path, a call whose canonical request
 * differs: a plan changed since); from then on every call is made for real.
 */
export class ForkReplies implements RunObserver {
  private readonly book: ReplayBook;
  private readonly counts = new Map<string, number>();
  /** Each recorded step's operation, by path (JSON text). */
  private readonly operations = new Map<string, string>();
  private live = false;

  constructor(
    point: ResumePoint,
    /** The fork's step path as JSON text (the journal's form). */
    private readonly at: string,
    private readonly mask: SecretMask,
  ) {
    this.book = new ReplayBook(point);
    for (const event of point.events) {
      if (event.type !== "step_started") continue;
      const body = JSON.parse(event.body) as { path: unknown; operation?: unknown };
      const path = JSON.stringify(body.path);
      if (!this.operations.has(path) && typeof body.operation === "string") this.operations.set(path, body.operation);
    }
  }

  event(event: RunEvent): void {
    if (this.live || event.type !== "step_started") return;
    const path = JSON.stringify(event.path);
    if (path === this.at || this.operations.get(path) !== event.operation) this.live = true;
  }

  readonly call: CallInterceptor = (call, proceed) => {
    if (this.live) return proceed();
    const path = JSON.stringify(call.step.path);
    const occurrence = (this.counts.get(path) ?? 0) + 1;
    this.counts.set(path, occurrence);
    const recorded = this.book.take(path, occurrence, callIdentity(call, this.mask).key);
    if (recorded) return recorded();
    this.live = true;
    return proceed();
  };
}
