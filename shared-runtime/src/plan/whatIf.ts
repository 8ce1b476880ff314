// What a change to a plan does, read statically: the plan at a base (a git ref) beside the plan
// now, as a structured delta of what it asks of its host (capabilities, tools, providers, MCP
// servers) and of its worst case. The one comparison behind `rlm-plan check --against` and the
// editor's what-if lens and hover, so every front end says the same sentence.
//
// Both sides are read by the same parser and cost rule as everything else (planNeeds(),
// estimatePlan()); nothing here knows git or a host profile: where a tool leads (an MCP server) is
// the caller's `serverOf`, from the host layer.

import type { Plan } from "./ast";
import { exactJsonText } from "../json";
import { parsePlan } from "./parse";
import { planNeeds } from "./needs";
import { estimatePlan, ESTIMATE_LIMITS, type Estimate } from "./estimate";
import type { Count } from "./count";

/** What one version of a plan reaches: the sets a reviewer compares, and its worst case. */
export interface PlanReach {
  /** Capabilities the steps need, as the reference writes them (`tool(refund)`, `model(openrouter)`). */
  readonly capabilities: readonly string[];
  readonly tools: readonly string[];
  readonly providers: readonly string[];
  /** MCP servers the plan's tools lead to, under the host profile in force. */
  readonly mcpServers: readonly string[];
  readonly worstCase: Estimate;
}

/** Where a tool of the plan leads: the MCP server that offers it, or undefined (a profile tool, or no profile). */
export type ToolServerOf = (tool: string) => string | undefined;

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
  /**
   * The worst case's changed figures, calls first. Money (a profile with prices) joins as a row
   * here once the profile carries prices; approval steps join as a ReachChange beside `tools`.
   */
  readonly worstCase: readonly WorstCaseChange[];
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
export function planReach(plan: Plan, total: Estimate, serverOf?: ToolServerOf): PlanReach {
  const needs = planNeeds(plan);
  const tools = [...needs.tools];
  const servers = new Set<string>();
  if (serverOf)
    for (const tool of tools) {
      const server = serverOf(tool);
      if (server !== undefined) servers.add(server);
    }
  return {
    capabilities: needs.capabilities,
    tools,
    providers: [...needs.providers],
    mcpServers: [...servers],
    worstCase: total,
  };
}

/**
 * What a plan file's text reaches, read as the editor reads it (every step that normalizes);
 * undefined when the text holds no plan at all.
 */
export function planReachOfText(text: string, serverOf?: ToolServerOf): PlanReach | undefined {
  const { plan } = parsePlan({ kind: "document", text }, { collectAll: true });
  return plan ? planReach(plan, estimatePlan(plan), serverOf) : undefined;
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
  const changed =
    worstCase.length > 0 || REACH_SETS.some((key) => sets[key].added.length > 0 || sets[key].removed.length > 0);
  return { base: typeof base === "string" ? base : "present", ...sets, worstCase, changed };
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
 * its own); MCP servers are named since one capability may open a whole server.
 */
export function whatIfSentence(delta: WhatIfDelta): string {
  if (delta.base === "new") return newPlanSentence(delta);
  const parts: string[] = [];
  const { capabilities, mcpServers } = delta;
  if (capabilities.added.length > 0) parts.push(`adds ${capabilities.added.join(", ")}`);
  if (capabilities.removed.length > 0) parts.push(`no longer needs ${capabilities.removed.join(", ")}`);
  if (mcpServers.added.length > 0) parts.push(`reaches ${serverWords(mcpServers.added)}`);
  if (mcpServers.removed.length > 0) parts.push(`no longer reaches ${serverWords(mcpServers.removed)}`);
  const raised = delta.worstCase.filter((row) => BigInt(row.after) > BigInt(row.before));
  const lowered = delta.worstCase.filter((row) => BigInt(row.after) < BigInt(row.before));
  if (raised.length > 0) parts.push(`raises the worst case ${figures(raised)}`);
  if (lowered.length > 0) parts.push(`lowers the worst case ${figures(lowered)}`);
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
  const worst = delta.worstCase.map((row) =>
    row.counter === "depth" || row.counter === "parallel"
      ? `${row.label} ${exactJsonText(row.after)}`
      : `${exactJsonText(row.after)} ${row.label}`,
  );
  if (worst.length > 0) parts.push(`has a worst case of ${andList(worst)}`);
  return `this new plan ${andList(parts)}`;
}

function serverWords(servers: readonly string[]): string {
  return `MCP server${servers.length === 1 ? "" : "s"} ${servers.join(", ")}`;
}

/** "from 12 to 40 model calls and from 3 to 5 steps"; depth and width read "depth from 1 to 2". */
function figures(rows: readonly WorstCaseChange[]): string {
  return andList(
    rows.map((row) => {
      const a = exactJsonText(row.before);
      const b = exactJsonText(row.after);
      return row.counter === "depth" || row.counter === "parallel"
        ? `${row.label} from ${a} to ${b}`
        : `from ${a} to ${b} ${row.label}`;
    }),
  );
}

function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
