// Keys the runtime ignores: every step, action, selector, strategy, reference and plan form is
// checked against the AST's tables; each unknown key is a warning on the key itself, naming
// the nearest known key the object lacks, and the runtime still accepts the plan.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import { validatePlan } from "@rlm-plan/core/plan/validate";
import { unknownKeyProblems } from "@rlm-plan/core/plan/unknownKeys";

/** [path, message, suggestion] of each unknown-key problem of a plan value. */
function found(plan: unknown): [string, string, string | undefined][] {
  return unknownKeyProblems(plan).map((p) => {
    assert.equal(p.kind, "unknown_key");
    assert.equal(p.severity, "warning");
    assert.equal(p.target, "key");
    return [JSON.stringify(p.path), p.message, p.suggestion];
  });
}

const FINAL = { op: "final", value: null };

describe("unknown keys", () => {
  test("the three keys of the issue: on a search, a model step and a checkpoint", () => {
    const plan = {
      steps: [
        {
          op: "context",
          handle: { ref: "input", name: "doc" },
          action: { type: "search", pattern: "x", flags: "i" },
          bind: "hits",
        },
        { op: "model", provider: "local", prompt: "hi", stream: true, bind: "reply" },
        { op: "checkpoint", label: "done", extra: 1 },
        FINAL,
      ],
    };
    assert.deepEqual(found(plan), [
      [
        '["steps",0,"action","flags"]',
        'a search action has no key "flags", so the runtime ignores it: its keys are "type", "pattern"',
        undefined,
      ],
      [
        '["steps",1,"stream"]',
        'a model step has no key "stream", so the runtime ignores it: its keys are "op", "provider", "prompt", "options", "bind"',
        undefined,
      ],
      [
        '["steps",2,"extra"]',
        'a checkpoint step has no key "extra", so the runtime ignores it: its keys are "op", "label"',
        undefined,
      ],
    ]);
    // The runtime keeps the reference's behaviour: the same plan is valid.
    const parsed = parsePlan({ kind: "value", value: plan });
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.plan && validatePlan(parsed.plan).ok, true);
  });

  test("a misspelt key names the known key the object lacks, case-insensitively", () => {
    const plan = {
      steps: [
        { op: "tool", name: "t", args: 1, Bind: "x" },
        { op: "final", value: 1, vaule: 2 },
      ],
    };
    assert.deepEqual(
      found(plan).map(([path, , suggestion]) => [path, suggestion]),
      [
        ['["steps",0,"Bind"]', "bind"],
        // "value" is present, so the nearest absent key is not offered: none is near.
        ['["steps",1,"vaule"]', undefined],
      ],
    );
  });

  test("selectors, strategies, references and nested plans are walked; object literals are data", () => {
    const plan = {
      description: "ok",
      $schema: "ok",
      stpes: [],
      steps: [
        {
          op: "context",
          handle: { ref: "input", name: "doc", nmae: "x" },
          action: { type: "peek", selector: { type: "head", count: 2, cuont: 3 } },
          bind: "a",
        },
        {
          op: "context",
          handle: { ref: "input", name: "doc" },
          action: { type: "partition", strategy: { type: "lines", size: 2, sise: 1 } },
          bind: "b",
        },
        {
          op: "rlm",
          plan: {
            steps: [
              {
                op: "final",
                value: { anything: { ref: "field", value: { ref: "var", name: "a" }, key: "k", kye: 1 }, free: [1] },
              },
            ],
          },
          bind: "c",
        },
        { op: "parallel", plans: [{ steps: [FINAL], budget: 1 }], bind: "d" },
        FINAL,
      ],
    };
    assert.deepEqual(
      found(plan).map(([path]) => path),
      [
        '["stpes"]',
        '["steps",0,"handle","nmae"]',
        '["steps",0,"action","selector","cuont"]',
        '["steps",1,"action","strategy","sise"]',
        '["steps",2,"plan","steps",0,"value","anything","kye"]',
        '["steps",3,"plans",0,"budget"]',
      ],
    );
  });

  test("unknown operations, actions and reference kinds are not second-guessed", () => {
    const plan = {
      steps: [
        { op: "contxt", whatever: 1 },
        { op: "context", handle: 1, action: { type: "serch", flags: 1 }, bind: "x" },
        { op: "final", value: { ref: "vra", nmae: 1 } },
      ],
    };
    assert.deepEqual(found(plan), []);
  });

  test("in the editor's analysis: a warning located on the key, after the plan's own problems", () => {
    const text = '{"steps": [{"op": "checkpoint", "label": "l", "extra": 1}, {"op": "final", "value": 1}]}';
    const analysis = analyzePlanText(text);
    assert.deepEqual(
      analysis.problems.map((p) => [p.kind, p.severity, text.slice(p.range.offset, p.range.offset + p.range.length)]),
      [["unknown_key", "warning", '"extra"']],
    );
  });
});
