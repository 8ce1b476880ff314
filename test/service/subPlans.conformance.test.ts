// Extract, then inline, on the reference's valid conformance plans (test/fixtures/conformance/):
// each plan with three or more steps, written one step a line as an author would, has its steps
// before the final extracted into a sub-plan (or, when two bindings flow out of them, only the
// last). The result must pass the same analysis `check` runs under the case's capabilities (plus
// `rlm`) and budget, keep the model, tool and context-operation worst case and the parallel
// width, grow by exactly the sub-plan's two steps and one level, and inline back to the input;
// or, where the two steps would pass the budget, be refused saying so.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { codeActions } from "@rlm-plan/language-server/service/codeActions";
import type { AnalyzedPlan } from "@rlm-plan/language-server/service/analyzedPlan";
import type { CodeAction, Range } from "vscode-languageserver-protocol";
import { analyzed } from "./support/analyzed";
import { applyTextEdits } from "./support/workspaceEdits";

interface Case {
  readonly id: string;
  readonly plan: { readonly steps: readonly { readonly op: string }[] };
  readonly capabilities: readonly string[];
  readonly budget: unknown;
  readonly expected: { readonly validate?: { readonly ok?: boolean } } | null;
}

function validCases(file: string): Case[] {
  return readFileSync(join(__dirname, "..", "..", "fixtures", "conformance", file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Case)
    .filter((c) => c.expected?.validate?.ok === true && Array.isArray(c.plan?.steps) && c.plan.steps.length >= 3);
}

function refactoring(plan: AnalyzedPlan, range: Range, kind: string): CodeAction | undefined {
  const actions = codeActions(plan, {
    diagnostics: [],
    only: [kind],
    hostProfile: () => undefined,
    range,
    disabledActions: true,
  });
  return actions.find((action) => action.kind === kind);
}

/** The range of root steps `first..last` in `text` (a plan printed with two-space indentation). */
function stepsRange(plan: AnalyzedPlan, first: number, last: number): Range {
  const steps = plan.tree?.children?.find((p) => p.children?.[0]?.value === "steps")?.children?.[1]?.children ?? [];
  const a = steps[first];
  const b = steps[last];
  assert.ok(a && b);
  return { start: plan.document.positionAt(a.offset), end: plan.document.positionAt(b.offset + b.length) };
}

/** Plans extracted before the test stops: every valid plan of public.jsonl and the first of v2's, in seconds. */
const ENOUGH = 40;

const all = [...validCases("public.jsonl"), ...validCases("public-v2.jsonl")];

test("extract then inline keeps the worst case and passes check on the conformance plans", () => {
  const done: string[] = [];
  const refused: string[] = [];
  for (const c of all) {
    if (done.length === ENOUGH) break;
    const text = `${JSON.stringify(c.plan, null, 2)}\n`;
    // A host profile writes the default budget by leaving it out.
    const capabilities = [...new Set([...c.capabilities, "rlm"])];
    const host = c.budget === "default" ? { capabilities } : { capabilities, budget: c.budget };
    const policy = { capabilities: host.capabilities, budget: c.budget };
    const before = analyzePlanText(text, policy);
    // A case about capabilities themselves (malformed ones) has no usable host profile: left out.
    if (analyzed(text, { host }).plan.hostStatus.kind !== "ok") continue;
    if (before.problems.some((problem) => !problem.severity)) continue;
    const { plan, uri } = analyzed(text, { host });
    const last = c.plan.steps.length - 2;
    let first = 0;
    let action = refactoring(plan, stepsRange(plan, first, last), "refactor.extract");
    if (action?.disabled?.reason.includes("a sub-plan returns one value")) {
      first = last;
      action = refactoring(plan, stepsRange(plan, first, last), "refactor.extract");
    }
    const moved = { steps: [...c.plan.steps.slice(first, last + 1), { op: "final", value: null }] };
    const reach = analyzePlanText(JSON.stringify(moved)).estimates?.total.depth ?? 0;
    const [old, budget] = [before.estimates?.total, before.budget];
    assert.ok(old && budget, c.id);
    const grown = { steps: Number(old.steps) + 2, depth: Math.max(old.depth, reach + 1) };
    if (grown.steps > Number(budget.max_steps) || grown.depth > budget.max_depth) {
      // The sub-plan's two steps or its level would pass the budget: refused, saying which.
      const fields = [
        grown.steps > Number(budget.max_steps) ? "steps" : "",
        grown.depth > budget.max_depth ? "depth" : "",
      ];
      const which = fields.filter(Boolean).join("|");
      assert.match(
        action?.disabled?.reason ?? "",
        new RegExp(`worst case (${which}) \\d+ exceeds the budget's max_(${which})`),
        c.id,
      );
      refused.push(c.id);
      continue;
    }
    assert.ok(action && !action.disabled, `${c.id}: ${action?.disabled?.reason ?? "not offered"}`);
    const edit = action.edit?.changes?.[uri]?.[0];
    assert.ok(edit, c.id);
    const after = applyTextEdits(text, [edit]);
    const checked = analyzePlanText(after, policy);
    assert.deepEqual(
      checked.problems.filter((problem) => !problem.severity).map((problem) => problem.message),
      [],
      `${c.id}: check after the extraction`,
    );
    const now = checked.estimates?.total;
    assert.ok(now, c.id);
    for (const field of ["model_calls", "tool_calls", "context_ops", "parallel_width"] as const)
      assert.equal(String(now[field]), String(old[field]), `${c.id}: ${field}`);
    // Two more steps (the rlm step and its final); the moved steps run one level deeper.
    assert.equal(Number(now.steps), grown.steps, `${c.id}: steps`);
    assert.equal(now.depth, grown.depth, `${c.id}: depth`);
    const afterPlan = analyzed(after, { host }).plan;
    const back = refactoring(afterPlan, { start: edit.range.start, end: edit.range.start }, "refactor.inline");
    const backEdit = back?.edit?.changes?.[uri]?.[0];
    assert.ok(backEdit, `${c.id}: inline back ${back?.disabled?.reason ?? "not offered"}`);
    assert.equal(applyTextEdits(after, [backEdit]), text, `${c.id}: inline(extract(plan)) is the plan`);
    done.push(c.id);
  }
  assert.ok(refused.includes("budget-040"), "budget-040's 64 steps are the default max_steps");
  assert.equal(done.length, ENOUGH, `only ${done.length} plans extracted: ${done.join(", ")}`);
});
