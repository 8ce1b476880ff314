// The first hover after an edit, over the protocol, on a nested plan: each step's worst case is
// computed when a hover asks (its sub-plans' totals and its plan's running totals, kept for that
// version only), not as a map of every step per edit. After a range edit that changes an inner
// retry's attempts, every step's hover equals the one a full analysis of the new text gives in
// process (nothing of the previous version's figures survives), its subtree line equals the map
// of every step the estimator walks, and the deepest step's run so far has the exact new figures.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Hover, MarkupContent } from "vscode-languageserver-protocol/node";
import { estimateEachStep } from "@rlm-plan/core/plan/estimate";
import { planSteps } from "@rlm-plan/core/plan/walk";
import { analyzePlan } from "@rlm-plan/language-server/service/analyzedPlan";
import { figures, hover } from "@rlm-plan/language-server/service/hover";
import { HostProfiles } from "@rlm-plan/language-server/lsp/hostProfiles";
import { hostProfile, positionAt } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";

const HOST = {
  capabilities: ["tool(t)", "rlm", "parallel", "retry"],
  budget: { max_steps: 100, max_depth: 6, max_parallel: 4, max_model_calls: 1, max_tool_calls: 20, max_context_ops: 1 },
  tools: { t: { type: "command", command: ["node", "t.js"], description: "Never run: the test only hovers." } },
};
const V = (name: string) => ({ ref: "var", name });
const tool = (bind: string, args: unknown = 1) => ({ op: "tool", name: "t", args, bind });
const final = (value: unknown) => ({ op: "final", value });
const PLAN = `${JSON.stringify(
  {
    steps: [
      tool("a"),
      {
        op: "parallel",
        bind: "p",
        plans: [
          { steps: [tool("x", V("a")), final(V("x"))] },
          {
            steps: [
              { op: "retry", attempts: 2, bind: "y", plan: { steps: [tool("z"), final(V("z"))] } },
              final(V("y")),
            ],
          },
        ],
      },
      {
        op: "rlm",
        bind: "r",
        plan: {
          steps: [
            {
              op: "retry",
              attempts: 3,
              bind: "w",
              plan: {
                steps: [
                  { op: "parallel", bind: "q", plans: [{ steps: [tool("u"), final(V("u"))] }, { steps: [final(1)] }] },
                  final(V("q")),
                ],
              },
            },
            final(V("w")),
          ],
        },
      },
      final([V("p"), V("r")]),
    ],
  },
  null,
  2,
)}\n`;

/** Every step's op, as a place to hover: one character into its value. */
function stepPlaces(text: string): number[] {
  return [...text.matchAll(/"op": "/g)].map((match) => (match.index ?? 0) + match[0].length + 1);
}

function markdown(answer: Hover | null): string {
  return ((answer?.contents ?? { value: "" }) as MarkupContent).value;
}

function line(text: string, title: string): string | undefined {
  return text.split("\n\n").find((section) => section.startsWith(title));
}

describe("hover: the first after an edit, on a nested plan", () => {
  const server = useServer({ files: { "rlmplan.host.json": hostProfile(HOST) } });

  it("gives every step the figures of a full analysis of the new text", async () => {
    const { client } = server;
    const opened = await server.open("nested.rlmplan.json", PLAN);
    assert.deepEqual(opened.diagnostics, []);
    const deepest = positionAt(PLAN, PLAN.lastIndexOf('"op": "', PLAN.indexOf('"bind": "u"')) + 8);
    // Version 1 computes (and keeps) some figures: the deepest step's, its plans' totals.
    const before = markdown(await client.hover(opened.uri, deepest));
    assert.equal(
      line(before, "**Plan so far**"),
      "**Plan so far** (up to and including this step): steps 24 of 100 · depth 4 of 6 · parallel width 2 of 4 · model calls 0 of 1 · tool calls 7 of 20 · context operations 0 of 1",
    );

    // One range edit, as an editor sends it: the inner retry's attempts 3 -> 5.
    const attempts = PLAN.indexOf('"attempts": 3') + '"attempts": '.length;
    const edited = `${PLAN.slice(0, attempts)}5${PLAN.slice(attempts + 1)}`;
    const version = await client.edit(
      opened.uri,
      { start: positionAt(PLAN, attempts), end: positionAt(PLAN, attempts + 1) },
      "5",
    );
    assert.deepEqual((await client.diagnosticsOf(opened.uri, version)).diagnostics, []);

    // The deepest step first (what version 1 had computed), then every step, last first.
    const after = markdown(await client.hover(opened.uri, deepest));
    assert.equal(
      line(after, "**Plan so far**"),
      "**Plan so far** (up to and including this step): steps 34 of 100 · depth 4 of 6 · parallel width 2 of 4 · model calls 0 of 1 · tool calls 9 of 20 · context operations 0 of 1",
    );
    const file = server.workspace.path("nested.rlmplan.json");
    const full = analyzePlan(
      TextDocument.create(opened.uri, "rlm-plan", version, edited),
      new HostProfiles(() => undefined).statusFor(file),
    );
    const normalized = full.analysis.plan;
    assert.ok(normalized);
    const everyStep = estimateEachStep(normalized).steps;
    const steps = [...planSteps(normalized)];
    const places = stepPlaces(edited);
    assert.equal(places.length, 17);
    assert.equal(steps.length, places.length);
    for (let i = places.length - 1; i >= 0; i--) {
      const position = positionAt(edited, places[i] as number);
      const answer = markdown(await client.hover(opened.uri, position));
      assert.equal(answer, markdown(hover(full, position)), `step ${i}`);
      const step = steps[i]?.step;
      assert.ok(step);
      const subtree = everyStep.get(step)?.subtree;
      assert.ok(subtree);
      assert.equal(line(answer, "**Worst case of this step:**"), `**Worst case of this step:** ${figures(subtree)}`);
    }
  });
});
