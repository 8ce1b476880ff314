// The plan graph request, in process: the runtime's graph of an open plan, under the host profile
// in force (grants, budget), with LSP ranges for each step and its op (where a client asks for
// the hover); it follows edits and collapses on request. (Null for a document that is not an
// open plan is the wiring's: test/protocol/features.smoke.test.ts.)

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hover } from "@rlm-plan/language-server/service/hover";
import { planGraph } from "@rlm-plan/language-server/service/planGraph";
import { HOST, PLAN } from "../support/sampleWorkspace";
import { analyzed, hoverValue, onTheWire } from "./support/analyzed";

const V = (name: string) => ({ ref: "var", name });

interface WireStep {
  kind: "step";
  id: string;
  parent: string;
  op: string;
  bind?: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } } | null;
  opRange: { start: { line: number; character: number }; end: { line: number; character: number } } | null;
  /** A count beyond 2^53 comes as its decimal string. */
  worstCase: { steps: number | string; tool_calls: number | string };
  runningTotal: { steps: number | string; tool_calls: number | string };
  overBudget: string[];
  capability?: string;
  granted?: boolean;
  problems: { code: string; hostDependent: boolean }[];
  collapsed?: { steps: number };
}
interface WireGraph {
  uri: string;
  version: number | null;
  hostProblemsAsErrors: boolean;
  graph: {
    nodes: (WireStep | { kind: "plan"; id: string; parent?: string; label: string })[];
    edges: { id: string; kind: string; from: string; to: string; variable?: string }[];
    steps: number;
    hiddenSteps: number;
    budget: { max_tool_calls: number } | null;
    total: { steps: number | string; tool_calls: number | string } | null;
    problems: { code: string; message: string; hostDependent: boolean }[];
  };
}

