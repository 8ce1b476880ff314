// The plan graph: a pure function of an analysed plan file. Steps are nodes (path, op, binding,
// source range, worst case, the run's total against the budget, capability and its grant,
// problems, the approval it can need); nested plans are compound nodes inside the step that owns them; edges are the
// order of steps in a plan and the data flow from a binding step to each step that reads it.
// The language server, the CLI and the editor's webview all draw this one model.

import type { PlanAnalysis } from "../analysis";
import type { JsonPath } from "../json";
import { stepBinding, type Operation, type Plan, type Step } from "../plan/ast";
import type { Budget } from "../plan/budget";
import { formatCapability, requiredCapability } from "../plan/capabilities";
import { addCounts, type Count } from "../plan/count";
import type { Estimate } from "../plan/estimate";
import { countPlanSteps, planSteps } from "../plan/walk";
import type { SourceRange } from "../text/planDocument";
import { dataUses, overBudget, planCost, stepCost, stepPathOf } from "./planFacts";
import { pathId, ROOT_PLAN_ID } from "./ids";

export interface GraphProblem {
  readonly code: string;
  readonly message: string;
  /** Depends on the host (capabilities, budget, registries): a warning unless the editor says otherwise. */
  readonly hostDependent: boolean;
}

export interface GraphStepNode {
  readonly kind: "step";
  /** The step's JSON path joined with "/": unique, stable while the plan's shape is. */
  readonly id: string;
  /** The plan node the step is in. */
  readonly parent: string;
  readonly path: JsonPath;
  readonly op: Operation;
  readonly bind: string | undefined;
  /** What the step does, briefly: `search "ERROR"`, `model(analyst)`, `tool(count)`, `×3`. */
  readonly detail: string;
  readonly range: SourceRange | undefined;
  readonly depth: number;
  /** Worst case of the step and everything under it. */
  readonly worstCase: Estimate;
  /** Worst case of the whole run when this step ends for the last time. */
  readonly runningTotal: Estimate;
  /** Budget figures the running total goes over (`steps`, `model_calls`, ...). */
  readonly overBudget: readonly string[];
  /** The capability the step needs, as the reference writes it; undefined for `final`. */
  readonly capability: string | undefined;
  /** Whether the host grants it; undefined when no host is known (or nothing is needed). */
  readonly granted: boolean | undefined;
  readonly problems: readonly GraphProblem[];
  /** Set when a rule of the host profile can hold the step for approval (GraphOptions.approvals). */
  readonly approval?: GraphApproval;
  /**
   * Set when the step's nested plans are not expanded (deeper than the collapse depth): how many
   * steps they hold, and, when some of those can need approval, how many and how often in all.
   */
  readonly collapsed?: { readonly steps: number; readonly approvals?: HiddenApprovals };
}

/**
 * What a step can need before it runs, as the core's approval forecast says it
 * (host/approvalSteps.ts): the graph copies it onto the step, and never reads a rule itself.
 */
export interface GraphApproval {
  /** The rule's index in the profile's `approvals`. */
  readonly rule: number;
  readonly approvers: readonly string[];
  /** How many of the approvers must approve. */
  readonly quorum: number;
  /** Set when it needs approval only if this holds at run time ("its arguments meet the rule's condition"). */
  readonly condition?: string;
  /** How many times, at worst, the step asks (a retry's attempts and every parallel branch count). */
  readonly worstCase: Count;
}

/** The steps inside a collapsed step that can need approval: how many, and their worst cases summed. */
export interface HiddenApprovals {
  readonly steps: number;
  readonly worstCase: Count;
}

export interface GraphPlanNode {
  readonly kind: "plan";
  readonly id: string;
  /** The step that owns this plan; undefined for the root plan. */
  readonly parent: string | undefined;
  readonly path: JsonPath;
  readonly role: "root" | "rlm" | "retry" | "branch";
  /** "plan", "sub-plan", "retry ×3", "branch 2 of 3". */
  readonly label: string;
  readonly depth: number;
  /** One run of this plan (a retry's attempts multiply it, in the owning step's worst case). */
  readonly worstCase: Estimate;
}

export type GraphNode = GraphStepNode | GraphPlanNode;

export interface GraphEdge {
  readonly id: string;
  readonly kind: "order" | "data";
  readonly from: string;
  readonly to: string;
  /** For data edges: the variable. */
  readonly variable?: string;
}

export interface PlanGraph {
  /** Nodes in source order, each plan before its steps. Empty when no plan was read. */
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  readonly total: Estimate | undefined;
  readonly budget: Budget | undefined;
  /** Problems of the file that belong to no step (syntax, budget values), in analysis order. */
  readonly problems: readonly GraphProblem[];
  /** Steps shown, and steps inside collapsed nodes. */
  readonly steps: number;
  readonly hiddenSteps: number;
}

