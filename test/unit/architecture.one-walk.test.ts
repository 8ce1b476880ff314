// Holds "one walk" (ARCHITECTURE.md, plan/walk.ts and plan/needs.ts): outside the core's plan
// layer (shared-runtime/src/plan/), no source file of any package (recursively: the server,
// CLI, debug adapter, client, webview and the rest of the core) imports the AST's walks
// (`childPlans`, `stepExpressions`), walks a plan's steps into its nested plans itself, walks an
// expression's inputs itself, or defines a `planNeeds`. They ask the semantic model (`steps()`,
// `needs()`, `expressions(step)`, `inputsOf(step)`) or, holding a bare plan, `planSteps` and
// `planNeeds`. Each rule is shown the copy it was written against (the old tree's code) first,
// so it can fail.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { packageFolders, repositoryRoot, slashed, sourceFiles } from "../support/importGraph";

/** The plan layer owns the walks. */
const OWNER = "shared-runtime/src/plan/";

/**
 * The interpreter runs a plan: executing a sub-plan or evaluating an expression is the operation
 * itself, not an analysis of the plan, so its own recursion is allowed (it still may not import
 * the walks' building blocks: it asks walk.ts like everyone). Its module, and `run/ops/`, where its
 * steps are executed and its expressions resolved, operation by operation.
 */
const RUNS_PLANS = /^shared-runtime\/src\/run\/(interpreter|ops\/)/;

/** Comments name the walks in prose; only code counts. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

interface Rule {
  readonly what: string;
  /** Whether the file's code breaks the rule. */
  readonly breaks: (code: string, file: string) => boolean;
  /** The old tree's code this rule is for (what it must catch). */
  readonly copy: string;
}

const iteratesSteps =
  /\bof\s+[\w$.]+\.steps\s*\)|\.steps\.(?:forEach|map|flatMap|filter|reduce|some|every)\(|\bsteps\s*\[\s*[\w$.]+\s*\+\+\s*\]/;
const descends =
  /\.plans\.(?:forEach|map|flatMap)\(|\bof\s+[\w$.]+\.plans\s*\)|\(\s*[\w$]+\.plan\s*[,)]|push\(\s*[\w$]+\.plan\s*\)/;

const RULES: readonly Rule[] = [
  {
    what: "an import or use of the AST's walks (childPlans, stepExpressions)",
    breaks: (text) => /\b(?:childPlans|stepExpressions)\b/.test(text),
    copy: 'import { childPlans, type Plan } from "@rlm-plan/core/plan/ast";\nfor (const [, expr] of stepExpressions(step)) {}',
  },
  {
    what: "a walk of its own over a plan's steps into nested plans",
    breaks: (text, file) => !RUNS_PLANS.test(file) && iteratesSteps.test(text) && descends.test(text),
    copy: [
      "const visit = (p: Plan): void => {",
      "  for (const step of p.steps) {",
      '    if (step.op === "parallel") step.plans.forEach(visit);',
      '    else if (step.op === "rlm") visit(step.plan);',
      "  }",
      "};",
    ].join("\n"),
  },
  {
    what: "a walk of its own over an expression's inputs",
    breaks: (text, file) =>
      !RUNS_PLANS.test(file) &&
      /(?:case\s+"input"\s*:|\.kind\s*===\s*"input")/.test(text) &&
      /\.base\b/.test(text) &&
      /\.(?:items|entries)\b/.test(text),
    copy: [
      "switch (expr.kind) {",
      '  case "input": found.add(expr.name); return;',
      '  case "field": collectInputs(expr.base); return;',
      '  case "list": for (const item of expr.items) collectInputs(item); return;',
      "}",
    ].join("\n"),
  },
  {
    what: "a second planNeeds",
    breaks: (text) =>
      /\b(?:function|const|let|var)\s+planNeeds\b|^\s*(?:static\s+)?planNeeds\s*\([^)]*\)\s*[:{]/m.test(text),
    copy: "export function planNeeds(text: string): NeedsResult {",
  },
];

/** Every source file outside the plan layer, of every package, recursively. */
function scanned(): { file: string; text: string }[] {
  return packageFolders().flatMap((folder) =>
    sourceFiles(join(repositoryRoot, folder))
      .map((path) => ({ path, file: slashed(path.slice(repositoryRoot.length + 1)) }))
      .filter(({ file }) => !file.startsWith(OWNER))
      .map(({ path, file }) => ({ file, text: code(readFileSync(path, "utf8")) })),
  );
}

test("the scan reads every package, recursively, and leaves the plan layer out", () => {
  const files = scanned().map((s) => s.file);
  for (const expected of [
    "server/src/service/inlayHints.ts",
    "server/src/service/hostProfileTemplate.ts",
    "cli/src/run.ts",
    "debug-adapter/src/breakpoints.ts",
    "client/webview/src/graphView.ts",
    "shared-runtime/src/debug/stepLines.ts",
    "shared-runtime/src/run/startRun.ts",
    "shared-runtime/src/graph/graphModel.ts",
  ])
    assert.ok(files.includes(expected), expected);
  assert.ok(!files.some((file) => file.startsWith(OWNER)));
});

test("the walks and the one planNeeds are in the plan layer", () => {
  const walk = readFileSync(join(repositoryRoot, OWNER, "walk.ts"), "utf8");
  const needs = readFileSync(join(repositoryRoot, OWNER, "needs.ts"), "utf8");
  assert.match(walk, /export function childPlans\(/);
  assert.match(walk, /export function stepExpressions\(/);
  assert.match(walk, /export function\* planSteps\(/);
  assert.match(needs, /export function planNeeds\(plan: Plan\): PlanUses/);
  // The front door does not hand the building blocks out.
  const index = code(readFileSync(join(repositoryRoot, "shared-runtime/src/index.ts"), "utf8"));
  assert.doesNotMatch(index, /childPlans|stepExpressions|export \* from "\.\/plan\/walk"/);
});

for (const rule of RULES) {
  test(`the rule against ${rule.what} catches the copy it is for`, () => {
    assert.ok(rule.breaks(code(rule.copy), "server/src/service/x.ts"));
  });

  test(`no ${rule.what} outside the plan layer`, () => {
    const offenders = scanned()
      .filter(({ file, text }) => rule.breaks(text, file))
      .map(({ file }) => file);
    assert.deepEqual(offenders, []);
  });
}
