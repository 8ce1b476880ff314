// `rlm-plan graph` marks the steps the host profile's approval rules can hold (docs/approvals.md,
// "Before the run"), run as the built CLI: the three plans of the plan-graph goldens (a retry, a
// parallel with a computed argument, a sub-plan holding a retry of a parallel) under their
// profile, drawn as SVG, DOT, Mermaid and JSON and compared with golden files
// (test/cli/golden/graph-approvals/; `UPDATE_GOLDEN=1` rewrites them: review the diff). The marked
// steps and their counts are also asserted here, so a golden cannot bless a wrong count. A step
// collapsed over such steps says so; a profile without rules marks nothing.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace, ROOT } from "../support/cliWorkspace";

const SERVICE_GOLDEN = join(ROOT, "test", "service", "golden");
const GOLDEN = join(ROOT, "test", "cli", "golden", "graph-approvals");
const FORMATS = { svg: "svg", dot: "dot", mermaid: "mmd", json: "json" } as const;

/** A plan-graph fixture without its `//!` directive lines: the plan file the CLI reads. */
function fixturePlan(name: string): string {
  const text = readFileSync(join(SERVICE_GOLDEN, "plan-graph", `approval-${name}.input.rlmplan.json`), "utf8");
  return text.replace(/^\/\/!.*\n/gm, "");
}

const PROFILE = readFileSync(join(SERVICE_GOLDEN, "plans", "approvals.host.json"), "utf8");

function workspace(profile = PROFILE) {
  const ws = cliWorkspace("graph-approvals");
  ws.write("rlmplan.host.json", profile);
  for (const name of ["retry", "parallel", "sub-plan"]) ws.write(`${name}.rlmplan.json`, fixturePlan(name));
  return ws;
}

function expectGolden(actual: string, file: string): void {
  const path = join(GOLDEN, file);
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  assert.ok(existsSync(path), `no golden file ${file}: create it with UPDATE_GOLDEN=1`);
  assert.equal(actual, readFileSync(path, "utf8"), `differs from golden ${file} (UPDATE_GOLDEN=1 rewrites it)`);
}

/** Each marked step of an SVG drawing: its id, the mark on its box and its badge's title. */
function svgMarks(svg: string): string[][] {
  const groups = svg.match(/<g class="step[^"]*needs-approval[^"]*"[^>]*>[\s\S]*?<\/g>\n?<\/g>/g) ?? [];
  return groups.map((group) => [
    /data-id="([^"]*)"/.exec(group)?.[1] ?? "",
    /<text class="approval"[^>]*>([^<]*)<\/text>/.exec(group)?.[1] ?? "",
    /<g class="approval-badge"[^>]*><title>([^<]*)<\/title>/.exec(group)?.[1] ?? "",
  ]);
}

const EXPECTED: Record<string, string[][]> = {
  retry: [
    ["steps/0/plan/steps/0", "needs approval ×3", "needs approval (rule 1: 1 of alice), at worst 3 times"],
    ["steps/1", "needs approval ×1", "needs approval (rule 0: 2 of alice, bob), at worst 1 time"],
  ],
  parallel: [
    ["steps/1/plans/0/steps/0", "needs approval ×1", "needs approval (rule 0: 2 of alice, bob), at worst 1 time"],
    ["steps/1/plans/1/steps/0", "needs approval ×1", "needs approval (rule 1: 1 of alice), at worst 1 time"],
    [
      "steps/1/plans/2/steps/0",
      "may need approval ×1",
      "needs approval when its arguments meet the rule's condition (rule 0: 2 of alice, bob), at worst 1 time",
    ],
  ],
  "sub-plan": [
    [
      "steps/0/plan/steps/0/plan/steps/0/plans/0/steps/0",
      "needs approval ×2",
      "needs approval (rule 1: 1 of alice), at worst 2 times",
    ],
    [
      "steps/0/plan/steps/0/plan/steps/0/plans/1/steps/0",
      "needs approval ×2",
      "needs approval (rule 1: 1 of alice), at worst 2 times",
    ],
  ],
};

describe("graph marks the steps that can need approval", () => {
  const ws = workspace();
  for (const name of Object.keys(EXPECTED)) {
    test(`${name}: svg, dot, mermaid and json, against their goldens`, () => {
      const drawn: Partial<Record<keyof typeof FORMATS, string>> = {};
      for (const [format, ext] of Object.entries(FORMATS) as [keyof typeof FORMATS, string][]) {
        const run = ws.cli("graph", `${name}.rlmplan.json`, "--format", format);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(run.stderr, "");
        drawn[format] = run.stdout;
        expectGolden(run.stdout, `${name}.${ext}`);
      }
      const expected = EXPECTED[name] ?? [];
      assert.deepEqual(svgMarks(drawn.svg ?? ""), expected);
      const json = JSON.parse(drawn.json ?? "") as { nodes: { id: string; approval?: { worstCase: number } }[] };
      assert.deepEqual(
        json.nodes.filter((node) => node.approval).map((node) => [node.id, node.approval?.worstCase]),
        expected.map(([id, mark]) => [id, Number(/×(\d+)/.exec(mark ?? "")?.[1])]),
      );
      // DOT: a second outline; Mermaid: the class; both with the mark in the label.
      assert.equal((drawn.dot?.match(/peripheries=2/g) ?? []).length, expected.length);
      assert.equal((drawn.dot?.match(/approval ×\d+/g) ?? []).length, expected.length);
      const classLine = drawn.mermaid?.split("\n").find((line) => line.endsWith(" approval"));
      assert.equal(classLine?.split(" ")[3]?.split(",").length, expected.length, drawn.mermaid);
    });
  }

  test("a collapsed step says how many steps inside it can need approval, and how often in all", () => {
    const run = ws.cli("graph", "sub-plan.rlmplan.json", "--collapse-depth", "1");
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(svgMarks(run.stdout), [
      ["steps/0", "nested approvals ×4", "2 nested steps can need approval, at worst 4 times in all"],
    ]);
  });

  test("Mermaid's own parser accepts the marked flowchart", async () => {
    const { JSDOM } = await import("jsdom");
    const dom = new JSDOM("<!doctype html><html><body></body></html>");
    Object.assign(globalThis, { window: dom.window, document: dom.window.document });
    const mermaid = (await import("mermaid")).default;
    const text = ws.cli("graph", "parallel.rlmplan.json", "--format", "mermaid").stdout;
    assert.deepEqual(await mermaid.parse(text), { diagramType: "flowchart-v2", config: {} });
  });

  test("a profile without approval rules marks nothing", () => {
    const bare = JSON.parse(PROFILE) as Record<string, unknown>;
    delete bare["approvals"];
    const plain = workspace(JSON.stringify(bare));
    for (const format of Object.keys(FORMATS)) {
      const run = plain.cli("graph", "retry.rlmplan.json", "--format", format);
      assert.equal(run.code, 0, run.stderr);
      // The drawing, not its stylesheet (the same for every plan).
      assert.doesNotMatch(run.stdout.replace(/<style>[\s\S]*<\/style>/, ""), /approval/, format);
    }
  });
});
