// Hover: what a step does and what it costs in the worst case (its subtree, the run so far
// against the budget, the capability it needs and whether the host grants it); where a variable
// is bound and the type of what it holds (the semantic model's types), a field reference's type; what the host registered for an input, tool or provider; the whole plan's worst case.

import { planApprovalLine, stepApprovalLine } from "./approvalHover";
import { type Budget, type Count, DEFAULT_BUDGET, type Estimate, OPERATION_HELP } from "@rlm-plan/core";
import {
  compactType,
  type CostRow,
  ESTIMATE_LIMITS,
  formatCapability,
  grantsCapability,
  requiredCapability,
  moneyText,
  type RetryCost,
  type Step,
  stepMoney,
  type ValueType,
} from "@rlm-plan/core/plan";
import { getNodeValue, type Node } from "jsonc-parser";
import type { JsonPath } from "@rlm-plan/core/json";
import { MarkupKind, type Hover, type Position } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange } from "./diagnostics";
import { HOST_PROFILE_FILENAME } from "@rlm-plan/core/host";
import { toolSchemaParagraphs, unlistedToolText } from "./toolSignature";
import type { HostEntry } from "./hostView";
import { bindingLine, modelOf } from "./planNames";
import { enclosingStepPath, isStepPath, nodeAtOffset, nodeAt, stringProperty } from "./planTree";

export function hover(plan: AnalyzedPlan, position: Position): Hover | null {
  const root = plan.tree;
  if (!root) return null;
  const offset = plan.document.offsetAt(position);
  const at = nodeAtOffset(root, offset);
  if (!at) return null;
  const range = isLeaf(at.node) ? lspRange(plan.document, at.node) : undefined;
  const answer = (value: string | undefined): Hover | null =>
    value === undefined ? null : { contents: { kind: MarkupKind.Markdown, value }, ...(range ? { range } : {}) };

  if (at.node === root || (at.isKey && at.path.length === 1 && at.path[0] === "steps")) return answer(planHover(plan));

  const property = at.node.parent?.type === "property" && !at.isKey ? at.node.parent : undefined;
  const key = property?.children?.[0]?.value;
  const owner = property?.parent;
  if (at.node.type === "string" && typeof at.node.value === "string" && owner) {
    const name = at.node.value;
    const ownerPath = at.path.slice(0, -1);
    const ref = stringProperty(owner, "ref");
    if (key === "name" && ref === "var") return answer(variableHover(plan, at.path, name));
    if (key === "key" && ref === "field") return answer(fieldHover(plan, owner, ownerPath, name));
    if (key === "name" && ref === "input") return answer(registryHover(plan, "input", name));
    if (isStepPath(ownerPath)) {
      const op = stringProperty(owner, "op");
      if (key === "name" && op === "tool") return answer(registryHover(plan, "tool", name));
      if (key === "provider" && op === "model") return answer(registryHover(plan, "provider", name));
    }
  }
  const stepPath = enclosingStepPath(at.path);
  return stepPath ? answer(stepHover(plan, stepPath)) : null;
}

function isLeaf(node: Node): boolean {
  return node.type === "string" || node.type === "number" || node.type === "boolean" || node.type === "null";
}

// ---- steps ----------------------------------------------------------------------------------

function stepHover(plan: AnalyzedPlan, stepPath: readonly (string | number)[]): string | undefined {
  const model = modelOf(plan);
  const step = model?.stepAt(stepPath);
  if (!model || !step) {
    const op = stringProperty(nodeAt(plan.tree, stepPath), "op");
    if (op === undefined || !(op in OPERATION_HELP)) return undefined;
    return [
      `**${op}**`,
      OPERATION_HELP[op as Step["op"]],
      "This step has problems: fix them to see its worst case.",
    ].join("\n\n");
  }
  const sections = [stepTitle(step), OPERATION_HELP[step.op]];
  const binding = model.bindingAt(stepPath);
  const typed = binding && plan.analysis.types?.ofBinding(binding);
  // An unknown type says nothing a reader can use: the line is left out.
  if (binding && typed && typed.type.kind !== "unknown")
    sections.push(`**Binds** ${code(binding.name)}: ${code(compactType(typed.type))}`);
  const cost = model.costAt(stepPath);
  if (cost) {
    sections.push(`**Worst case of this step:** ${figures(cost.subtree)}${moneyOfStep(plan, step)}`);
    const retry = cost.retry && retryLine(cost.retry);
    if (retry) sections.push(`**Retry:** ${retry}`);
    const rows = cost.runSoFar && model.rows(cost.runSoFar, budgetOf(plan));
    if (rows) sections.push(`**Plan so far** (up to and including this step): ${againstBudget(rows)}`);
  }
  sections.push(capabilityLine(plan, step));
  const approval = stepApprovalLine(plan, stepPath);
  if (approval) sections.push(approval);
  return sections.join("\n\n");
}