export interface GraphOptions {
  /**
   * Whether the analysis checked capabilities (a host is known): then a step's capability is
   * granted unless the validator reported it denied.
   */
  readonly capabilitiesKnown?: boolean;
  /** Plans deeper than this (the root plan is depth 1) are not expanded; default: all. */
  readonly collapseDepth?: number;
  /**
   * The steps the host profile's approval rules can hold, with their paths: the forecast's steps
   * (`ApprovalForecast.steps`, host/approvalSteps.ts). Without it (no profile, or no rules) no
   * step is marked.
   */
  readonly approvals?: readonly (GraphApproval & { readonly path: JsonPath })[];
}

export { pathId, ROOT_PLAN_ID };

export function buildPlanGraph(analysis: PlanAnalysis, options: GraphOptions = {}): PlanGraph {
  const { model } = analysis;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const stepNodes = new Map<string, GraphStepNode & { problems: GraphProblem[] }>();
  const problems: GraphProblem[] = [];
  if (!model) {
    for (const problem of analysis.problems) problems.push(graphProblem(problem));
    return { nodes, edges, total: undefined, budget: analysis.budget, problems, steps: 0, hiddenSteps: 0 };
  }
  const collapseDepth = options.collapseDepth ?? Infinity;
  const denied = new Set<string>();
  for (const problem of analysis.problems) {
    const stepPath = problem.kind === "capability_denied" && problem.path ? stepPathOf(problem.path) : undefined;
    if (stepPath) denied.add(pathId(stepPath));
  }
  const approvals = new Map((options.approvals ?? []).map((held) => [pathId(held.path), held]));
  let hiddenSteps = 0;

  const addPlan = (child: Plan, owner: GraphStepNode | undefined, nested: NestedPlan, depth: number): void => {
    nodes.push({
      kind: "plan",
      id: pathId(child.path),
      parent: owner?.id,
      path: child.path,
      role: nested.role,
      label: nested.label,
      depth,
      worstCase: planCost(model, child, depth),
    });
  };

  const addStep = (step: Step, parent: string, nested: readonly NestedPlan[]): GraphStepNode | undefined => {
    const cost = stepCost(model, step.path);
    if (!cost) return undefined;
    const id = pathId(step.path);
    const capability = requiredCapability(step);
    const expand = nested.length > 0 && cost.depth + 1 <= collapseDepth;
    const hidden = nested.length > 0 && !expand ? countPlanSteps(nested.map((n) => n.plan)) : 0;
    hiddenSteps += hidden;
    const held = approvals.get(id);
    const node = {
      kind: "step" as const,
      id,
      parent,
      path: step.path,
      op: step.op,
      bind: stepBinding(step),
      detail: stepDetail(step),
      range: analysis.document.rangeOf(step.path),
      depth: cost.depth,
      worstCase: cost.subtree,
      runningTotal: cost.runningTotal,
      overBudget: overBudget(model, cost.runningTotal),
      capability: capability && formatCapability(capability),
      granted: capability && options.capabilitiesKnown ? !denied.has(id) : undefined,
      problems: [] as GraphProblem[],
      ...(held ? { approval: graphApproval(held) } : {}),
      ...(hidden > 0 ? { collapsed: { steps: hidden, ...hiddenApprovals(id, approvals) } } : {}),
    };
    nodes.push(node);
    stepNodes.set(id, node);
    return node;
  };

  // The one walk over steps, in source order, building what the recursion of plans would: a
  // nested plan's node comes just before its first step (after the branches before it), and an
  // expanded step's order edge after its nested plans' nodes and edges, when the walk leaves it
  // (its plans without steps get their nodes then). Steps under a collapsed or uncounted step
  // are skipped.
  addPlan(model.plan, undefined, { plan: model.plan, role: "root", label: "plan" }, 1);
  const previous = new Map<Plan, string>();
  interface Expanded {
    readonly depth: number;
    readonly node: GraphStepNode;
    readonly nested: readonly NestedPlan[];
    readonly edge: GraphEdge | undefined;
    opened: number;
  }
  const open: Expanded[] = [];
  const openThrough = (owner: Expanded, last: number) => {
    for (; owner.opened <= last; owner.opened++) {
      const nested = owner.nested[owner.opened] as NestedPlan;
      addPlan(nested.plan, owner.node, nested, owner.node.depth + 1);
    }
  };
  const leave = (depth: number) => {
    for (let top = open[open.length - 1]; top && top.depth >= depth; top = open[open.length - 1]) {
      openThrough(top, top.nested.length - 1);
      if (top.edge) edges.push(top.edge);
      open.pop();
    }
  };
  let skipBelow = Infinity;
  for (const { step, depth, plan } of planSteps(model.plan)) {
    if (depth > skipBelow) continue;
    skipBelow = Infinity;
    leave(depth);
    const owner = open[open.length - 1];
    if (owner)
      openThrough(
        owner,
        owner.nested.findIndex((n) => n.plan === plan),
      );
    const nested = nestedPlans(step);
    const node = addStep(step, pathId(plan.path), nested);
    if (!node) {
      skipBelow = depth;
      continue;
    }
    const before = previous.get(plan);
    previous.set(plan, node.id);
    const edge: GraphEdge | undefined = before
      ? { id: `order:${before}->${node.id}`, kind: "order", from: before, to: node.id }
      : undefined;
    if (nested.length > 0 && node.depth + 1 <= collapseDepth) {
      open.push({ depth, node, nested, edge, opened: 0 });
    } else {
      if (edge) edges.push(edge);
      skipBelow = depth;
    }
  }
  leave(0);
  for (const use of dataUses(model)) {
    const from = pathId(use.from);
    const to = pathId(use.to);
    if (!stepNodes.has(from) || !stepNodes.has(to)) continue;
    edges.push({ id: `data:${from}->${to}:${use.name}`, kind: "data", from, to, variable: use.name });
  }
  for (const problem of analysis.problems) {
    const owner = problem.path && owningStep(problem.path, stepNodes);
    (owner ? owner.problems : problems).push(graphProblem(problem));
  }
  return {
    nodes,
    edges,
    total: model.total,
    budget: model.budget,
    problems,
    steps: stepNodes.size,
    hiddenSteps,
  };
}

