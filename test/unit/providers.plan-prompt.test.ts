// The propose prompt: it tells the model the grammar, the granted capabilities, providers,
// tools and inputs by name and description, and never an input's contents.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_BUDGET } from "@rlm-plan/core/plan/budget";
import { buildPlanPrompt, planGrammar, type PlanPromptHost } from "@rlm-plan/core/providers/planPrompt";
import {
  CONTEXT_ACTIONS,
  MAP_TRANSFORMS,
  OPERATIONS,
  PARTITION_STRATEGIES,
  REDUCERS,
  REFERENCE_KINDS,
  SELECTOR_CONSTANTS,
  SELECTOR_TYPES,
} from "@rlm-plan/core/plan/ast";
import { analyzePlanText } from "@rlm-plan/core";

const SECRET_CONTENT = "INPUT-CONTENT-SENTINEL-7f3a";

const host: PlanPromptHost = {
  capabilities: ["context(search)", "model(local)", "tool(count_items)", "tool('Word Count')", "retry"],
  budget: { ...DEFAULT_BUDGET, max_model_calls: 3 },
  providers: [
    { name: "local", description: "a small local model" },
    { name: "ungranted", description: "not granted to plans" },
  ],
  tools: [
    { name: "count_items", description: "counts the items of a list\n  (multi-line description)" },
    { name: "Word Count", description: "counts words" },
    { name: "delete_all", description: "registered but not granted" },
  ],
  inputs: [
    { name: "notes", kind: "text context", description: "the meeting notes" },
    { name: "limit", kind: "value" },
  ],
};

test("the prompt holds the goal, grammar, grants, providers, tools, inputs and budget", () => {
  const prompt = buildPlanPrompt("  Count the TODO lines in the notes  ", host);
  assert.match(prompt, /^Goal:\nCount the TODO lines in the notes$/m);
  assert.match(prompt, /Plan\s+:= \{"steps": \[Step, \.\.\.\]\}/);
  for (const op of ["context", "model", "tool", "rlm", "parallel", "retry", "checkpoint", "final"]) {
    assert.ok(prompt.includes(`{"op":"${op}"`), `grammar has ${op}`);
  }
  assert.ok(
    prompt.includes(
      "Granted capabilities: context(search), model(local), tool(count_items), tool('Word Count'), retry",
    ),
  );
  assert.ok(prompt.includes("- local: a small local model"));
  assert.ok(prompt.includes("- count_items: counts the items of a list (multi-line description)"));
  assert.ok(prompt.includes("- Word Count: counts words"));
  assert.ok(prompt.includes("- notes: (text context) the meeting notes"));
  assert.ok(prompt.includes("- limit: (value)"));
  assert.ok(prompt.includes("max_model_calls 3"));
  assert.ok(prompt.includes("temperature, top_p, max_tokens"));
  assert.ok(prompt.includes("exactly one JSON object"));
});

test("providers and tools that are not granted are not offered", () => {
  const prompt = buildPlanPrompt("goal", host);
  assert.ok(!prompt.includes("ungranted"));
  assert.ok(!prompt.includes("delete_all"));
});

test("input contents never reach the prompt: only names, kinds and descriptions are given", () => {
  // The prompt host has no field for contents; a profile-shaped object with extra fields
  // (text, path, items, value) must not leak them either.
  const withContents = {
    ...host,
    inputs: [
      {
        name: "notes",
        kind: "text context" as const,
        description: "notes",
        text: SECRET_CONTENT,
        path: `/tmp/${SECRET_CONTENT}`,
      },
      { name: "limit", kind: "value" as const, value: SECRET_CONTENT, items: [SECRET_CONTENT] },
    ],
  };
  const prompt = buildPlanPrompt("goal", withContents);
  assert.ok(!prompt.includes(SECRET_CONTENT));
  assert.ok(prompt.includes("- notes: (text context) notes"));
});

test("empty sections say (none)", () => {
  const prompt = buildPlanPrompt("goal", {
    capabilities: [],
    budget: DEFAULT_BUDGET,
    providers: [],
    tools: [],
    inputs: [],
  });
  assert.ok(prompt.includes("Granted capabilities: (none)"));
  assert.equal(prompt.match(/\(none\)/g)?.length, 4);
});

