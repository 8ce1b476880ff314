// What a change to a plan does, read statically: the plan at a base (a git ref) beside the plan
// now, as a structured delta of what it asks of its host (capabilities, tools, providers, MCP
// servers) and of its worst case. The one comparison behind `rlm-plan check --against` and the
// editor's what-if lens and hover, so every front end says the same sentence.
//
// Both sides are read by the same parser and cost rule as everything else (planNeeds(),
// estimatePlan()); nothing here knows git or a host profile: where a tool leads (an MCP server),
// the worst case in money and the steps that can need approval are the caller's ReachHost, built
// from the profile by the session layer (whatIfHost()) with the one money and approval rules.

import type { Plan } from "./ast";
import { exactJsonText } from "../json";
import { parsePlan } from "./parse";
import { planNeeds } from "./needs";
import { estimatePlan, ESTIMATE_LIMITS, type Estimate, type MoneyEstimate } from "./estimate";
import type { Count } from "./count";
import { amountText, moneyText } from "./modelCost";

/** What one version of a plan reaches: the sets a reviewer compares, and its worst case. */
export interface PlanReach {
  /** Capabilities the steps need, as the reference writes them (`tool(refund)`, `model(openrouter)`). */
  readonly capabilities: readonly string[];
  readonly tools: readonly string[];
  readonly providers: readonly string[];
  /** MCP servers the plan's tools lead to, under the host profile in force. */
  readonly mcpServers: readonly string[];
  readonly worstCase: Estimate;
  /** The worst case in money, when the host profile prices a provider. */
  readonly money?: ReachMoney;
  /** The steps that can need approval and how many approvals at worst, when the profile has rules. */
  readonly approvals?: ReachApprovals;
}

/** A worst case in money: the sum over priced calls and why some calls have none, in `currency`. */
export interface ReachMoney extends MoneyEstimate {
  readonly currency: string;
}

export interface ReachApprovals {
  /** Each step that can need approval: its path and call, "steps/3 tool(refund)", in source order. */
  readonly steps: readonly string[];
  readonly worstCase: Count;
}

/** Where a tool of the plan leads: the MCP server that offers it, or undefined (a profile tool, or no profile). */
export type ToolServerOf = (tool: string) => string | undefined;

/** What a plan reaches that depends on the host profile; each part absent when the profile says nothing of it. */
export interface ReachHost {
  readonly serverOf?: ToolServerOf;
  readonly money?: (plan: Plan) => ReachMoney;
  readonly approvals?: (plan: Plan) => ReachApprovals;
}

/** A worst case in money as compared: an amount, or unknown with the reasons (some call has no price or bound). */
export type MoneyFigure = { readonly cost: number } | { readonly unknown: readonly string[] };

export interface MoneyChange {
  readonly currency: string;
  readonly before: MoneyFigure;
  readonly after: MoneyFigure;
}

/** Steps that can need approval, compared by path and call, and the worst-case number of approvals. */
export interface ApprovalChange extends ReachChange {
  readonly before: Count;
  readonly after: Count;
}

/** A set of names compared: what the change adds, and what it removes, each sorted. */
export interface ReachChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

/** One worst-case figure that changed (only changed figures are listed). */
export interface WorstCaseChange {
  readonly counter: WorstCaseCounter;
  readonly label: string;
  readonly before: Count;
  readonly after: Count;
}

export type WorstCaseCounter = (typeof ESTIMATE_LIMITS)[number]["name"];

export interface WhatIfDelta {
  /**
   * The base version: a plan ("present"), no file at the base ("new": everything counts as
   * added), or a file with no readable plan ("unreadable": compared as if empty, and said so).
   */
  readonly base: "present" | "new" | "unreadable";
  readonly capabilities: ReachChange;
  readonly tools: ReachChange;
  readonly providers: ReachChange;
  readonly mcpServers: ReachChange;
  /** The worst case's changed figures, calls first. */
  readonly worstCase: readonly WorstCaseChange[];
  /** The worst case in money, when the profile prices a provider and it changed. */
  readonly money?: MoneyChange;
  /** Steps that can need approval, when the profile has rules and they or their worst case changed. */
  readonly approvals?: ApprovalChange;
  /** Whether anything above changed. */
  readonly changed: boolean;
}

/** The sets compared, in the order a summary names them. */
const REACH_SETS = ["capabilities", "tools", "providers", "mcpServers"] as const;

/** The worst-case figures in the order a reviewer reads them: calls before steps and shape. */
const COUNTER_ORDER: readonly WorstCaseCounter[] = [
  "model_calls",
  "tool_calls",
  "context_ops",
  "steps",
  "depth",
  "parallel",
];

const NOTHING: PlanReach = {
  capabilities: [],
  tools: [],
  providers: [],
  mcpServers: [],
  worstCase: { steps: 0, depth: 0, parallel_width: 0, model_calls: 0, tool_calls: 0, context_ops: 0 },
};

