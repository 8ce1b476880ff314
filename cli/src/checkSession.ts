// What a plan is checked against on the command line: the plan session (the flags first, else
// the host profile found by walking up from the plan or --host, else nothing host-dependent at
// all). Static: no program a profile names is started (`check --preflight` starts them).

import { relative } from "node:path";
import type { HostProfileError, McpDiscovery } from "@rlm-plan/core/host";
import type { SecretMask } from "@rlm-plan/core/secrets";
import { openPlanSessionSync, type PlanSession } from "@rlm-plan/core/session";
import { lineText, shownFile } from "./guardedOutput";

export interface PolicyFlags {
  readonly capabilities: readonly string[] | undefined;
  readonly budget: unknown;
  readonly host: string | undefined;
}

export type CheckSession =
  | { readonly ok: true; readonly session: PlanSession; readonly hostFile: string | undefined }
  | { readonly ok: false; readonly hostFile: string; readonly errors: readonly HostProfileError[] }
  /** The plan could not be read: why, and the system's code. */
  | { readonly ok: false; readonly hostFile?: undefined; readonly readError: string; readonly code?: string };

/** The session `check`, `estimate` and `graph` judge a plan file in. */
export function sessionFor(
  planFile: string,
  flags: PolicyFlags,
  // Required: the output sink's (io.sink.mask), so the profile's keys are masked in what is printed.
  mask: SecretMask,
  discovery?: McpDiscovery,
): CheckSession {
  const opened = openPlanSessionSync({
    file: planFile,
    mask,
    // The MCP tool lists `check --preflight` read: arguments and output types judged by them.
    ...(discovery ? { discovery } : {}),
    requireHost: false,
    ...(flags.host !== undefined ? { hostProfile: flags.host } : {}),
    overrides: {
      ...(flags.capabilities ? { capabilities: flags.capabilities } : {}),
      ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
    },
  });
  if (opened.ok) return { ok: true, session: opened.session, hostFile: opened.session.hostProfile };
  const { failure } = opened;
  if (failure.kind === "plan_unreadable")
    return { ok: false, readError: failure.reason, ...(failure.code ? { code: failure.code } : {}) };
  if (failure.kind === "invalid_host_profile" || failure.kind === "invalid_mocks")
    return { ok: false, hostFile: failure.file, errors: failure.errors };
  // requireHost is false: a missing profile is not a failure.
  throw new Error(failure.message);
}

/** A host profile's problems, located like plan problems. */
export function hostErrorLines(errors: readonly HostProfileError[]): string {
  return errors
    .map(
      (e) =>
        `${shownFile(relative(process.cwd(), e.file) || e.file)}:${e.line}:${e.column}: error: ${lineText(e.message)}\n`,
    )
    .join("");
}
