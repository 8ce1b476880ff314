// The run journal for clients that do not load it (VS Code's extension host never loads the
// native SQLite module): the runs of the journal seen from a folder, and one run whole, read
// with the core's queries (journal/queries.ts), the same the CLI's `rlm-plan runs` reads.

import { fileURLToPath } from "node:url";
import type { JsonObject } from "@rlm-plan/core/json";
import type { PlanError, RunEvent } from "@rlm-plan/core";
import {
  approvalRequests,
  diffRecordedRuns,
  findJournalDir,
  JournalStore,
  listRuns,
  runDetail,
  type RunSummary,
} from "@rlm-plan/core/journal";
import type { Feature } from "./feature";
import { JournalRunRequest, JournalRunsRequest, RunDiffRequest, type JournalRunSummary } from "../protocol";

const DEFAULT_LIMIT = 200;
const MAX_LIMIT = 10_000;

export const journalRuns: Feature = (ctx) => {
  ctx.connection.onRequest(
    JournalRunsRequest.type,
    ctx.guard.request(JournalRunsRequest.method, (params) => listed(params), { journal: null, runs: [] }),
  );
  ctx.connection.onRequest(
    JournalRunRequest.type,
    ctx.guard.request(JournalRunRequest.method, (params) => detail(params), null),
  );
  ctx.connection.onRequest(
    RunDiffRequest.type,
    ctx.guard.request(RunDiffRequest.method, (params) => diffed(params), {
      ok: false,
      message: "the runs could not be compared",
    }),
  );
};

/** Two runs of one journal compared by the core, as `rlm-plan runs diff A B --json` prints them. */
function diffed(params: RunDiffRequest.Params): RunDiffRequest.Result {
  if (typeof params?.dir !== "string" || !Number.isSafeInteger(params.a) || !Number.isSafeInteger(params.b))
    return { ok: false, message: `${RunDiffRequest.method} needs {"dir", "a", "b"}` };
  return withStore(
    params.dir,
    (store): RunDiffRequest.Result => {
      const diff = diffRecordedRuns(store, params.a, params.b);
      return "missing" in diff
        ? { ok: false, message: `the run journal has no run ${diff.missing}` }
        : { ok: true, diff };
    },
    (message) => ({ ok: false, message }),
  );
}

function listed(params: JournalRunsRequest.Params): JournalRunsRequest.Result {
  const folder = pathOf(params?.uri);
  if (folder === undefined) return { journal: null, runs: [], notice: `${JournalRunsRequest.method} needs a file URI` };
  const dir = findJournalDir(folder);
  if (dir === undefined) return { journal: null, runs: [] };
  const limit = Math.min(Math.max(1, Math.floor(Number(params.limit ?? DEFAULT_LIMIT)) || DEFAULT_LIMIT), MAX_LIMIT);
  return withStore(
    dir,
    (store) => ({ journal: store.dir, runs: listRuns(store, { limit }).map((run) => summary(store.dir, run)) }),
    (notice) => ({ journal: dir, runs: [], notice }),
  );
}

function detail(params: JournalRunRequest.Params): JournalRunRequest.Result | null {
  if (typeof params?.dir !== "string" || !Number.isSafeInteger(params.id)) return null;
  return withStore(
    params.dir,
    (store) => {
      const run = runDetail(store, params.id);
      if (!run) return null;
      const details = run.details as JsonObject & {
        value?: unknown;
        error?: PlanError;
        checkpoints?: string[];
        remaining?: Record<string, number>;
      };
      return {
        ...summary(store.dir, run),
        hostFile: run.hostFile,
        events: run.events.map((e) => e.event as unknown as RunEvent),
        ...("value" in details ? { value: details.value } : {}),
        ...(details.error !== undefined ? { error: details.error } : {}),
        checkpoints: details.checkpoints ?? [],
        ...(details.remaining !== undefined ? { budgetRemaining: details.remaining } : {}),
        approvals: approvalRequests(store, params.id),
      };
    },
    () => null,
  );
}

/** Opens the journal only if it exists (a read never creates one), and always closes it. */
function withStore<T>(dir: string, read: (store: JournalStore) => T, failed: (notice: string) => T): T {
  let store: JournalStore | undefined;
  try {
    store = JournalStore.openExisting(dir);
    if (!store) return failed(`there is no run journal in ${dir}`);
    return read(store);
  } catch (error) {
    return failed(
      `the run journal in ${dir} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    store?.close();
  }
}

function summary(dir: string, run: RunSummary): JournalRunSummary {
  return {
    dir,
    id: run.id,
    uid: run.uid,
    origin: run.origin,
    label: run.label,
    plan: run.plan,
    planFile: run.planFile,
    status: run.status,
    errorKind: run.errorKind,
    startedAt: run.startedAt,
    elapsedMs: run.elapsedMs,
    mocked: run.mocked,
    forkOf: run.forkOf,
  };
}

function pathOf(uri: unknown): string | undefined {
  if (typeof uri !== "string" || !uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
