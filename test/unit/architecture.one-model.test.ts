// The review test of issue 8: outside the runtime's model, nobody restates a scope, cost or
// budget rule. The server, the client and the CLI are scanned for the shapes such a copy takes
// (arithmetic on retry attempts, composing estimates, comparing a figure with a budget, a scope
// map or walk, a list of expression fields); what they may do is look figures up in the model.

import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");
const SCANNED = ["server/src/service", "server/src/lsp", "server/src", "client/src", "cli/src"];

const RULES: readonly { readonly what: string; readonly pattern: RegExp; readonly copy: string }[] = [
  {
    what: "arithmetic on retry attempts (the model's retryCost has the figures)",
    pattern: /\battempts\s*[-+*/]|[-+*/]\s*(?:[A-Za-z_$][\w$]*\.)*attempts\b/,
    copy: "scaleEstimate(total, step.attempts - 1); const total = once * step.attempts;",
  },
  {
    what: "composing estimates (the model's costAt, planTotal and total have them)",
    pattern: /\b(?:addEstimates|scaleEstimate|estimatePlan|estimateEachStep)\b/,
    copy: "total = addEstimates(total, planTotal(earlier, estimates, childDepth));",
  },
  {
    what: "comparing a figure with a budget (costRows' `over` says it)",
    pattern: /[<>]=?\s*(?:budget|max|DEFAULT_BUDGET)\b|(?:budget|DEFAULT_BUDGET)\[[^\]]+\]\s*[<>]/,
    copy: "if (estimate[figure] > DEFAULT_BUDGET[field]) budget[field] = estimate[figure];",
  },
  {
    what: "a scope map or scope walk (the model's scopeAt, resolve and inScopeAt answer)",
    pattern: /\bvisibleBefore\b|\bclass Scope\b|\bopaqueBinds\b|\bwalkBindings\b|\bEXPRESSION_KEYS\b/,
    copy: "return this.parent?.visibleBefore(name, this.ownerIndexInParent);",
  },
  {
    what: "a list of which step fields are expressions (ast.ts's STEP_FIELDS, expressionFields and stepExpressions)",
    pattern: /["']handle["']\s*,\s*["']prompt["']|\[\[\s*step\.handle\b|return \[\[step\.(?:prompt|args|value)\b/,
    copy: 'const ANY_EXPRESSION_KEYS = ["handle", "prompt", "args", "value"];',
  },
];

function sources(): { file: string; lines: string[] }[] {
  return SCANNED.flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith(".ts"))
      .map((name) => ({ file: `${dir}/${name}`, lines: readFileSync(join(root, dir, name), "utf8").split("\n") })),
  );
}

test("the scan reads the server, the client and the CLI", () => {
  const files = sources().map((s) => s.file);
  for (const expected of ["server/src/service/hover.ts", "client/src/statusBar.ts", "cli/src/estimate.ts"])
    assert.ok(files.includes(expected), expected);
});

for (const rule of RULES) {
  test(`the review pattern for ${rule.what} finds the copy it is for`, () => {
    assert.match(rule.copy, rule.pattern);
  });

  test(`no ${rule.what} outside the runtime's model`, () => {
    const offenders = sources().flatMap(({ file, lines }) =>
      lines.flatMap((line, i) => (rule.pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(offenders, []);
  });
}
