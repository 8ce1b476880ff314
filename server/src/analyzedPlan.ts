// The analysed document every feature works from: one run of the runtime's analysis (parser,
// validator, estimator) under the host profile's capabilities and budget, plus the preflight
// check of tool and provider names against the profile's registries. Pure: no connection here.

import {
  analyzePlanText,
  childPlans,
  parseJsoncDocument,
  preflightPlan,
  type JsonPath,
  type LocatedProblem,
  type ModelProvider,
  type Plan,
  type PlanAnalysis,
  type Step,
  type ToolHandler,
} from "@rlm-plan/shared-runtime";
import type { Node } from "jsonc-parser";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { HostStatus, HostView } from "./hostView";
import { RetainedDocument } from "./recentTrees";
import { stepAt } from "./stepLookup";

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
  const parsed = parseJsoncDocument(text);
  const analysis = analyzePlanText(text, host ? { capabilities: host.capabilities, budget: host.budget } : {}, parsed);
  const registryProblems = host && analysis.plan ? unknownNames(analysis, host) : [];
  // The parsed document (tree and value) is not kept: it goes once the analysis is built.
  const retained: PlanAnalysis = { ...analysis, document: new RetainedDocument(document.uri, text, parsed) };
  return new Analyzed(document, retained, hostStatus, host, [...analysis.problems, ...registryProblems]);
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
    return stepAt(this.analysis.plan, path);
  }
}

/** The runtime's preflight only ever looks names up, so placeholders stand in for handlers. */
const NEVER_CALLED_TOOL: ToolHandler = () => {
  throw new Error("the language server never runs a tool while checking a plan");
};
const NEVER_CALLED_PROVIDER: ModelProvider = {
  complete: () => Promise.reject(new Error("the language server never calls a provider while checking a plan")),
};

/**
 * Unknown tools and providers, located on each name. Preflight reports them in the order it
 * visits steps; the same walk here pairs each report with the step it is about.
 */
function unknownNames(analysis: PlanAnalysis, host: HostView): LocatedProblem[] {
  const plan = analysis.plan as Plan;
  const tools = new Map([...host.tools.keys()].map((name) => [name, NEVER_CALLED_TOOL]));
  const providers = new Map([...host.providers.keys()].map((name) => [name, NEVER_CALLED_PROVIDER]));
  const result = preflightPlan(plan, { tools, providers }, true);
  if (result.ok) return [];
  const reports = [...result.errors];
  const located: LocatedProblem[] = [];
  const visit = (p: Plan): void => {
    for (const step of p.steps) {
      const next = reports[0];
      if (next && step.op === "tool" && next.kind === "unknown_tool" && next.value === step.name) {
        located.push(registryProblem(analysis, next.kind, step.name, [...step.path, "name"], next.message));
        reports.shift();
      } else if (next && step.op === "model" && next.kind === "unknown_provider" && next.value === step.provider) {
        located.push(registryProblem(analysis, next.kind, step.provider, [...step.path, "provider"], next.message));
        reports.shift();
      }
      for (const child of childPlans(step)) visit(child);
    }
  };
  visit(plan);
  return located;
}

function registryProblem(
  analysis: PlanAnalysis,
  kind: string,
  name: string,
  path: JsonPath,
  message: string,
): LocatedProblem {
  return {
    phase: "preflight",
    kind,
    value: name,
    message,
    path,
    target: "value",
    hostDependent: true,
    range: analysis.document.rangeOf(path) ?? { offset: 0, length: 0 },
    relatedRanges: [],
  };
}
