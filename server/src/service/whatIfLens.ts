// The what-if lens and hover at the top of a plan: what the plan's change since a git base (HEAD,
// or the rlmPlan.whatIf.base setting) does to what it asks of its host and to its worst case, in
// the sentence `check --against` prints (the core's whatIfDelta() and whatIfSentence()). The base
// is read by the shell (lsp/whatIfBases.ts); this module only compares and words.

import {
  moneyWords,
  planReach,
  whatIfDelta,
  whatIfSentence,
  type PlanReach,
  type ReachChange,
  type WhatIfDelta,
} from "@rlm-plan/core/plan";
import { exactJsonText } from "@rlm-plan/core/json";
import type { CodeLens } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { rangeNearTop } from "./codeLens";
import { planStart } from "./diagnostics";
import { ShowWhatIfCommand } from "../protocol";

/** The plan at the base, as the shell found it. */
export type WhatIfBase =
  | { readonly kind: "reach"; readonly reach: PlanReach }
  | { readonly kind: "new" }
  | { readonly kind: "unreadable" }
  | { readonly kind: "error"; readonly message: string };

/** What the plan's base was read through: the ref as the setting names it, and what was found. */
export interface WhatIfInput {
  readonly ref: string;
  readonly base: WhatIfBase;
}

/** The delta, or why there is none; undefined when the plan now holds no plan to compare. */
export function planWhatIf(
  plan: AnalyzedPlan,
  base: WhatIfBase,
): { readonly delta: WhatIfDelta } | { readonly error: string } | undefined {
  const { plan: now, estimates } = plan.analysis;
  if (!now || !estimates) return undefined;
  if (base.kind === "error") return { error: base.message };
  const head = planReach(now, estimates.total, plan.host?.whatIf);
  return { delta: whatIfDelta(base.kind === "reach" ? base.reach : base.kind, head) };
}

/** One lens beside the run lens: the sentence, whose command shows the delta set by set. */
export function whatIfLenses(plan: AnalyzedPlan, input: WhatIfInput): CodeLens[] {
  const text = plan.document.getText();
  const start = planStart(text);
  const compared = planWhatIf(plan, input.base);
  if (!start || !compared) return [];
  const words = "delta" in compared ? whatIfSentence(compared.delta) : `cannot compare: ${compared.error}`;
  return [
    {
      range: rangeNearTop(text, start),
      command: {
        title: `Since ${input.ref}: ${words}`,
        command: ShowWhatIfCommand.command,
        arguments: [plan.document.uri],
      },
    },
  ];
}

/** The hover paragraph on the plan's first line: the sentence, then each set and figure that moved. */
export function whatIfHover(plan: AnalyzedPlan, input: WhatIfInput): string | undefined {
  const compared = planWhatIf(plan, input.base);
  if (!compared) return undefined;
  const heading = `**Since \`${input.ref}\`**`;
  if ("error" in compared) return `${heading}: cannot compare (${compared.error})`;
  const details = whatIfDetails(compared.delta).map((line) => `- ${line}`);
  return [`${heading}: ${whatIfSentence(compared.delta)}.`, ...(details.length > 0 ? ["", ...details] : [])].join("\n");
}

/** The delta line by line (the lens's command shows them): sets (and approval steps) as +added −removed, figures as a → b. */
export function whatIfDetails(delta: WhatIfDelta): string[] {
  const lines: string[] = [];
  const set = (label: string, change: ReachChange) => {
    const moved = [...change.added.map((name) => `+${name}`), ...change.removed.map((name) => `−${name}`)];
    if (moved.length > 0) lines.push(`${label}: ${moved.join(", ")}`);
  };
  set("capabilities", delta.capabilities);
  set("tools", delta.tools);
  set("providers", delta.providers);
  set("MCP servers", delta.mcpServers);
  if (delta.approvals) set("steps that can need approval", delta.approvals);
  for (const row of delta.worstCase)
    lines.push(`worst-case ${row.label}: ${exactJsonText(row.before)} → ${exactJsonText(row.after)}`);
  const { money, approvals } = delta;
  if (money)
    lines.push(
      `worst-case cost: ${moneyWords(money.before, money.currency)} → ${moneyWords(money.after, money.currency)}`,
    );
  if (approvals && BigInt(approvals.before) !== BigInt(approvals.after))
    lines.push(`worst-case approvals: ${exactJsonText(approvals.before)} → ${exactJsonText(approvals.after)}`);
  return lines;
}