/** " · at most 0.0105 USD" (or why it is unknown) when the step calls a model under a host's prices. */
function moneyOfStep(plan: AnalyzedPlan, step: Step): string {
  const costs = plan.host?.policy.costs;
  const subtree = modelOf(plan)?.costAt(step.path)?.subtree;
  // A host that prices no provider has not asked for money: its hovers stay as they were.
  const priced = costs && [...costs.providers.values()].some((costing) => costing.price !== undefined);
  if (!costs || !priced || !subtree || subtree.model_calls === 0) return "";
  const money = stepMoney(step, costs, budgetOf(plan));
  if (money.unpriced.length > 0) return ` · cost unknown: ${money.unpriced.join("; ")}`;
  return ` · at most ${moneyText(money.cost, costs.currency)}`;
}

function stepTitle(step: Step): string {
  const binds = "bind" in step ? ` → ${code(step.bind)}` : "";
  switch (step.op) {
    case "context":
      return `**context** ${code(step.action.type)}${binds}`;
    case "model":
      return `**model** ${code(step.provider)}${binds}`;
    case "tool":
      return `**tool** ${code(step.name)}${binds}`;
    case "parallel":
      return `**parallel** ${count(step.plans.length, "branch", "branches")}${binds}`;
    case "retry":
      return `**retry** ${count(step.attempts, "attempt")}${binds}`;
    case "checkpoint":
      return `**checkpoint** ${code(step.label)}`;
    default:
      return `**${step.op}**${binds}`;
  }
}

const NOUNS: Readonly<Record<string, readonly [string, string]>> = {
  steps: ["step", "steps"],
  model_calls: ["model call", "model calls"],
  tool_calls: ["tool call", "tool calls"],
  context_ops: ["context operation", "context operations"],
};

/** "4 steps · depth 2 · parallel width 0 · 1 model call · 3 tool calls · 0 context operations" */
export function figures(estimate: Estimate): string {
  return ESTIMATE_LIMITS.map((limit) => {
    const value = estimate[limit.figure];
    const noun = NOUNS[limit.figure];
    return noun ? count(value, noun[0], noun[1]) : `${limit.label} ${value}`;
  }).join(" · ");
}

/** "steps 5 of 64 · ... · tool calls 20 of 16 (over)" */
function againstBudget(rows: readonly CostRow[]): string {
  return rows.map((row) => `${row.label} ${row.estimate} of ${row.limit}${row.over ? " (over)" : ""}`).join(" · ");
}

/** "3 attempts × 4 steps = 12 steps, plus the retry step · 3 attempts × 1 tool call = 3 tool calls" */
function retryLine({ attempts, perAttempt, allAttempts }: RetryCost): string | undefined {
  if (attempts <= 0) return undefined;
  const parts: string[] = [];
  for (const figure of ["steps", "model_calls", "tool_calls", "context_ops"] as const) {
    const value = perAttempt[figure];
    const noun = NOUNS[figure] as readonly [string, string];
    if (value === 0 && figure !== "steps") continue;
    const product = `${count(attempts, "attempt")} × ${count(value, noun[0], noun[1])} = ${count(allAttempts[figure], noun[0], noun[1])}`;
    parts.push(figure === "steps" ? `${product}, plus the retry step` : product);
  }
  return parts.join(" · ");
}

function capabilityLine(plan: AnalyzedPlan, step: Step): string {
  const needed = requiredCapability(step);
  if (!needed) return "**Capability:** none needed";
  const text = formatCapability(needed);
  const status = plan.hostStatus;
  switch (status.kind) {
    case "none":
      return `**Capability:** ${code(text)}, not checked: no host profile (${HOST_PROFILE_FILENAME}) found`;
    case "invalid":
      return `**Capability:** ${code(text)}, not checked: the host profile ${code(status.fileName)} has errors`;
    case "ok":
      return grantsCapability(status.view.capabilities, needed)
        ? `**Capability:** ${code(text)}, granted by ${code(status.view.fileName)}`
        : `**Capability:** ${code(text)}, **not granted** by ${code(status.view.fileName)}: add it to "capabilities"`;
  }
}

function budgetOf(plan: AnalyzedPlan): Budget {
  return plan.analysis.budget ?? DEFAULT_BUDGET;
}

// ---- the whole plan -------------------------------------------------------------------------

