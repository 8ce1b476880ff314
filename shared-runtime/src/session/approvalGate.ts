// The approval gate (docs/approvals.md): an observer that holds every model and tool call an
// approval rule of the host profile matches, before the call is made. Placed inside the journal's
// recorder, so a call a resumed run answers from the journal (already approved and made) never
// reaches it. A held call's action (step, call, canonical arguments, capability) is hashed in full
// with SHA-256 (with the plan's and profile's digests and the call's place, so a changed plan,
// profile or argument is another action) and asked for in the run's approvals log; the run ends
// `waiting` (approval_pending) until the votes decide, then the resumed run meets the same call
// and makes it (approved), or fails there (approval_denied, approval_timeout).

import { createHash } from "node:crypto";
import { stepPathText, type JsonObject, type JsonValue } from "../json";
import { approvalRuleFor, capabilityOf, ruleTerms, type ApprovalRule } from "../host/approvalRules";
import {
  appendApprovals,
  approvalLog,
  requestOf,
  requestState,
  runDigests,
  type ApprovalEntry,
  type NewApprovalEntry,
} from "../journal/approvals";
import type { JournalStore } from "../journal/journalStore";
import { canonicalRequest, canonicalText, callIdentity } from "../journal/requestKey";
import type { SecretMask } from "../mask/secretMask";
import { fail, type PlanError } from "../run/errors";
import type { HostCall, ModelCall, RunObserver } from "../run/observer";
import { inputTokenBound, outputTokenBound, worstCallCost } from "../plan/modelCost";
import { quoted } from "../plan/problems";

export interface GateOptions {
  readonly rules: readonly ApprovalRule[];
  /** The run's journal and its id there; undefined for a run not recorded (a held call then fails). */
  readonly journal: { readonly store: JournalStore; readonly runId: () => number } | undefined;
  readonly mask: SecretMask;
  /** Who started the run. */
  readonly requester: string;
  /** Told each request, vote count and outcome as it happens (the trace's span events). */
  readonly onEntry?: (entry: ApprovalEntry) => void;
  readonly now?: () => number;
}

/** The gate of a run whose profile has approval rules. */
export function approvalGate(options: GateOptions): RunObserver {
  const starts = new Map<string, number>();
  let remaining: JsonObject = {};
  const now = options.now ?? Date.now;
  return {
    event(event) {
      // A step makes one call per start: its starts number its calls, replayed ones included.
      if (event.type === "step_started") {
        const key = JSON.stringify(event.path);
        starts.set(key, (starts.get(key) ?? 0) + 1);
      }
      if ("remaining" in event) remaining = { ...event.remaining } as JsonObject;
    },
    call: async (call, proceed) => {
      const subject = {
        kind: call.kind,
        name: call.name,
        arguments: call.kind === "tool" ? call.arguments : { prompt: promptOf(call) },
        cost: call.kind === "tool" ? 0 : modelCallWorstCost(call),
      };
      const held = approvalRuleFor(options.rules, subject);
      if (!held) return proceed();
      const step = stepPathText(call.step.path);
      const capability = capabilityOf(call);
      if (!options.journal)
        return fail({
          phase: "execute",
          kind: "approval_unrecorded",
          step,
          message: `the call of ${capability} at ${step} needs approval (approval rule ${held.index}), and approvals are recorded in the run journal: run it with the journal on`,
        });
      const { store } = options.journal;
      const runId = options.journal.runId();
      const path = JSON.stringify(call.step.path);
      const occurrence = starts.get(path) ?? 1;
      const digests = runDigests(store, runId);
      // The whole request, unmasked, hashed; only its masked form is ever written.
      const hash = createHash("sha256")
        .update(
          canonicalText({ plan: digests.plan, host: digests.host, path, occurrence, request: canonicalRequest(call) }),
        )
        .digest("hex");
      const at = now();
      const log = approvalLog(store, runId);
      const found = requestOf(log, path, occurrence);
      const written: NewApprovalEntry[] = [];
      const place = { path, occurrence, at };
      if (found && found.request.hash === hash && found.outcome?.outcome === "approved") return proceed();
      if (found && !found.outcome && found.request.hash === hash) {
        const state = requestState(log, found.request, at);
        const close = (outcome: "approved" | "denied" | "timed_out") =>
          record(options, store, runId, [
            { type: "outcome", ...place, hash, body: { request: found.request.seq, outcome } },
          ]);
        if (state.state === "approved") {
          close("approved");
          return proceed();
        }
        const base = { phase: "execute" as const, step, capability, hash, rule: held.index };
        if (state.state === "denied") {
          close("denied");
          return fail({
            ...base,
            kind: "approval_denied",
            approver: state.by,
            reason: state.reason,
            message: `the call of ${capability} at ${step} was denied by ${quoted(state.by)}: ${state.reason}`,
          });
        }
        if (state.state === "timed_out") {
          close("timed_out");
          const onTimeout = found.request.body.on_timeout;
          return fail({
            ...base,
            kind: onTimeout === "deny" ? "approval_denied" : "approval_timeout",
            message: `the call of ${capability} at ${step} was not approved within ${held.rule.timeout} s (on_timeout: ${onTimeout})`,
          });
        }
        return fail(pending(step, capability, hash, held.index, state.approvers.length, found.request.body.quorum));
      }
      if (found && !found.outcome)
        written.push({
          type: "outcome",
          ...place,
          hash: found.request.hash,
          body: { request: found.request.seq, outcome: "void", superseded_by: hash },
        });
      const terms = ruleTerms(held.rule);
      written.push({
        type: "request",
        ...place,
        hash,
        body: {
          step,
          kind: call.kind,
          name: call.name,
          capability,
          arguments: callIdentity(call, options.mask).text,
          remaining,
          rule: held.index,
          approvers: [...held.rule.approvers],
          quorum: terms.quorum,
          on_timeout: terms.onTimeout,
          requester_may_approve: terms.requesterMayApprove,
          requester: options.requester,
          deadline: at + Math.round(held.rule.timeout * 1000),
        },
      });
      record(options, store, runId, written);
      const voided = found && found.request.hash !== hash ? found.request.hash : undefined;
      return fail({
        ...pending(step, capability, hash, held.index, 0, terms.quorum),
        // The request it replaces, whose votes are void: the action changed since.
        ...(voided !== undefined ? { voided } : {}),
      });
    },
  };
}

function record(options: GateOptions, store: JournalStore, runId: number, entries: readonly NewApprovalEntry[]): void {
  for (const entry of appendApprovals(store, runId, entries)) {
    try {
      options.onEntry?.(entry);
    } catch {
      // a listener's failure is its own
    }
  }
}

function pending(
  step: string,
  capability: string,
  hash: string,
  rule: number,
  approvals: number,
  quorum: number,
): PlanError {
  return {
    phase: "execute",
    kind: "approval_pending",
    step,
    capability,
    hash,
    rule,
    approvals,
    quorum,
    message: `the call of ${capability} at ${step} waits for approval (${approvals} of ${quorum}; action sha256 ${hash.slice(0, 12)})`,
  };
}

/** What the run's max_cost holds for this call before it is made (run/ops/hostSteps.ts asks the same). */
function modelCallWorstCost(call: ModelCall): number | undefined {
  const { request, costing } = call;
  return worstCallCost(costing, inputTokenBound(request.messages), outputTokenBound(request.options, costing));
}

function promptOf(call: HostCall): JsonValue {
  if (call.kind !== "model") return null;
  const first = call.request.messages[0];
  return first ? first.content : null;
}