/** The deepest step node whose path is a prefix of `path`. */
function owningStep<T>(path: JsonPath, steps: ReadonlyMap<string, T>): T | undefined {
  for (let length = path.length; length > 0; length--) {
    const node = steps.get(pathId(path.slice(0, length)));
    if (node) return node;
  }
  return undefined;
}

/** The approvals of the steps under the step `id` (their paths go on from its path), when there are any. */
function hiddenApprovals(
  id: string,
  approvals: ReadonlyMap<string, GraphApproval>,
): { approvals: HiddenApprovals } | Record<string, never> {
  let steps = 0;
  let worstCase: Count = 0;
  for (const [path, held] of approvals)
    if (path.startsWith(`${id}/`)) {
      steps++;
      worstCase = addCounts(worstCase, held.worstCase);
    }
  return steps > 0 ? { approvals: { steps, worstCase } } : {};
}

/** The forecast's step as the graph carries it: its terms and count, not its path or call. */
function graphApproval(held: GraphApproval): GraphApproval {
  return {
    rule: held.rule,
    approvers: [...held.approvers],
    quorum: held.quorum,
    ...(held.condition !== undefined ? { condition: held.condition } : {}),
    worstCase: held.worstCase,
  };
}

function graphProblem(problem: PlanAnalysis["problems"][number]): GraphProblem {
  return {
    code: problem.reason ?? problem.kind,
    message: problem.message,
    hostDependent: problem.hostDependent === true,
  };
}

/** A step's nested plans with the role and label their graph node gets. */
interface NestedPlan {
  readonly plan: Plan;
  readonly role: GraphPlanNode["role"];
  readonly label: string;
}

function nestedPlans(step: Step): readonly NestedPlan[] {
  switch (step.op) {
    case "parallel":
      return step.plans.map((plan, i) => ({ plan, role: "branch", label: `branch ${i + 1} of ${step.plans.length}` }));
    case "retry":
      return [{ plan: step.plan, role: "retry", label: `retry ×${step.attempts}` }];
    case "rlm":
      return [{ plan: step.plan, role: "rlm", label: "sub-plan" }];
    default:
      return [];
  }
}

function stepDetail(step: Step): string {
  switch (step.op) {
    case "context": {
      const action = step.action;
      switch (action.type) {
        case "search":
          return `search ${JSON.stringify(clip(action.pattern))}`;
        case "slice":
          return `slice ${action.start}+${action.length}`;
        case "peek":
          return action.selector.type === "metadata"
            ? "peek metadata"
            : `peek ${action.selector.type} ${"count" in action.selector ? action.selector.count : action.selector.index}`;
        case "partition":
          return `partition ${action.strategy.type} ${action.strategy.size}`;
        case "map":
          return `map ${clip(action.transform)}`;
        case "reduce":
          return `reduce ${clip(action.reducer)}`;
      }
      break;
    }
    case "model":
      return `model(${clip(step.provider)})`;
    case "tool":
      return `tool(${clip(step.name)})`;
    case "rlm":
      return `sub-plan of ${step.plan.steps.length}`;
    case "parallel":
      return `${step.plans.length} branches`;
    case "retry":
      return `up to ×${step.attempts}`;
    case "checkpoint":
      return clip(step.label);
    case "final":
      return "final value";
  }
}

function clip(text: string): string {
  return text.length > 32 ? `${text.slice(0, 31)}…` : text;
}