function planHover(plan: AnalyzedPlan): string | undefined {
  const model = modelOf(plan);
  if (!plan.analysis.plan || !model) return undefined;
  const budget = budgetOf(plan);
  const status = plan.hostStatus;
  const whose =
    status.kind === "ok"
      ? `the budget of ${code(status.view.fileName)}`
      : status.kind === "invalid"
        ? `the default budget (the host profile ${code(status.fileName)} has errors)`
        : "the default budget (no host profile)";
  const rows = (model.rows(model.total, budget) ?? []).map(
    (row) => `| ${row.label} | ${row.over ? `**${row.estimate}** (over)` : row.estimate} | ${row.limit} |`,
  );
  return [
    `**Plan** ${count(plan.analysis.plan.steps.length, "step")}: worst case against ${whose}`,
    ["| | worst case | budget |", "|---|---:|---:|", ...rows].join("\n"),
    `Output bytes and wall time are counted at run time: max_output_bytes ${budget.max_output_bytes}, time_limit ${budget.time_limit} s.`,
    ...[planApprovalLine(plan)].filter((line) => line !== undefined),
  ].join("\n\n");
}

// ---- names ----------------------------------------------------------------------------------

function variableHover(plan: AnalyzedPlan, path: readonly (string | number)[], name: string): string {
  const binding = modelOf(plan)?.resolve(path, name);
  if (!binding) {
    return `**variable** ${code(name)}\n\nNot bound here: bind it in an earlier step of this plan or an enclosing one.`;
  }
  const line = bindingLine(plan, binding);
  const step = binding.step;
  const what = step ? stepTitle(step) : `**${binding.op ?? "unknown"}**`;
  const typed = plan.analysis.types?.ofBinding(binding);
  // As on a step: an unknown type says nothing a reader can use, so the line is left out.
  const type = typed && typed.type.kind !== "unknown" ? `\n\n${typeLine(typed.type, typed.origin?.text)}` : "";
  return `**variable** ${code(name)}${type}\n\nBound on line ${line} by ${what}`;
}

/** A field reference's key: the type of the value it reads (no type line where it is unknown). */
function fieldHover(plan: AnalyzedPlan, owner: Node, ownerPath: JsonPath, key: string): string | undefined {
  const types = plan.analysis.types;
  if (!types) return undefined;
  const type = types.ofWritten(getNodeValue(owner), ownerPath);
  return type.kind === "unknown" ? `**field** ${code(key)}` : `**field** ${code(key)}\n\n${typeLine(type)}`;
}

/** `**Type:** \`{text: string, …}\`` and where it comes from. */
function typeLine(type: ValueType, origin?: string): string {
  return `**Type:** ${code(compactType(type))}${origin ? ` (${origin})` : ""}`;
}

type RegistryKind = "input" | "tool" | "provider";
const SECTION: Readonly<Record<RegistryKind, string>> = { input: "inputs", tool: "tools", provider: "providers" };

function registryHover(plan: AnalyzedPlan, kind: RegistryKind, name: string): string {
  const title = `**${kind}** ${code(name)}`;
  const status = plan.hostStatus;
  if (status.kind === "none") {
    return `${title}\n\nNo host profile (${HOST_PROFILE_FILENAME}) found: the host defines ${SECTION[kind]}.`;
  }
  if (status.kind === "invalid")
    return `${title}\n\nNot checked: the host profile ${code(status.fileName)} has errors.`;
  const host = status.view;
  const registry: ReadonlyMap<string, HostEntry> =
    kind === "input" ? host.inputs : kind === "tool" ? host.tools : host.providers;
  const entry = registry.get(name);
  const unlisted = !entry && kind === "tool" ? unlistedToolText(host, name) : undefined;
  if (unlisted !== undefined) return `${title}\n\n${unlisted}`;
  if (!entry) return `${title}\n\nNot defined in ${code(host.fileName)}: add it under "${SECTION[kind]}".`;
  const lines = [title, entry.summary];
  if (entry.description) lines.push(entry.description);
  if (kind === "tool") lines.push(...toolSchemaParagraphs(host, name));
  if (entry.sandbox !== undefined) lines.push(`**Sandbox:** ${entry.sandbox}.`);
  lines.push(`Defined in ${code(host.fileName)}.`);
  return lines.join("\n\n");
}

// ---- Markdown -------------------------------------------------------------------------------

/** Inline code that survives backticks and newlines in plan text; long text is cut. */
export function code(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  const cut = flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
  const fence = cut.includes("`") ? "``" : "`";
  const pad = cut.startsWith("`") || cut.endsWith("`") ? " " : "";
  return `${fence}${pad}${cut}${pad}${fence}`;
}

export function count(n: Count, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
