// Document symbols: the plan's steps as a nested outline. A step is named by what it does and
// what it binds ("tool → count"); its detail is the tool, provider, action or label; its children
// are the steps of its sub-plans (a parallel step's branches each get a node of their own). Read
// from the source tree, so a step with problems is still in the outline.

import type { Node } from "jsonc-parser";
import { SymbolKind, type DocumentSymbol } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange } from "./diagnostics";
import { propertyValue, stringProperty } from "./planTree";

/** The icon each operation gets in outlines and breadcrumbs. */
const OPERATION_KINDS: Readonly<Record<string, SymbolKind>> = {
  context: SymbolKind.Field,
  model: SymbolKind.Function,
  rlm: SymbolKind.Module,
  tool: SymbolKind.Method,
  parallel: SymbolKind.Struct,
  retry: SymbolKind.Namespace,
  checkpoint: SymbolKind.Event,
  final: SymbolKind.Constant,
};

/** What the outline reads: the document (for ranges) and its source tree. */
type Outlined = Pick<AnalyzedPlan, "document" | "tree">;

export function documentSymbols(plan: Outlined): DocumentSymbol[] {
  const root = plan.tree;
  return root?.type === "object" ? planSymbols(plan, root) : [];
}

function planSymbols(plan: Outlined, planNode: Node): DocumentSymbol[] {
  const steps = propertyValue(planNode, "steps");
  if (steps?.type !== "array") return [];
  return (steps.children ?? []).flatMap((step) => (step.type === "object" ? [stepSymbol(plan, step)] : []));
}

function stepSymbol(plan: Outlined, step: Node): DocumentSymbol {
  const op = stringProperty(step, "op");
  const bind = stringProperty(step, "bind");
  const name = `${op ?? "step"}${bind !== undefined && op !== "checkpoint" && op !== "final" ? ` → ${bind}` : ""}`;
  const selection = propertyValue(step, "bind") ?? propertyValue(step, "op") ?? step;
  const children = childSymbols(plan, step, op);
  const detail = stepDetail(step, op);
  return {
    name,
    kind:
      (op !== undefined && Object.hasOwn(OPERATION_KINDS, op) ? OPERATION_KINDS[op] : undefined) ?? SymbolKind.Object,
    range: lspRange(plan.document, step),
    selectionRange: lspRange(plan.document, selection),
    ...(detail !== undefined ? { detail } : {}),
    ...(children.length > 0 ? { children } : {}),
  };
}

function stepDetail(step: Node, op: string | undefined): string | undefined {
  switch (op) {
    case "tool":
      return stringProperty(step, "name");
    case "model":
      return stringProperty(step, "provider");
    case "context":
      return stringProperty(propertyValue(step, "action"), "type");
    case "checkpoint":
      return stringProperty(step, "label");
    case "retry": {
      const attempts = propertyValue(step, "attempts")?.value;
      return typeof attempts === "number" ? `${attempts} attempt${attempts === 1 ? "" : "s"}` : undefined;
    }
    case "parallel": {
      const plans = propertyValue(step, "plans");
      const count = plans?.type === "array" ? (plans.children ?? []).length : undefined;
      return count === undefined ? undefined : `${count} branch${count === 1 ? "" : "es"}`;
    }
    default:
      return undefined;
  }
}

/** Sub-plan steps: `plan` of rlm and retry, each branch of parallel's `plans`. */
function childSymbols(plan: Outlined, step: Node, op: string | undefined): DocumentSymbol[] {
  const symbols: DocumentSymbol[] = [];
  const sub = propertyValue(step, "plan");
  if (sub?.type === "object" && op !== "parallel") symbols.push(...planSymbols(plan, sub));
  const branches = propertyValue(step, "plans");
  if (branches?.type === "array" && op !== "rlm" && op !== "retry") {
    (branches.children ?? []).forEach((branch, i) => {
      if (branch.type !== "object") return;
      const steps = planSymbols(plan, branch);
      symbols.push({
        name: `branch ${i + 1}`,
        kind: SymbolKind.Array,
        range: lspRange(plan.document, branch),
        selectionRange: lspRange(plan.document, { offset: branch.offset, length: 1 }),
        ...(steps.length > 0 ? { children: steps } : {}),
      });
    });
  }
  return symbols;
}
