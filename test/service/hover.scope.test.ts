// Hover, completion and go to definition read the runtime's semantic model (analysis.model),
// so they agree on what a variable name means: a name bound twice in scope (an error the
// diagnostics report) means its later binding from there on, as find references pins; a "bind"
// on a checkpoint or final step binds nothing, as in the validator. In process.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { completion } from "@rlm-plan/language-server/service/completion";
import { definition } from "@rlm-plan/language-server/service/definition";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { hover } from "@rlm-plan/language-server/service/hover";
import { rangeOf } from "../protocol/support/lspClient";
import { nestedBrokenAt } from "../support/nestedBrokenPlan";
import { analyzedAt, itemsOf, onTheWire } from "./support/analyzed";

const PLAN = `{"steps": [
  {"op": "tool", "name": "t", "args": [1], "bind": "n"},
  {"op": "tool", "name": "t", "args": [{"ref": "var", "name": "n"}], "bind": "n"},
  {"op": "checkpoint", "label": "c", "bind": "c"},
  {"op": "final", "value": REF}
]}`;

describe("hover, completion and definition: one scope", () => {
  it("a name bound twice means the later binding after it", () => {
    const { plan, uri, text, position } = analyzedAt(PLAN.replace("REF", '{"ref": "var", "name": "|n"}'));
    assert.deepEqual(hover(plan, position)?.contents, {
      kind: "markdown",
      value: "**variable** `n`\n\nBound on line 3 by **tool** `t` → `n`",
    });
    assert.deepEqual(onTheWire(definition(plan, position, undefined)), [
      { uri, range: rangeOf(text, '"n"', '"bind": "n"},\n  {"op": "checkpoint"') },
    ]);
  });

  it("the earlier binding before it", () => {
    const { plan, position } = analyzedAt(
      PLAN.replace('"args": [{"ref": "var", "name": "n"}]', '"args": [{"ref": "var", "name": "|n"}]'),
    );
    assert.deepEqual(hover(plan, position)?.contents, {
      kind: "markdown",
      value: "**variable** `n`\n\nBound on line 2 by **tool** `t` → `n`",
    });
  });

  it("completion offers the name once, bound where the reference would resolve; a checkpoint binds nothing", () => {
    const { plan, position } = analyzedAt(PLAN.replace("REF", '{"ref": "var", "name": |}'));
    const items = itemsOf(completion(plan, position));
    assert.deepEqual(
      items.map((item) => [item.label, item.detail]),
      [["n", "bound on line 3 by a tool step"]],
    );
  });

  it("issue 8: a broken step's name in a nested rlm is not bound in the outer plan, as the validator says", () => {
    const outer = analyzedAt(nestedBrokenAt("outer"));
    assert.deepEqual(hover(outer.plan, outer.position)?.contents, {
      kind: "markdown",
      value: "**variable** `x`\n\nNot bound here: bind it in an earlier step of this plan or an enclosing one.",
    });
    const diagnostics = onTheWire(planDiagnostics(outer.plan, { hostProblemsAsErrors: false }));
    assert.deepEqual(
      diagnostics.filter((d) => d.code === "unbound_variable").map((d) => d.range.start),
      [{ line: outer.position.line, character: outer.position.character - 1 }],
    );
    const inner = analyzedAt(nestedBrokenAt("inner"));
    assert.deepEqual(hover(inner.plan, inner.position)?.contents, {
      kind: "markdown",
      value: "**variable** `x`\n\nBound on line 3 by **tool**",
    });
  });
});