describe("plan graph request", () => {
  /** The graph of `text` (a plan under the sample host) as the client receives it. */
  function request(text: string, params: Record<string, unknown> = {}) {
    const { plan, uri } = analyzed(text, { host: HOST });
    const result = onTheWire(planGraph(plan, { uri, ...params }, {})) as unknown as WireGraph;
    return { uri, version: plan.document.version, plan, result };
  }
  const steps = (result: WireGraph | null) =>
    (result?.graph.nodes ?? []).filter((node): node is WireStep => node.kind === "step");

  it("nodes with ranges, costs against the host's budget, grants; order and data edges", () => {
    const { uri, version, plan, result } = request(PLAN);
    assert.equal(result.uri, uri);
    assert.equal(result.version, version);
    assert.equal(result.hostProblemsAsErrors, false);
    assert.deepEqual(
      result.graph.nodes.map((node) => [node.kind, node.id, node.parent ?? null]),
      [
        ["plan", "plan", null],
        ["step", "steps/0", "plan"],
        ["step", "steps/1", "plan"],
        ["plan", "steps/1/plan", "steps/1"],
        ["step", "steps/1/plan/steps/0", "steps/1/plan"],
        ["step", "steps/1/plan/steps/1", "steps/1/plan"],
        ["step", "steps/1/plan/steps/2", "steps/1/plan"],
        ["step", "steps/2", "plan"],
        ["step", "steps/3", "plan"],
      ],
    );
    assert.deepEqual(
      steps(result).map((s) => [s.op, s.range?.start.line, s.opRange?.start, s.worstCase.steps, s.runningTotal.steps]),
      [
        ["context", 2, { line: 2, character: 11 }, 1, 1],
        ["retry", 3, { line: 3, character: 11 }, 10, 11],
        ["checkpoint", 4, { line: 4, character: 13 }, 1, 9],
        ["tool", 5, { line: 5, character: 13 }, 1, 10],
        ["final", 6, { line: 6, character: 13 }, 1, 11],
        ["model", 8, { line: 8, character: 11 }, 1, 12],
        ["final", 9, { line: 9, character: 11 }, 1, 13],
      ],
    );
    assert.deepEqual(
      steps(result).map((s) => [s.capability ?? null, s.granted ?? null]),
      [
        ["context(search)", true],
        ["retry", true],
        ["checkpoint", true],
        ["tool(count_items)", true],
        [null, null],
        ["model(local)", true],
        [null, null],
      ],
    );
    assert.equal(result.graph.budget?.max_tool_calls, 4);
    assert.equal(result.graph.total?.steps, 13);
    assert.deepEqual(
      result.graph.edges.filter((e) => e.kind === "data").map((e) => `${e.from} -> ${e.to} ${e.variable}`),
      [
        "steps/0 -> steps/1/plan/steps/1 hits",
        "steps/1/plan/steps/1 -> steps/1/plan/steps/2 n",
        "steps/1 -> steps/2 count",
        "steps/2 -> steps/3 answer",
      ],
    );
    assert.equal(result.graph.edges.filter((e) => e.kind === "order").length, 5);
    // The op value (inside its quotes) is where the step's hover is.
    const op = (steps(result)[3] as WireStep).opRange?.start ?? { line: 0, character: 0 };
    assert.match(
      hoverValue(hover(plan, { line: op.line, character: op.character + 1 })) ?? "",
      /^\*\*tool\*\* `count_items` → `n`/,
    );
  });

  it("follows edits: over budget and denied capabilities marked, the version of the text", () => {
    const edited = PLAN.replace('"attempts": 3', '"attempts": 5').replace(
      '"provider": "local"',
      '"provider": "remote"',
    );
    const { version, result } = request(edited);
    assert.equal(result.version, version);
    const byId = new Map(steps(result).map((s) => [s.id, s]));
    assert.deepEqual(byId.get("steps/1")?.overBudget, ["tool_calls"]);
    assert.deepEqual(byId.get("steps/0")?.overBudget, []);
    assert.equal(byId.get("steps/2")?.granted, false);
    assert.deepEqual(
      byId.get("steps/2")?.problems.map((p) => [p.code, p.hostDependent]),
      [
        ["capability_denied", true],
        ["unknown_provider", true],
      ],
    );
  });

  it("collapses nested plans beyond a depth; ignores a collapse depth that is not a whole number", () => {
    const collapsed = request(PLAN, { collapseDepth: 1 }).result;
    assert.deepEqual(
      collapsed?.graph.nodes.map((n) => n.id),
      ["plan", "steps/0", "steps/1", "steps/2", "steps/3"],
    );
    assert.deepEqual(steps(collapsed)[1]?.collapsed, { steps: 3 });
    assert.equal(collapsed?.graph.hiddenSteps, 3);
    const ignored = request(PLAN, { collapseDepth: "deep" }).result;
    assert.equal(ignored?.graph.nodes.length, 9);
  });

  it("collapses only a plan of more steps than collapseAbove (Show Plan Graph's rule, one round trip)", () => {
    // PLAN has 7 steps, 3 of them nested below depth 1.
    const small = request(PLAN, { collapseDepth: 1, collapseAbove: 7 }).result;
    assert.equal(small.graph.nodes.length, 9);
    assert.equal(small.graph.hiddenSteps, 0);
    const large = request(PLAN, { collapseDepth: 1, collapseAbove: 6 }).result;
    assert.deepEqual(
      large.graph.nodes.map((n) => n.id),
      ["plan", "steps/0", "steps/1", "steps/2", "steps/3"],
    );
    assert.equal(large.graph.steps, 4);
    assert.equal(large.graph.hiddenSteps, 3);
  });

  it("a broken plan gives what normalized", () => {
    const { result } = request('{"steps": [{"op": "final"');
    // The final step normalizes (its missing value reported on it); the JSON errors are the file's.
    assert.deepEqual(
      steps(result).map((s) => [s.id, s.op, s.problems.map((p) => p.code)]),
      [["steps/0", "final", ["missing_field"]]],
    );
    assert.deepEqual(
      result.graph.problems.map((p) => p.code),
      ["invalid_json", "invalid_json", "invalid_json"],
    );
  });

  it("counts beyond 2^53 come exact, as decimal strings; smaller ones as numbers", () => {
    // Three nested retries of 1,000,000 attempts around a tool step.
    let plan: unknown = {
      steps: [
        { op: "tool", name: "count_items", args: {}, bind: "x" },
        { op: "final", value: V("x") },
      ],
    };
    for (let i = 0; i < 3; i++)
      plan = {
        steps: [
          { op: "retry", attempts: 1000000, plan, bind: "r" },
          { op: "final", value: V("r") },
        ],
      };
    const { result } = request(JSON.stringify(plan, null, 2));
    assert.deepEqual(
      [result?.graph.total?.steps, result?.graph.total?.tool_calls],
      ["2000002000002000002", "1000000000000000000"],
    );
    const tool = steps(result).find((s) => s.op === "tool");
    assert.deepEqual(tool?.worstCase, {
      steps: 1,
      depth: 4,
      parallel_width: 0,
      model_calls: 0,
      tool_calls: 1,
      context_ops: 0,
    });
  });
});