test("every shape the prompt's grammar offers passes check: each step, action, selector, strategy, transform and reducer", () => {
  const prompt = buildPlanPrompt("anything", host);
  const grammar = prompt.slice(prompt.indexOf("Plan grammar:"), prompt.indexOf("Rules:"));
  const alternatives = (field: string): string[] => {
    const match = new RegExp(`"${field}":((?:"[a-z_]+"\\|?)+)`).exec(grammar);
    assert.ok(match, `the grammar lists ${field}`);
    return (match[1] as string).split("|").map((alt) => JSON.parse(alt) as string);
  };
  const actionTypes = [
    ...grammar.matchAll(/\{"type":"([a-z]+)","(?:pattern|start|selector|strategy|transform|reducer)"/g),
  ].map((m) => m[1] as string);
  assert.deepEqual(actionTypes, ["search", "slice", "peek", "partition", "map", "reduce"]);
  const notes = { ref: "input", name: "notes" };
  const actions: unknown[] = [
    { type: "search", pattern: "TODO" },
    { type: "slice", start: 0, length: 10 },
    { type: "peek", selector: "metadata" },
    ...["head", "tail"].map((type) => ({ type: "peek", selector: { type, count: 2 } })),
    { type: "peek", selector: { type: "item", index: 0 } },
    ...["fixed", "lines"].map((type) => ({ type: "partition", strategy: { type, size: 2 } })),
    ...alternatives("transform").map((transform) => ({ type: "map", transform })),
    ...alternatives("reducer").map((reducer) => ({ type: "reduce", reducer })),
  ];
  const contextSteps = actions.map((action, i) => ({ op: "context", handle: notes, action, bind: `c${i}` }));
  const leaf = (name: string) => ({ steps: [{ op: "final", value: { ref: "var", name } }] });
  const plan = {
    steps: [
      ...contextSteps,
      { op: "model", provider: "local", prompt: "Say hi", options: { temperature: 0 }, bind: "reply" },
      { op: "tool", name: "count_items", args: { ref: "var", name: "c0" }, bind: "n" },
      { op: "rlm", plan: leaf("n"), bind: "sub" },
      { op: "parallel", plans: [leaf("n"), leaf("sub")], bind: "both" },
      { op: "retry", attempts: 2, plan: leaf("both"), bind: "again" },
      { op: "checkpoint", label: "done" },
      { op: "final", value: { ref: "field", value: { ref: "var", name: "reply" }, key: "text" } },
    ],
  };
  const capabilities = [
    ...new Set(actions.map((a) => `context(${(a as { type: string }).type})`)),
    "model(local)",
    "tool(count_items)",
    "rlm",
    "parallel",
    "retry",
    "checkpoint",
  ];
  const analysis = analyzePlanText(JSON.stringify(plan), {
    capabilities,
    budget: { max_steps: 64, max_context_ops: 32 },
    registries: { tools: new Set(["count_items"]), providers: new Set(["local"]) },
  });
  assert.deepEqual(
    analysis.problems.map((p) => p.message),
    [],
  );
});

/** Every form of the AST's tables the grammar text does not offer, as `table: form`. */
function missingForms(grammar: string): string[] {
  const tables: Readonly<Record<string, readonly string[]>> = {
    operation: OPERATIONS.map((op) => `"op":"${op}"`),
    action: CONTEXT_ACTIONS.map((type) => `"type":"${type}"`),
    "selector type": SELECTOR_TYPES.map((type) => `"${type}"`),
    "selector constant": SELECTOR_CONSTANTS.map((c) => `"${c}"`),
    "partition strategy": PARTITION_STRATEGIES.map((strategy) => `"${strategy}"`),
    transform: MAP_TRANSFORMS.map((transform) => `"${transform}"`),
    reducer: REDUCERS.map((reducer) => `"${reducer}"`),
    reference: REFERENCE_KINDS.map((kind) => `"ref":"${kind}"`),
  };
  return Object.entries(tables).flatMap(([table, forms]) =>
    forms.filter((form) => !grammar.includes(form)).map((form) => `${table}: ${form}`),
  );
}

test("the grammar the prompt gives offers every form of the AST's tables", () => {
  const grammar = planGrammar();
  assert.deepEqual(missingForms(grammar), []);
  assert.ok(buildPlanPrompt("g", host).includes(`Plan grammar:\n${grammar}\n`));
});

test("the completeness check fails on a grammar that lacks a form", () => {
  const grammar = planGrammar()
    .replace('|"byte_count"', "")
    .replace(/\| \{"ref":"field"[^}]*\}/, "");
  assert.deepEqual(missingForms(grammar), ['reducer: "byte_count"', 'reference: "ref":"field"']);
});

test("the grammar, as generated from the tables", () => {
  assert.equal(
    planGrammar(),
    [
      'Plan   := {"steps": [Step, ...]}        non-empty; the last step, and only it, is a "final" step',
      'Step   := {"op":"context", "handle": Expr, "action": Action, "bind": Name}',
      '        | {"op":"model", "provider": Name, "prompt": Expr, "options": {...}, "bind": Name}   ("options" may be left out)',
      '        | {"op":"rlm", "plan": Plan, "bind": Name}                   a nested plan; binds its final value',
      '        | {"op":"tool", "name": Name, "args": Expr, "bind": Name}',
      '        | {"op":"parallel", "plans": [Plan, ...], "bind": Name}       binds the list of the branches\' final values',
      '        | {"op":"retry", "attempts": Integer, "plan": Plan, "bind": Name}   reruns the nested plan when it fails',
      '        | {"op":"checkpoint", "label": Text}',
      '        | {"op":"final", "value": Expr}',
      'Action := {"type":"search","pattern":Text}',
      '        | {"type":"slice","start":Int,"length":Int}',
      '        | {"type":"peek","selector": "metadata" | {"type":"head"|"tail","count":Int} | {"type":"item","index":Int}}',
      '        | {"type":"partition","strategy":{"type":"fixed"|"lines","size":Int}}',
      '        | {"type":"map","transform":"identity"|"lowercase"|"uppercase"|"length"}',
      '        | {"type":"reduce","reducer":"count"|"byte_count"}',
      'Expr   := {"ref":"input","name":Name} | {"ref":"var","name":Name} | {"ref":"field","value":Expr,"key":Name}',
      '        | [Expr, ...] | an object without "ref" (its values are Exprs) | any other JSON value (a literal)',
    ].join("\n"),
  );
});
