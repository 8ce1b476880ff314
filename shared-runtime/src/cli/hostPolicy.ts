// What a plan is checked against on the command line: the flags first, else the host profile
// found by walking up from the plan (or --host), else nothing host-dependent at all.

import { basename, relative } from "node:path";
import { dataLimitsOf } from "../plan/dataLimits";
import { findHostProfile, loadHostProfile, type HostProfileError } from "../host/profile";
import type { Policy } from "./report";

export interface PolicyFlags {
  readonly capabilities: readonly string[] | undefined;
  readonly budget: unknown;
  readonly host: string | undefined;
}

export type ResolvedPolicy =
  | { readonly ok: true; readonly policy: Policy; readonly hostFile: string | undefined }
  | { readonly ok: false; readonly hostFile: string; readonly errors: readonly HostProfileError[] };

export function policyFor(planFile: string, flags: PolicyFlags): ResolvedPolicy {
  const hostFile = flags.host ?? findHostProfile(planFile);
  const overrides = {
    ...(flags.capabilities ? { capabilities: flags.capabilities } : {}),
    ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
  };
  if (!hostFile) return { ok: true, policy: overrides, hostFile: undefined };
  const loaded = loadHostProfile(hostFile);
  if (!loaded.ok) return { ok: false, hostFile, errors: loaded.errors };
  const profile = loaded.profile;
  return {
    ok: true,
    hostFile,
    policy: {
      capabilities: [...profile.capabilities],
      budget: profile.budget ?? "default",
      registries: { tools: new Set(profile.tools.keys()), providers: new Set(profile.providers.keys()) },
      dataLimits: dataLimitsOf(profile, basename(hostFile)),
      ...overrides,
    },
  };
}

/** A host profile's problems, located like plan problems. */
export function hostErrorLines(errors: readonly HostProfileError[]): string {
  return errors
    .map((e) => `${relative(process.cwd(), e.file) || e.file}:${e.line}:${e.column}: error: ${e.message}\n`)
    .join("");
}