/** What `plan` reaches, its worst case `total` already known (the editor's analysis has it). */
export function planReach(plan: Plan, total: Estimate, host: ReachHost = {}): PlanReach {
  const needs = planNeeds(plan);
  const tools = [...needs.tools];
  const servers = new Set<string>();
  if (host.serverOf)
    for (const tool of tools) {
      const server = host.serverOf(tool);
      if (server !== undefined) servers.add(server);
    }
  return {
    capabilities: needs.capabilities,
    tools,
    providers: [...needs.providers],
    mcpServers: [...servers],
    worstCase: total,
    ...(host.money ? { money: host.money(plan) } : {}),
    ...(host.approvals ? { approvals: host.approvals(plan) } : {}),
  };
}

/**
 * What a plan file's text reaches, read as the editor reads it (every step that normalizes);
 * undefined when the text holds no plan at all.
 */
export function planReachOfText(text: string, host?: ReachHost): PlanReach | undefined {
  const { plan } = parsePlan({ kind: "document", text }, { collectAll: true });
  return plan ? planReach(plan, estimatePlan(plan), host) : undefined;
}

/**
 * The delta from `base` to `head`: `base` is "new" when the plan is not in the base at all,
 * "unreadable" when its text there holds no plan.
 */
export function whatIfDelta(base: PlanReach | "new" | "unreadable", head: PlanReach): WhatIfDelta {
  const before = typeof base === "string" ? NOTHING : base;
  const sets = Object.fromEntries(REACH_SETS.map((key) => [key, compareSets(before[key], head[key])])) as Record<
    (typeof REACH_SETS)[number],
    ReachChange
  >;
  const worstCase: WorstCaseChange[] = [];
  for (const counter of COUNTER_ORDER) {
    const limit = ESTIMATE_LIMITS.find((row) => row.name === counter)!;
    const a = before.worstCase[limit.figure];
    const b = head.worstCase[limit.figure];
    if (BigInt(a) !== BigInt(b)) worstCase.push({ counter, label: limit.label, before: a, after: b });
  }
  // A base with no plan asks nothing of the host: no money, no approval; a present base was read
  // under the same host as the head, so it has each part the head has.
  const nothing = typeof base === "string";
  const money = head.money && moneyChange(nothing ? NO_MONEY : before.money, head.money);
  const approvals = head.approvals && approvalChange(nothing ? NO_APPROVALS : before.approvals, head.approvals);
  const changed =
    worstCase.length > 0 ||
    money !== undefined ||
    approvals !== undefined ||
    REACH_SETS.some((key) => sets[key].added.length > 0 || sets[key].removed.length > 0);
  return {
    base: nothing ? base : "present",
    ...sets,
    worstCase,
    ...(money ? { money } : {}),
    ...(approvals ? { approvals } : {}),
    changed,
  };
}

const NO_MONEY: MoneyEstimate = { cost: 0, unpriced: [] };
const NO_APPROVALS: ReachApprovals = { steps: [], worstCase: 0 };

/** The money compared, or undefined when the figure said is the same on both sides. */
function moneyChange(before: MoneyEstimate | undefined, after: ReachMoney): MoneyChange | undefined {
  if (!before) return undefined;
  const a = moneyFigure(before);
  const b = moneyFigure(after);
  const same = "cost" in a && "cost" in b ? a.cost === b.cost : JSON.stringify(a) === JSON.stringify(b);
  return same ? undefined : { currency: after.currency, before: a, after: b };
}

/** Unpriced calls make the sum a floor, not the worst case: it is unknown then, and why is said. */
function moneyFigure(money: MoneyEstimate): MoneyFigure {
  return money.unpriced.length > 0 ? { unknown: money.unpriced } : { cost: money.cost };
}

function approvalChange(before: ReachApprovals | undefined, after: ReachApprovals): ApprovalChange | undefined {
  if (!before) return undefined;
  // In source order, not sorted: steps/10 reads after steps/9.
  const steps = {
    added: after.steps.filter((step) => !before.steps.includes(step)),
    removed: before.steps.filter((step) => !after.steps.includes(step)),
  };
  if (steps.added.length === 0 && steps.removed.length === 0 && BigInt(before.worstCase) === BigInt(after.worstCase))
    return undefined;
  return { ...steps, before: before.worstCase, after: after.worstCase };
}

function compareSets(before: readonly string[], after: readonly string[]): ReachChange {
  const old = new Set(before);
  const now = new Set(after);
  return {
    added: [...now].filter((name) => !old.has(name)).sort(),
    removed: [...old].filter((name) => !now.has(name)).sort(),
  };
}

/**
 * The delta in one sentence: "this change adds tool(refund) and raises the worst case from 12 to
 * 40 model calls". Capabilities stand for the tools and providers (each tool and provider needs
 * its own); MCP servers are named since one capability may open a whole server; steps that can
 * need approval are named by path and call.
 */
