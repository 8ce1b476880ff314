// The what-if lens, hover and command in the shell; the base versions: a plan file's text at the rlmPlan.whatIf.base commit-ish,
// read through git (the core's gitBase.ts: plumbing only, nothing of the workspace runs) off the
// analysis path, only when a lens, the first line's hover or the lens's command asks. Each ask
// costs one `git ls-tree` (so a new commit or branch is seen at once); the blob's text is read
// and analysed once per blob id and host view, and kept for the last MAX_KEPT blobs.

import { dirname } from "node:path";
import { planReachOfText, whatIfSentence, type PlanReach } from "@rlm-plan/core/plan";
import { baseEntry, readBlob } from "@rlm-plan/core/session";
import { MarkupKind, MessageType, ShowMessageNotification, type CodeLens, type Hover } from "vscode-languageserver";
import type { AnalyzedPlan } from "../service/analyzedPlan";
import { planStart } from "../service/diagnostics";
import type { HostView } from "../service/hostView";
import {
  planWhatIf,
  whatIfDetails,
  whatIfHover,
  whatIfLenses,
  type WhatIfBase,
  type WhatIfInput,
} from "../service/whatIfLens";
import { ShowWhatIfCommand } from "../protocol";
import type { FeatureContext } from "./feature";
import { uriToPath } from "./hostProfiles";

const MAX_KEPT = 64;
const NO_HOST = {};

export class WhatIfBases {
  /** Per host view (it decides which tools lead to MCP servers): blob id -> the base's reach. */
  private readonly reaches = new WeakMap<HostView | typeof NO_HOST, Map<string, PlanReach | "unreadable">>();

  /**
   * What `plan` is compared with under `ref`; undefined when there is nothing to compare with
   * (the setting is off, the plan is not a file, not in a git repository, or git is missing).
   */
  async inputFor(plan: AnalyzedPlan, ref: string | undefined): Promise<WhatIfInput | undefined> {
    if (ref === undefined || !plan.document.uri.startsWith("file:")) return undefined;
    const file = uriToPath(plan.document.uri);
    if (file === undefined) return undefined;
    const base = await this.baseOf(ref, file, plan.host);
    return base && { ref, base };
  }

  private async baseOf(ref: string, file: string, host: HostView | undefined): Promise<WhatIfBase | undefined> {
    const entry = await baseEntry(ref, file);
    if (entry.kind === "absent") return { kind: "new" };
    if (entry.kind === "error")
      return /not in a git repository|git is not installed/.test(entry.message)
        ? undefined
        : { kind: "error", message: entry.message };
    let kept = this.reaches.get(host ?? NO_HOST);
    if (!kept) this.reaches.set(host ?? NO_HOST, (kept = new Map()));
    let reach = kept.get(entry.blob);
    if (reach === undefined) {
      const read = await readBlob(dirname(file), entry);
      if (read.kind === "error") return { kind: "error", message: read.message };
      if (read.kind === "absent") return { kind: "new" };
      reach = planReachOfText(read.text, host?.whatIf) ?? "unreadable";
      kept.set(entry.blob, reach);
      if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
    }
    return reach === "unreadable" ? { kind: "unreadable" } : { kind: "reach", reach };
  }
}

/** One reader of base versions per server (its cache is per blob). */
const basesOf = new WeakMap<FeatureContext, WhatIfBases>();

function inputFor(ctx: FeatureContext, plan: AnalyzedPlan): Promise<WhatIfInput | undefined> {
  let bases = basesOf.get(ctx);
  if (!bases) basesOf.set(ctx, (bases = new WhatIfBases()));
  return bases.inputFor(plan, ctx.workspace.settings.whatIfBase);
}

/** The what-if lens of a plan (after the run lens), or none. */
export async function whatIfLensesFor(ctx: FeatureContext, plan: AnalyzedPlan): Promise<CodeLens[]> {
  const input = await inputFor(ctx, plan);
  return input ? whatIfLenses(plan, input) : [];
}

/** On the plan's first line, the what-if paragraph joins the hover (or is the hover). */
export async function withWhatIfHover(
  ctx: FeatureContext,
  plan: AnalyzedPlan,
  line: number,
  answer: Hover | null,
): Promise<Hover | null> {
  const start = planStart(plan.document.getText());
  if (!start || plan.document.positionAt(start.offset).line !== line) return answer;
  const input = await inputFor(ctx, plan);
  const paragraph = input && whatIfHover(plan, input);
  if (!paragraph) return answer;
  if (!answer) return { contents: { kind: MarkupKind.Markdown, value: paragraph } };
  const value = typeof answer.contents === "object" && "kind" in answer.contents ? answer.contents.value : "";
  return { ...answer, contents: { kind: MarkupKind.Markdown, value: `${value}\n\n---\n\n${paragraph}` } };
}

/** The what-if lens's command: the delta set by set, as a message (any client shows those). */
export function showWhatIf(ctx: FeatureContext): void {
  ctx.command(ShowWhatIfCommand.command, async (args) => {
    const plan = typeof args[0] === "string" ? ctx.workspace.plan(args[0]) : undefined;
    const input = plan && (await inputFor(ctx, plan));
    const compared = plan && input ? planWhatIf(plan, input.base) : undefined;
    if (!input || !compared) return false;
    const words =
      "delta" in compared
        ? [whatIfSentence(compared.delta), ...whatIfDetails(compared.delta)].join("; ")
        : `cannot compare: ${compared.error}`;
    // A notification: nothing waits for the user to dismiss it.
    void ctx.connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Info,
      message: `Since ${input.ref}: ${words}`,
    });
    return true;
  });
}
