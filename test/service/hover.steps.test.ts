// Hover on steps, in process: what the operation does, the worst case of its subtree, the
// retry multiplication, the run's worst case so far against the budget, and the capability.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hover } from "@rlm-plan/language-server/service/hover";
import { at, HOST, PLAN } from "../support/sampleWorkspace";
import { analyzedAt } from "./support/analyzed";

describe("hover: steps", () => {
  // "hosted" plans are under the sample host profile, "bare" ones have none.
  function hoverText(where: "hosted" | "bare", marked: string): string | undefined {
    const { plan, position } = analyzedAt(marked, where === "hosted" ? { host: HOST } : {});
    const answer = hover(plan, position);
    if (!answer) return undefined;
    assert.ok(typeof answer.contents === "object" && "kind" in answer.contents);
    assert.equal(answer.contents.kind, "markdown");
    return answer.contents.value;
  }

  it("on a tool step's op: what it does, its worst case, the run so far, the capability", () => {
    const text = hoverText("hosted", at(PLAN, '"op": "to|ol"'));
    assert.equal(
      text,
      [
        "**tool** `count_items` → `n`",
        "Calls a trusted tool the host registers with JSON arguments and binds its result.",
        "**Worst case of this step:** 1 step · depth 2 · parallel width 0 · 0 model calls · 1 tool call · 0 context operations",
        "**Plan so far** (up to and including this step): steps 10 of 64 · depth 2 of 4 · parallel width 0 of 8 · model calls 0 of 8 · tool calls 3 of 4 · context operations 1 of 32",
        "**Capability:** `tool(count_items)`, granted by `rlmplan.host.json`",
      ].join("\n\n"),
    );
  });

  it("on a retry: the multiplication by its attempts", () => {
    const text = hoverText("hosted", at(PLAN, '"attempts": |3'));
    assert.equal(
      text,
      [
        "**retry** 3 attempts → `count`",
        "Runs its plan again after an execution error, up to the given attempts, and binds its final value.",
        "**Worst case of this step:** 10 steps · depth 2 · parallel width 0 · 0 model calls · 3 tool calls · 0 context operations",
        "**Retry:** 3 attempts × 3 steps = 9 steps, plus the retry step · 3 attempts × 1 tool call = 3 tool calls",
        "**Plan so far** (up to and including this step): steps 11 of 64 · depth 2 of 4 · parallel width 0 of 8 · model calls 0 of 8 · tool calls 3 of 4 · context operations 1 of 32",
        "**Capability:** `retry`, granted by `rlmplan.host.json`",
      ].join("\n\n"),
    );
  });

  it("anywhere in a step not covered by a nearer hover, and says when a capability is not granted", () => {
    const text = hoverText("hosted", at(PLAN, '"bind": "ans|wer"'));
    assert.equal(
      text,
      [
        "**model** `local` → `answer`",
        "Calls a model provider the host registers with the prompt and binds its reply.",
        "**Binds** `answer`: `{text: string, model: string, usage: {…}, finish_reason: string | null}`",
        "**Worst case of this step:** 1 step · depth 1 · parallel width 0 · 1 model call · 0 tool calls · 0 context operations",
        "**Plan so far** (up to and including this step): steps 12 of 64 · depth 2 of 4 · parallel width 0 of 8 · model calls 1 of 8 · tool calls 3 of 4 · context operations 1 of 32",
        "**Capability:** `model(local)`, granted by `rlmplan.host.json`",
      ].join("\n\n"),
    );
    const search = hoverText("hosted", at(PLAN, '"pattern": "|x"'));
    assert.match(search ?? "", /^\*\*context\*\* `search` → `hits`\n\n/);
    assert.match(search ?? "", /\*\*Capability:\*\* `context\(search\)`, granted by `rlmplan.host.json`$/);
  });

  it("marks a budget the run exceeds so far, and a capability the host does not grant", () => {
    const plan = `{"steps": [
  {"op": "tool", "name": "count_items", "args": [], "bind": "a"},
  {"op": "tool", "name": "count_items", "args": [], "bind": "b"},
  {"op": "parallel", "plans": [{"steps": [{"op": "final", "value": 1}]}, {"steps": [{"op": "final", "value": 2}]}], "bind": "c"},
  {"op": "final", "value": 1}
]}`;
    const edited = plan.replace(
      '"bind": "a"',
      '"bind": "a"}, {"op": "tool", "name": "count_items", "args": [], "bind": "a2"}, {"op": "tool", "name": "count_items", "args": [], "bind": "a3"',
    );
    const text = hoverText("hosted", at(edited, '"op": "para|llel"'));
    assert.equal(
      text,
      [
        "**parallel** 2 branches → `c`",
        "Runs its branch plans, concurrently by default (up to max_parallel at once; the host profile's `parallel` may say sequential), and binds the list of their final values in the branches' order.",
        "**Binds** `c`: `[integer, integer]`",
        "**Worst case of this step:** 3 steps · depth 2 · parallel width 2 · 0 model calls · 0 tool calls · 0 context operations",
        "**Plan so far** (up to and including this step): steps 7 of 64 · depth 2 of 4 · parallel width 2 of 8 · model calls 0 of 8 · tool calls 4 of 4 · context operations 0 of 32",
        '**Capability:** `parallel`, **not granted** by `rlmplan.host.json`: add it to "capabilities"',
      ].join("\n\n"),
    );
    const over = edited.replace(
      '"bind": "b"}',
      '"bind": "b"}, {"op": "tool", "name": "count_items", "args": [], "bind": "b2"}',
    );
    const overText = hoverText("hosted", at(over, '"bind": "b|2"'));
    assert.match(overText ?? "", / · tool calls 5 of 4 \(over\) · /);
  });

  it("inside a parallel branch, counts the earlier branches; without a host, says nothing is checked", () => {
    const plan = `{"steps": [
  {"op": "parallel", "plans": [
    {"steps": [{"op": "tool", "name": "t", "args": [], "bind": "x"}, {"op": "final", "value": 1}]},
    {"steps": [{"op": "checkpoint", "label": "second"}, {"op": "final", "value": 2}]}
  ], "bind": "both"},
  {"op": "final", "value": {"ref": "var", "name": "both"}}
]}`;
    const text = hoverText("bare", at(plan, '"label": "sec|ond"'));
    assert.equal(
      text,
      [
        "**checkpoint** `second`",
        "Records a label in the run's state; it does no I/O.",
        "**Worst case of this step:** 1 step · depth 2 · parallel width 0 · 0 model calls · 0 tool calls · 0 context operations",
        "**Plan so far** (up to and including this step): steps 4 of 64 · depth 2 of 4 · parallel width 2 of 8 · model calls 0 of 8 · tool calls 1 of 16 · context operations 0 of 32",
        "**Capability:** `checkpoint`, not checked: no host profile (rlmplan.host.json) found",
      ].join("\n\n"),
    );
  });

  it("on a step that did not normalize: what the operation does, and no figures", () => {
    const plan = '{"steps": [{"op": "tool", "name": "t", "bind": "x"}, {"op": "final", "value": 1}]}';
    assert.equal(
      hoverText("bare", at(plan, '"to|ol"')),
      [
        "**tool**",
        "Calls a trusted tool the host registers with JSON arguments and binds its result.",
        "This step has problems: fix them to see its worst case.",
      ].join("\n\n"),
    );
    const final = hoverText("bare", at(plan, '"fi|nal"'));
    assert.match(final ?? "", /^\*\*final\*\*\n\nEnds the plan: its value is the plan's result\.\n\n/);
    assert.match(final ?? "", /\*\*Capability:\*\* none needed$/);
  });
});
