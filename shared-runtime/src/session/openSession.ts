// Opening a plan session: the plan read bounded, the host profile found above it and loaded, the
// mocks read, the secret mask started; each failure a value with what the user needs.

import { resolve } from "node:path";
import { parseMocks, type Mocks } from "../host/mocks";
import { readErrorText, type HostProfile } from "../host/profile";
import type { SecretMask } from "../mask/secretMask";
import { MAX_MOCKS_BYTES, MAX_PLAN_BYTES, readTextFile, readTextFileSync } from "../text/boundedFile";
import { HOST_PROFILE_FILENAME, hostProfileIn, hostProfileOf, readHostProfile } from "./hostProfiles";
import { PlanSession } from "./planSession";
import { addSessionSecrets, sessionMask } from "./sessionMask";
import type { PlanSessionOptions, SessionFailure } from "./sessionOptions";

export type OpenedSession =
  | { readonly ok: true; readonly session: PlanSession }
  | {
      readonly ok: false;
      readonly failure: SessionFailure;
      /** The mask as far as the session got (environment, client values, the profile if read). */
      readonly mask: SecretMask;
      /** The host profile file, when one was found. */
      readonly hostProfile?: string;
    };

/** Opens a session, reading the plan without blocking the event loop (runs, the debugger). */
export async function openPlanSession(options: PlanSessionOptions): Promise<OpenedSession> {
  let text = options.text;
  if (text === undefined && options.file !== undefined) {
    const file = resolve(options.cwd ?? ".", options.file);
    try {
      text = await readTextFile(file, MAX_PLAN_BYTES);
    } catch (error) {
      return unreadable(options, file, error);
    }
  }
  return openWithText(options, text);
}

/** The same, reading synchronously (check, estimate, graph). */
export function openPlanSessionSync(options: PlanSessionOptions): OpenedSession {
  let text = options.text;
  if (text === undefined && options.file !== undefined) {
    const file = resolve(options.cwd ?? ".", options.file);
    try {
      text = readTextFileSync(file, MAX_PLAN_BYTES);
    } catch (error) {
      return unreadable(options, file, error);
    }
  }
  return openWithText(options, text);
}

function unreadable(options: PlanSessionOptions, file: string, error: unknown): OpenedSession {
  return {
    ok: false,
    failure: {
      kind: "plan_unreadable",
      file,
      message: `cannot read the plan ${file}: ${readErrorText(error)}`,
      reason: readErrorText(error),
      ...(typeof (error as NodeJS.ErrnoException | undefined)?.code === "string"
        ? { code: (error as NodeJS.ErrnoException).code as string }
        : {}),
    },
    mask: maskOf(options, undefined),
  };
}

function maskOf(options: PlanSessionOptions, profile: HostProfile | undefined): SecretMask {
  const sources = {
    env: { ...(options.env ?? process.env), ...options.clientEnv },
    clientValues: Object.values(options.clientEnv ?? {}),
    ...(profile ? { profile } : {}),
  };
  return options.mask ? addSessionSecrets(options.mask, sources) : sessionMask(sources);
}

function openWithText(options: PlanSessionOptions, rawText: string | undefined): OpenedSession {
  const text = rawText !== undefined && rawText.charCodeAt(0) === 0xfeff ? rawText.slice(1) : rawText;
  const cwd = options.cwd ?? process.cwd();
  const planFile = options.file !== undefined ? resolve(cwd, options.file) : undefined;
  const profileFile =
    options.hostProfile !== undefined
      ? resolve(cwd, options.hostProfile)
      : planFile !== undefined
        ? hostProfileOf(planFile)
        : hostProfileIn(cwd);
  if (profileFile === undefined) {
    if (options.requireHost !== false) {
      const where = planFile !== undefined ? `the folder of ${planFile}` : cwd;
      return {
        ok: false,
        failure: {
          kind: "no_host_profile",
          message: `no host profile: there is no ${HOST_PROFILE_FILENAME} in ${where} or any folder above it`,
        },
        mask: maskOf(options, undefined),
      };
    }
    return {
      ok: true,
      session: new PlanSession(options, planFile, text, undefined, undefined, maskOf(options, undefined), undefined),
    };
  }
  const loaded = options.profile ?? readHostProfile(profileFile);
  if (!loaded.ok) {
    return {
      ok: false,
      failure: { kind: "invalid_host_profile", file: profileFile, errors: loaded.errors },
      mask: maskOf(options, undefined),
      hostProfile: profileFile,
    };
  }
  const mask = maskOf(options, loaded.profile);
  let mocks: Mocks | undefined;
  if (options.mocks !== undefined) {
    const read = readMocks(options.mocks, cwd);
    if (!read.ok) return { ok: false, failure: read.failure, mask, hostProfile: profileFile };
    mocks = read.mocks;
  }
  return { ok: true, session: new PlanSession(options, planFile, text, profileFile, loaded.profile, mask, mocks) };
}

function readMocks(
  given: NonNullable<PlanSessionOptions["mocks"]>,
  cwd: string,
): { ok: true; mocks: Mocks } | { ok: false; failure: SessionFailure } {
  let text: string;
  let file: string;
  if ("file" in given) {
    file = resolve(cwd, given.file);
    try {
      text = readTextFileSync(file, MAX_MOCKS_BYTES);
    } catch (error) {
      const message = `cannot read the mocks file: ${readErrorText(error)}`;
      return {
        ok: false,
        failure: {
          kind: "invalid_mocks",
          file,
          errors: [{ file, line: 1, column: 1, offset: 0, length: 0, jsonPath: "", message }],
        },
      };
    }
  } else {
    file = given.name;
    text = JSON.stringify(given.value);
  }
  const parsed = parseMocks(text, file);
  return parsed.ok
    ? { ok: true, mocks: parsed.mocks }
    : { ok: false, failure: { kind: "invalid_mocks", file, errors: parsed.errors } };
}