export function whatIfSentence(delta: WhatIfDelta): string {
  if (delta.base === "new") return newPlanSentence(delta);
  const parts: string[] = [];
  const { capabilities, mcpServers, approvals } = delta;
  if (capabilities.added.length > 0) parts.push(`adds ${capabilities.added.join(", ")}`);
  if (capabilities.removed.length > 0) parts.push(`no longer needs ${capabilities.removed.join(", ")}`);
  if (mcpServers.added.length > 0) parts.push(`reaches ${serverWords(mcpServers.added)}`);
  if (mcpServers.removed.length > 0) parts.push(`no longer reaches ${serverWords(mcpServers.removed)}`);
  if (approvals && approvals.added.length > 0) parts.push(`adds ${approvalStepWords(approvals.added)}`);
  if (approvals && approvals.removed.length > 0) parts.push(`no longer has ${approvalStepWords(approvals.removed)}`);
  const rows = figureRows(delta);
  const raised = rows.filter((row) => row.rises);
  const lowered = rows.filter((row) => !row.rises);
  if (raised.length > 0) parts.push(`raises the worst case ${figures(raised)}`);
  if (lowered.length > 0) parts.push(`lowers the worst case ${figures(lowered)}`);
  const money = delta.money;
  if (money && !("cost" in money.before && "cost" in money.after))
    parts.push(
      `changes the worst case in money from ${moneyWords(money.before, money.currency)} to ${moneyWords(money.after, money.currency)}`,
    );
  const subject = "this change";
  const note = delta.base === "unreadable" ? " (the base version holds no readable plan)" : "";
  if (parts.length === 0) return `${subject} changes no capability, tool or worst-case figure${note}`;
  return `${subject} ${andList(parts)}${note}`;
}

/** A plan the base does not have: what it needs and its worst case, not a rise from nothing. */
function newPlanSentence(delta: WhatIfDelta): string {
  const parts: string[] = [];
  if (delta.capabilities.added.length > 0) parts.push(`needs ${delta.capabilities.added.join(", ")}`);
  if (delta.mcpServers.added.length > 0) parts.push(`reaches ${serverWords(delta.mcpServers.added)}`);
  if (delta.approvals && delta.approvals.added.length > 0)
    parts.push(`has ${approvalStepWords(delta.approvals.added)}`);
  const worst = figureRows(delta).map((row) => (row.named ? `${row.label} ${row.after}` : `${row.after} ${row.label}`));
  const money = delta.money;
  if (money && "unknown" in money.after) worst.push(`an unknown cost (${money.after.unknown.join("; ")})`);
  if (worst.length > 0) parts.push(`has a worst case of ${andList(worst)}`);
  return `this new plan ${andList(parts)}`;
}

/** One changed figure as words take it: "from 3 to 5 model calls", or "depth from 1 to 2" when `named`. */
interface FigureRow {
  readonly label: string;
  readonly before: string;
  readonly after: string;
  readonly rises: boolean;
  readonly named: boolean;
}

/** The changed figures in reading order: the counts, then money when known on both sides, then approvals. */
function figureRows(delta: WhatIfDelta): FigureRow[] {
  const rows = delta.worstCase.map((row): FigureRow => ({
    label: row.label,
    before: exactJsonText(row.before),
    after: exactJsonText(row.after),
    rises: BigInt(row.after) > BigInt(row.before),
    named: row.counter === "depth" || row.counter === "parallel",
  }));
  const money = delta.money;
  if (money && "cost" in money.before && "cost" in money.after)
    rows.push({
      label: money.currency,
      before: amountText(money.before.cost),
      after: amountText(money.after.cost),
      rises: money.after.cost > money.before.cost,
      named: false,
    });
  const approvals = delta.approvals;
  if (approvals && BigInt(approvals.before) !== BigInt(approvals.after))
    rows.push({
      label: "approvals",
      before: exactJsonText(approvals.before),
      after: exactJsonText(approvals.after),
      rises: BigInt(approvals.after) > BigInt(approvals.before),
      named: false,
    });
  return rows;
}

/** "0.004 USD", or "unknown (provider \"x\" has no price in the host profile)". */
export function moneyWords(figure: MoneyFigure, currency: string): string {
  return "cost" in figure ? moneyText(figure.cost, currency) : `unknown (${figure.unknown.join("; ")})`;
}

/** "1 step that can need approval (steps/3 tool(refund))". */
function approvalStepWords(steps: readonly string[]): string {
  return `${steps.length} step${steps.length === 1 ? "" : "s"} that can need approval (${steps.join(", ")})`;
}

function serverWords(servers: readonly string[]): string {
  return `MCP server${servers.length === 1 ? "" : "s"} ${servers.join(", ")}`;
}

/** "from 12 to 40 model calls and from 3 to 5 steps"; depth and width read "depth from 1 to 2". */
function figures(rows: readonly FigureRow[]): string {
  return andList(
    rows.map((row) =>
      row.named ? `${row.label} from ${row.before} to ${row.after}` : `from ${row.before} to ${row.after} ${row.label}`,
    ),
  );
}

function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
