// Recording cassettes through the run journal (one recording mechanism): a case run with
// --record is a journal run like any other (a `RunRecorder`, origin "test", every model and
// tool request canonical and masked as the journal stores it), and its cassette entries are
// derived afterwards from the run's calls as the journal holds them. The journal is the
// workspace's (beside the host profile, or the profile's `journal.dir`).

import { readFileSync } from "node:fs";
import { isJsonObject, type JsonObject, type JsonValue } from "../json";
import { profileJournalDir } from "../journal/location";
import { runDetail, type RecordedCall } from "../journal/queries";
import { RunRecorder } from "../journal/recorder";
import { JournalStore } from "../journal/store";
import type { HostProfile } from "../host/profile";
import type { SecretMask } from "../run/secrets";
import { MAX_HOST_PROFILE_BYTES } from "../text/boundedFile";
import type { CassetteEntry, CassetteRequest } from "./cassette";

/** One recorded case: the observer its run takes, and the cassette entries derived once it ended. */
export interface CaseRecording {
  readonly recorder: RunRecorder;
  /** The run's calls, read back from the journal, as cassette entries of `caseKey`. */
  entries(caseKey: string): CassetteEntry[];
}

/** The journals of one test run, each opened once (a journal per host profile's folder). */
export class JournalRecordings {
  private readonly stores = new Map<string, JournalStore>();
  /** Journal run ids per journal folder, for the line that says where the recordings are. */
  readonly runs = new Map<string, number[]>();

  constructor(private readonly mask: SecretMask) {}

  /** Starts the journal run of a case; throws (JournalError, better-sqlite3 missing) when no journal can be opened. */
  begin(profile: HostProfile, plan: { file: string; text: string }, options: JsonObject): CaseRecording {
    const dir = profileJournalDir(profile);
    let store = this.stores.get(dir);
    if (!store) {
      store = JournalStore.open(dir);
      this.stores.set(dir, store);
    }
    const recorder = RunRecorder.begin(store, {
      origin: "test",
      plan,
      hostProfile: { file: profile.file, text: hostText(profile.file) },
      options,
      mask: this.mask,
    });
    const ids = this.runs.get(dir) ?? [];
    ids.push(recorder.runId);
    this.runs.set(dir, ids);
    const opened = store;
    return {
      recorder,
      entries: (caseKey) => cassetteEntries(runDetail(opened, recorder.runId)?.calls ?? [], caseKey),
    };
  }

  close(): void {
    for (const store of this.stores.values()) store.close();
    this.stores.clear();
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

/** The journal's canonical request (journal/canonical.ts) in the cassette's format. */
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

function hostText(file: string): string {
  try {
    return readFileSync(file, "utf8").slice(0, MAX_HOST_PROFILE_BYTES);
  } catch {
    return "";
  }
}
