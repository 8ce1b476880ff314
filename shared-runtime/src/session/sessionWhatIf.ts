// A plan session's what-if: its plan now against the same file at a git base, under the session's
// host profile (which decides where each tool leads). `check --against` asks it per plan; the
// language server, which keeps its own analyses, asks the same parts (whatIfDelta(), gitBase.ts).

import { readBaseVersionSync } from "../host/gitBase";
import { toolServerOf } from "../host/mcp/spec";
import { planReachOfText, whatIfDelta, type WhatIfDelta } from "../plan/whatIf";
import type { PlanSession } from "./planSession";

export {
  baseEntry,
  baseRefProblem,
  readBlob,
  resolveBaseCommit,
  type BaseEntry,
  type BaseVersion,
} from "../host/gitBase";
export { toolServerOf } from "../host/mcp/spec";

/** The delta, or why there is none (the base could not be read, or the plan now holds no plan). */
export type SessionWhatIf =
  { readonly ok: true; readonly delta: WhatIfDelta } | { readonly ok: false; readonly message: string };

/** The session's plan against its file at `commit` (a full id from resolveBaseCommit()). */
export function sessionWhatIf(session: PlanSession, commit: string): SessionWhatIf {
  if (session.file === undefined || session.text === undefined)
    return { ok: false, message: "this session has no plan file" };
  const serverOf = session.profile ? toolServerOf(session.profile) : undefined;
  const head = planReachOfText(session.text, serverOf);
  if (!head) return { ok: false, message: "the plan cannot be read, so it is not compared" };
  const base = readBaseVersionSync(commit, session.file);
  if (base.kind === "error") return { ok: false, message: `cannot read the base version: ${base.message}` };
  if (base.kind === "absent") return { ok: true, delta: whatIfDelta("new", head) };
  return { ok: true, delta: whatIfDelta(planReachOfText(base.text, serverOf) ?? "unreadable", head) };
}
