// A session's run in the run journal: the one way a run is recorded, attached by the session
// (runLife.ts) to every front end's runs (the CLI's `run` and `propose --run`, the language
// server's, the debug adapter's, `rlm-plan test`'s cases, workers' jobs). The journal is
// the host profile's (`journal.dir`, default `.rlm-plan/` beside it) or a folder the user names;
// a profile that says `"journal": {"enabled": false}` records nothing. A journal that cannot be
// opened never stops the run: it is said through `onNotice` and the run goes on unrecorded.

import { resolve } from "node:path";
import type { JsonObject } from "../json";
import { journalDirOf, namedJournalDir, profileJournalDir } from "../journal/location";
import { RunRecorder } from "../journal/recorder";
import type { RunOrigin } from "../journal/runOrigin";
import { checkSameInputs, ResumeRefusal, type ResumePoint } from "../journal/replay";
import { JournalStore } from "../journal/journalStore";
import type { HostProfile } from "../host/profile";
import type { SecretMask } from "../mask/secretMask";
import { MAX_HOST_PROFILE_BYTES, readTextFileSync } from "../text/boundedFile";

export interface RecordRequest {
  readonly origin: RunOrigin;
  /** What the run is within its origin (a test run's "FILE#CASE"): listed and filtered by `rlm-plan runs list`. */
  readonly label?: string;
  /** The run this one forks and the step it forks at, as printed ("steps/2"). */
  readonly forkOf?: { readonly run: number; readonly step: string };
  /** The journal folder the user named (`--journal DIR`): used even where the profile disables recording. */
  readonly dir?: string;
  /** The run's options as the front end names them (inputs, mocks, parallel), for history and resume. */
  readonly options?: JsonObject;
  /** The plan's name, for a session without a plan file (a queued job's). */
  readonly planName?: string;
  /** Continue this run's entry instead of starting one (its journal already open). */
  readonly resume?: { readonly store: JournalStore; readonly point: ResumePoint };
  /** A journal problem that did not stop the run, masked. */
  readonly onNotice?: (message: string) => void;
}

export interface SessionRecording {
  readonly recorder: RunRecorder;
  readonly store: JournalStore;
}

/** What the session knows that a recording needs. */
export interface RecordedSession {
  readonly file: string | undefined;
  readonly text: string | undefined;
  readonly hostProfile: string | undefined;
  readonly profile: HostProfile | undefined;
  readonly mask: SecretMask;
}

export type RecordingStart =
  | { readonly ok: true; readonly recording: SessionRecording | undefined }
  /** A resume refused: the plan or host profile changed since the run. */
  | { readonly ok: false; readonly refusal: string };

/** The journal folder of a session's runs: the named one, the profile's, or `.rlm-plan/` beside the profile. */
export function sessionJournalDir(
  session: Pick<RecordedSession, "hostProfile" | "profile">,
  dir?: string,
): string | undefined {
  if (dir !== undefined) return namedJournalDir(dir);
  if (session.profile) return profileJournalDir(session.profile);
  return session.hostProfile === undefined ? undefined : journalDirOf(session.hostProfile);
}

/** Starts recording a session's run (or continues a resumed run's entry). */
export function startSessionRecording(session: RecordedSession, request: RecordRequest): RecordingStart {
  const { profile, hostProfile } = session;
  const say = (message: string) => {
    try {
      request.onNotice?.(session.mask.mask(message));
    } catch {
      // a listener's failure is its own
    }
  };
  if (!request.resume && request.dir === undefined && profile?.journal?.enabled === false)
    return { ok: true, recording: undefined };
  const planText = session.text ?? "";
  let store = request.resume?.store;
  try {
    // The profile this run was opened with, so never over its cap: one that grew since is refused.
    const hostText = hostProfile === undefined ? undefined : readTextFileSync(hostProfile, MAX_HOST_PROFILE_BYTES);
    const meta = {
      origin: request.origin,
      ...(request.label !== undefined ? { label: request.label } : {}),
      ...(request.forkOf ? { forkOf: request.forkOf } : {}),
      plan: {
        ...(session.file !== undefined
          ? { file: resolve(session.file) }
          : request.planName !== undefined
            ? { file: request.planName }
            : {}),
        text: planText,
      },
      ...(hostProfile !== undefined && hostText !== undefined
        ? { hostProfile: { file: resolve(hostProfile), text: hostText } }
        : {}),
      options: request.options ?? {},
      ...(profile ? { currency: profile.currency } : {}),
      mask: session.mask,
      onNotice: say,
    };
    if (request.resume) checkSameInputs(request.resume.point, planText, meta.hostProfile);
    const dir = sessionJournalDir(session, request.dir);
    if (dir === undefined) return { ok: true, recording: undefined };
    store ??= JournalStore.open(dir);
    for (const notice of store.notices) say(notice);
    const recorder = request.resume
      ? RunRecorder.resume(store, request.resume.point, meta)
      : RunRecorder.begin(store, meta);
    return { ok: true, recording: { recorder, store } };
  } catch (error) {
    store?.close();
    if (error instanceof ResumeRefusal) return { ok: false, refusal: session.mask.mask(error.message) };
    say(`this run is not recorded: ${error instanceof Error ? error.message : String(error)}`);
    return { ok: true, recording: undefined };
  }
}
