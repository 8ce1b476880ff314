// Recording cassettes through the run journal (one recording mechanism): every case is a journal
// run like any other (recorded through its plan session, origin "test": runCase.ts), and a case
// run with --record has its cassette entries derived afterwards from the run's calls as the
// journal holds them (every model and tool request canonical and masked).

import { isJsonObject, type JsonValue } from "../json";
import { runDetail, type RecordedCall } from "../journal/queries";
import { JournalStore } from "../journal/journalStore";
import type { CassetteEntry, CassetteRequest } from "./cassette";

/** The journal runs of one test run's cases, per journal folder: for the line that says where they are. */
export class RecordedRuns {
  readonly runs = new Map<string, number[]>();

  add(dir: string, runId: number): void {
    const ids = this.runs.get(dir) ?? [];
    ids.push(runId);
    this.runs.set(dir, ids);
  }
}

/** A recorded case's cassette entries, read back from its journal entry (the journal's masked, canonical calls). */
export function cassetteEntriesOf(
  journal: { readonly dir: string; readonly runId: number },
  caseKey: string,
): CassetteEntry[] {
  const store = JournalStore.openExisting(journal.dir);
  if (!store) return [];
  try {
    return cassetteEntries(runDetail(store, journal.runId)?.calls ?? [], caseKey);
  } finally {
    store.close();
  }
}

/** A journal run's calls as cassette entries: settled calls with a reply that can be replayed, in call order. */
export function cassetteEntries(calls: readonly RecordedCall[], caseKey: string): CassetteEntry[] {
  const entries: CassetteEntry[] = [];
  for (const call of calls) {
    if (!call.replayable || (call.status !== "ok" && call.status !== "error")) continue;
    const request = cassetteRequest(call.request);
    if (!request) continue;
    const reply = call.status === "ok" ? { value: call.reply ?? null } : { error: call.error ?? "the call failed" };
    entries.push({ case: caseKey, request, reply });
  }
  return entries;
}

/** The journal's canonical request (journal/requestKey.ts) in the cassette's format. */
function cassetteRequest(request: JsonValue): CassetteRequest | undefined {
  if (!isJsonObject(request)) return undefined;
  if (request["kind"] === "tool" && typeof request["tool"] === "string")
    return { kind: "tool", tool: request["tool"], args: request["arguments"] ?? null };
  if (request["kind"] === "model" && typeof request["provider"] === "string") {
    const model = request["model"];
    return {
      kind: "model",
      provider: request["provider"],
      ...(typeof model === "string" ? { model } : {}),
      messages: request["messages"] ?? [],
      options: isJsonObject(request["options"]) ? request["options"] : {},
    };
  }
  return undefined;
}
