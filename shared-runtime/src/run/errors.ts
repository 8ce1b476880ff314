// Errors of preflight and execution as values, plus the one internal exception the
// interpreter uses to unwind nested plans; it never leaves the interpreter.

import type { JsonValue } from "../json";
import type { Phase } from "../plan/problems";

export interface PlanError {
  readonly phase: Phase;
  readonly kind: string;
  readonly message: string;
  readonly [detail: string]: JsonValue | undefined;
}

/**
 * Kinds a retry step must not retry: the whole run is over, or waits for people (a step held for
 * approval), or people said no (a retry must not ask again until someone says yes).
 */
/** A call held by an approval rule (docs/approvals.md) fails with one of these: it was never made. */
export const APPROVAL_KINDS: ReadonlySet<string> = new Set([
  "approval_pending",
  "approval_denied",
  "approval_timeout",
  "approval_unrecorded",
]);

export const FATAL_KINDS: ReadonlySet<string> = new Set([
  "time_limit_exceeded",
  "cancelled",
  "approval_pending",
  "approval_denied",
  "approval_timeout",
  "approval_unrecorded",
]);

export class RunFailure extends Error {
  constructor(readonly error: PlanError) {
    super(error.message);
  }
}

export function fail(error: PlanError): never {
  throw new RunFailure(error);
}

/** A thrown value as text safe to show: its message only, never a stack or object dump. */
export function safeErrorText(error: unknown): string {
  if (error instanceof Error) return error.message.slice(0, 500) || error.name;
  if (typeof error === "string") return error.slice(0, 500);
  return "the handler failed without a message";
}
