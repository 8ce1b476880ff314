// Generated plans for the benchmark: a flat chain of trivial tool steps, the same number of
// steps spread over nested parallel/rlm/retry sub-plans, and hostile, absurdly deep texts.

type ExprJson = string | { readonly ref: "var"; readonly name: string };

type StepJson =
  | { readonly op: "tool"; readonly name: "echo"; readonly args: ExprJson; readonly bind: string }
  | { readonly op: "rlm"; readonly plan: PlanJson; readonly bind: string }
  | { readonly op: "parallel"; readonly plans: readonly PlanJson[]; readonly bind: string }
  | { readonly op: "retry"; readonly attempts: number; readonly plan: PlanJson; readonly bind: string }
  | { readonly op: "final"; readonly value: ExprJson };

export interface PlanJson {
  readonly steps: readonly StepJson[];
}

export type PlanShape = "flat" | "nested";

/** Everything the generated plans need, and budgets no generated plan comes near. */
export const CAPABILITIES: readonly string[] = ["tool(echo)", "rlm", "parallel", "retry"];
const HUGE = Number.MAX_SAFE_INTEGER;
export const HUGE_BUDGET = {
  max_steps: HUGE,
  max_depth: HUGE,
  max_parallel: HUGE,
  max_model_calls: HUGE,
  max_tool_calls: HUGE,
  max_context_ops: HUGE,
  max_output_bytes: HUGE,
  time_limit: 1e6,
} as const;

/** The host profile the language-server benches write beside their plans: it grants everything. */
export function hostProfileText(): string {
  return `${JSON.stringify(
    {
      capabilities: CAPABILITIES,
      budget: HUGE_BUDGET,
      tools: {
        echo: { type: "command", command: ["node", "echo.js"], description: "Never run: the bench only checks." },
      },
    },
    null,
    2,
  )}\n`;
}

/** `steps` steps in total, counting nested ones and every final, as pretty-printed JSON. */
export function planText(shape: PlanShape, steps: number): string {
  const plan = shape === "flat" ? flatPlan(steps) : nestedPlan(steps);
  return JSON.stringify(plan, null, 2);
}

const ref = (name: string): ExprJson => ({ ref: "var", name });

/** x1 = echo("seed"), x2 = echo(x1), ..., final x(n-1). */
export function flatPlan(steps: number): PlanJson {
  return chain(steps, undefined, new Names());
}

/** Unique binding names, so no plan ever shadows or reuses one. */
class Names {
  private next = 0;
  fresh(): string {
    return `x${++this.next}`;
  }
}

/** n-1 echo steps, each reading the previous value (the first reads `from`), then final. */
function chain(steps: number, from: string | undefined, names: Names): PlanJson {
  const out: StepJson[] = [];
  let previous = from;
  for (let i = 1; i < steps; i++) {
    const bind = names.fresh();
    out.push({ op: "tool", name: "echo", args: previous === undefined ? "seed" : ref(previous), bind });
    previous = bind;
  }
  out.push({ op: "final", value: previous === undefined ? "seed" : ref(previous) });
  return { steps: out };
}

/** The root plan is level 1; sub-plans go down to level 4 (the estimate's depth 4). */
const MAX_LEVEL = 4;
/** Steps a leaf plan should have, roughly: decides how wide the tree is. */
const LEAF_STEPS = 6;
/** tool, parallel, rlm, retry and final: the steps of a non-leaf plan besides its sub-plans. */
const OWN_STEPS = 5;

/**
 * A balanced tree: each non-leaf plan is [tool, parallel(k-2 branches), rlm, retry, final], its
 * k sub-plans share the remaining steps evenly, and leaves are short echo chains. Each sub-plan
 * starts from the value bound just before its step, so every reference crosses a scope.
 */
export function nestedPlan(steps: number): PlanJson {
  const subPlans = Math.max(4, Math.round(Math.cbrt(steps / LEAF_STEPS)));
  return subtree(steps, 1, undefined, subPlans, new Names());
}

function subtree(steps: number, level: number, from: string | undefined, subPlans: number, names: Names): PlanJson {
  const rest = steps - OWN_STEPS;
  if (level >= MAX_LEVEL || rest < subPlans * 3) return chain(steps, from, names);
  // Sizes of the sub-plans: `rest` split as evenly as integers allow.
  const sizes = Array.from({ length: subPlans }, (_, i) => Math.floor(rest / subPlans) + (i < rest % subPlans ? 1 : 0));
  const child = (after: string) => subtree(sizes.shift() as number, level + 1, after, subPlans, names);

  const head = names.fresh();
  const parallel = names.fresh();
  const branches = Array.from({ length: subPlans - 2 }, () => child(head));
  const rlm = names.fresh();
  const rlmPlan = child(parallel);
  const retry = names.fresh();
  const retryPlan = child(rlm);
  return {
    steps: [
      { op: "tool", name: "echo", args: from === undefined ? "seed" : ref(from), bind: head },
      { op: "parallel", plans: branches, bind: parallel },
      { op: "rlm", plan: rlmPlan, bind: rlm },
      { op: "retry", attempts: 2, plan: retryPlan, bind: retry },
      { op: "final", value: ref(retry) },
    ],
  };
}

/** Steps in a plan, nested ones included (to check the generator, not timed). */
export function countSteps(plan: PlanJson): number {
  let total = 0;
  for (const step of plan.steps) {
    total++;
    if (step.op === "rlm" || step.op === "retry") total += countSteps(step.plan);
    else if (step.op === "parallel") for (const branch of step.plans) total += countSteps(branch);
  }
  return total;
}

/** rlm inside rlm, `depth` times, as text: no recursive serializer ever sees it. */
export function deepRlmText(depth: number): string {
  const open = '{"steps":[{"op":"rlm","bind":"r","plan":';
  const close = "}]}";
  return open.repeat(depth) + '{"steps":[{"op":"final","value":1}]}' + close.repeat(depth);
}

/** A final step whose value is a list literal nested `depth` deep: [[[...1...]]]. */
export function deepExpressionText(depth: number): string {
  return '{"steps":[{"op":"final","value":' + "[".repeat(depth) + "1" + "]".repeat(depth) + "}]}";
}
