// The propose prompt: it tells the model the grammar, the granted capabilities, providers,
// tools and inputs by name and description, and never an input's contents.

import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_BUDGET } from "@rlm-plan/shared-runtime/out/plan/budget";
import { buildPlanPrompt, type PlanPromptHost } from "@rlm-plan/shared-runtime/out/providers/planPrompt";

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
