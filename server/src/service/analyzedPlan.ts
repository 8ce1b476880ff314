// The analysed document every feature works from: one run of the runtime's analysis (parser,
// validator, estimator, and preflight's check of tool and provider names) under the host
// profile's capabilities, budget and registries. Pure: no connection here.

import { analyzePlanText, type JsonPath, type LocatedProblem, type PlanAnalysis } from "@rlm-plan/core";
import { parsePlanDocument } from "@rlm-plan/core/text";
import { type Step } from "@rlm-plan/core/plan";
import type { Node } from "jsonc-parser";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { HostStatus, HostView } from "./hostView";
import { RetainedDocument } from "./recentTrees";

export interface AnalyzedPlan {
  /** The document version this analysis is of. */
  readonly document: TextDocument;
  /** The runtime's analysis; its document keeps the text and syntax errors (recentTrees.ts). */
  readonly analysis: PlanAnalysis;
  /** Whether a host profile applies, and whether it could be read. */
  readonly hostStatus: HostStatus;
  /** The usable host profile in force; undefined when none was found or it has errors. */
  readonly host: HostView | undefined;
  /** Every problem: the analysis's, then unknown tools and providers (preflight, host-dependent). */
  readonly problems: readonly LocatedProblem[];
  /**
   * The jsonc-parser tree; undefined when the text is nested too deep to walk. Kept for recently
   * used documents only: another call may parse the text again and give new nodes.
   */
  readonly tree: Node | undefined;
  /** The normalized step at a JSON path, if that step normalized. */
  stepAt(path: JsonPath): Step | undefined;
}

export function analyzePlan(document: TextDocument, hostStatus: HostStatus): AnalyzedPlan {
  const host = hostStatus.kind === "ok" ? hostStatus.view : undefined;
  const text = document.getText();
  const parsed = parsePlanDocument(text);
  // The core session's one policy builder made it (hostView.ts); no profile, no host checks.
  const policy = host ? host.policy : {};
  const analysis = analyzePlanText(text, policy, parsed);
  // The parsed document (tree and value) is not kept: it goes once the analysis is built.
  const retained: PlanAnalysis = { ...analysis, document: new RetainedDocument(document.uri, text, parsed) };
  return new Analyzed(document, retained, hostStatus, host, analysis.problems);
}

class Analyzed implements AnalyzedPlan {
  constructor(
    readonly document: TextDocument,
    readonly analysis: PlanAnalysis,
    readonly hostStatus: HostStatus,
    readonly host: HostView | undefined,
    readonly problems: readonly LocatedProblem[],
  ) {}

  get tree(): Node | undefined {
    return this.analysis.document.tree();
  }

  stepAt(path: JsonPath): Step | undefined {
    return this.analysis.model?.stepAt(path);
  }
}
