// The host profile's approval rules (`approvals`, docs/approvals.md): which model and tool calls
// wait for people before they are made. One matcher, read by the run's gate (session/) and by the
// static count of approvals (plan/ asks it through `approvalRuleFor`), so both agree on a rule.

import { isJsonObject, pointerPath, valueAtPath, type JsonObject, type JsonValue } from "../json";
import { compileInputSchema } from "../plan/inputSchemas";
import { jsonEqual } from "../text/schemaEngine";

/** One rule as the profile writes it (the schema's `approvalRule`). */
export interface ApprovalRule {
  readonly tool?: string;
  readonly provider?: string;
  /** tool(NAME) or model(PROVIDER). */
  readonly capability?: string;
  readonly when?: { readonly pointer: string; readonly equals: JsonValue } | { readonly schema: JsonObject };
  /** Only when the call's worst-case cost (plan/modelCost.ts), in the profile's currency, is above this. */
  readonly cost_above?: number;
  readonly approvers: readonly string[];
  readonly quorum?: number;
  /** Seconds. */
  readonly timeout: number;
  readonly on_timeout?: "deny" | "fail";
  readonly requester_may_approve?: boolean;
  readonly description?: string;
}

/** A call as a rule sees it: a model call's arguments are `{"prompt": TEXT}`. */
export interface ApprovalSubject {
  readonly kind: "tool" | "model";
  readonly name: string;
  readonly arguments: JsonValue;
  /**
   * The call's worst-case cost before it is made (`worstCallCost`: what max_cost holds); 0 for a
   * tool call, which costs no money; undefined when unknown (an unpriced provider).
   */
  readonly cost: number | undefined;
}

/** The capability a call uses, as the profile grants it. */
export function capabilityOf(subject: Pick<ApprovalSubject, "kind" | "name">): string {
  return subject.kind === "tool" ? `tool(${subject.name})` : `model(${subject.name})`;
}

/** Whether the rule names this call's tool, provider or capability (its `when` aside). */
export function ruleNamesCall(rule: ApprovalRule, call: Pick<ApprovalSubject, "kind" | "name">): boolean {
  if (rule.tool !== undefined) return call.kind === "tool" && rule.tool === call.name;
  if (rule.provider !== undefined) return call.kind === "model" && rule.provider === call.name;
  return rule.capability === capabilityOf(call);
}

/**
 * The first rule that holds this call, with its index in `approvals`, or undefined. A `when`
 * whose schema cannot compile holds the call: a broken condition must not open the gate.
 */
export function approvalRuleFor(
  rules: readonly ApprovalRule[] | undefined,
  call: ApprovalSubject,
): { readonly rule: ApprovalRule; readonly index: number } | undefined {
  const index = (rules ?? []).findIndex(
    (rule) => ruleNamesCall(rule, call) && costCanExceed(rule, call.cost) && conditionHolds(rule, call.arguments),
  );
  return index < 0 ? undefined : { rule: rules![index]!, index };
}

/**
 * Whether a call whose worst case is `cost` falls under the rule's `cost_above`: above it, or
 * unknown (an unpriced call may cost anything, and an unknown must not open the gate).
 */
export function costCanExceed(rule: ApprovalRule, cost: number | undefined): boolean {
  return rule.cost_above === undefined || cost === undefined || cost > rule.cost_above;
}

function conditionHolds(rule: ApprovalRule, args: JsonValue): boolean {
  const when = rule.when;
  if (when === undefined) return true;
  if ("schema" in when) {
    const compiled = compileInputSchema(when.schema);
    return compiled.ok ? compiled.validate(args) === true : true;
  }
  const found = valueAtPath(args, pointerPath(when.pointer, args));
  return found !== undefined && jsonEqual(found, when.equals);
}

/** The rule's quorum, timeout action and separation with their defaults. */
export function ruleTerms(rule: ApprovalRule): {
  readonly quorum: number;
  readonly onTimeout: "deny" | "fail";
  readonly requesterMayApprove: boolean;
} {
  return {
    quorum: rule.quorum ?? 1,
    onTimeout: rule.on_timeout ?? "fail",
    requesterMayApprove: rule.requester_may_approve ?? false,
  };
}

/** The rules of a profile's parsed `approvals` (already valid against the schema). */
export function approvalRulesOf(value: unknown): readonly ApprovalRule[] {
  return Array.isArray(value) ? (value.filter(isJsonObject) as unknown as ApprovalRule[]) : [];
}
