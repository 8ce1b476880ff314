// `rlm-plan graph`, run as the built CLI in a child process: SVG parsed as XML with one
// `<g class="step">` per step (ids, ops, bindings, worst cases), nested plans inside their
// step's box; DOT's clusters and edges; Mermaid parsed by Mermaid's own parser; usage errors.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { CLI, ROOT } from "../support/cliWorkspace";

const NESTED = join(ROOT, "examples", "plans", "nested-rlm.rlmplan.json");
const PARALLEL = join(ROOT, "examples", "plans", "parallel-summary.rlmplan.json");

function rlmPlan(...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-cli-graph-"));
after(() => rmSync(dir, { recursive: true, force: true }));

type XmlNode = Record<string, unknown>;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  preserveOrder: false,
  isArray: (_name: string, _path: unknown, _leaf: boolean, attribute: boolean) => !attribute,
});

/** Every element named `name` anywhere under `node`, depth first. */
function elements(node: unknown, name: string, found: XmlNode[] = []): XmlNode[] {
  if (Array.isArray(node)) for (const item of node) elements(item, name, found);
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      if (key === name) for (const item of value as XmlNode[]) found.push(item);
      if (!key.startsWith("@")) elements(value, name, found);
    }
  return found;
}

const classOf = (node: XmlNode) => String(node["@class"] ?? "").split(" ");

test("svg: well-formed, one step element per step with its id, op, binding and worst case", () => {
  const run = rlmPlan("graph", NESTED, "--format", "svg");
  assert.equal(run.code, 0, run.stderr);
  assert.equal(XMLValidator.validate(run.stdout), true);
  const svg = parser.parse(run.stdout) as XmlNode;
  const root = (svg.svg as XmlNode[])[0] as XmlNode;
  assert.equal(root["@xmlns"], "http://www.w3.org/2000/svg");
  const steps = elements(root, "g").filter((g) => classOf(g).includes("step"));
  assert.deepEqual(
    steps.map((g) => [g["@data-id"], g["@data-op"], g["@data-bind"] ?? null, g["@data-steps"]]),
    [
      ["steps/0", "context", "hits", "1"],
      ["steps/1", "rlm", "report", "6"],
      ["steps/1/plan/steps/0", "context", "first_hit", "1"],
      ["steps/1/plan/steps/1", "rlm", "diagnosis", "3"],
      ["steps/1/plan/steps/1/plan/steps/0", "model", "answer", "1"],
      ["steps/1/plan/steps/1/plan/steps/1", "final", null, "1"],
      ["steps/1/plan/steps/2", "final", null, "1"],
      ["steps/2", "final", null, "1"],
    ],
  );
  const model = steps[4] as XmlNode;
  const lines = elements(model, "text").map((t) => t["#text"]);
  assert.deepEqual(lines, ["model → answer", "model(analyst)", "1 step · 1 model"]);
  assert.match(String(elements(model, "title")[0]), /run total at this step: steps 5\/64, depth 3\/4/);
  const plans = elements(root, "g").filter((g) => classOf(g).includes("plan"));
  assert.deepEqual(
    plans.map((g) => g["@data-id"]),
    ["plan", "steps/1/plan", "steps/1/plan/steps/1/plan"],
  );
  // A nested plan's box lies inside its step's box.
  const box = (g: XmlNode) => {
    const rect = elements(g, "rect")[0] as XmlNode;
    return { x: Number(rect["@x"]), y: Number(rect["@y"]), w: Number(rect["@width"]), h: Number(rect["@height"]) };
  };
  const outer = box(steps[1] as XmlNode);
  const inner = box(plans[1] as XmlNode);
  assert.ok(
    inner.x >= outer.x &&
      inner.y > outer.y &&
      inner.x + inner.w <= outer.x + outer.w &&
      inner.y + inner.h <= outer.y + outer.h,
  );
  const edges = elements(root, "path").filter((p) => classOf(p).includes("edge"));
  assert.equal(edges.filter((p) => classOf(p).includes("order")).length, 5);
  assert.equal(edges.filter((p) => classOf(p).includes("data")).length, 5);
});

test("svg: parallel branches side by side in plan order; problems and budget marks as classes", () => {
  const run = rlmPlan("graph", PARALLEL, "--budget", '{"max_model_calls": 2}');
  assert.equal(run.code, 0, run.stderr);
  const root = (parser.parse(run.stdout) as { svg: XmlNode[] }).svg[0];
  const plans = elements(root, "g").filter((g) => classOf(g).includes("branch"));
  const xs = plans.map((g) => Number((elements(g, "rect")[0] as XmlNode)["@x"]));
  assert.equal(plans.length, 3);
  assert.deepEqual(
    [...xs].sort((a, b) => a - b),
    xs,
    "branch 1, 2, 3 from left to right",
  );
  const over = elements(root, "g")
    .filter((g) => classOf(g).includes("over-budget"))
    .map((g) => g["@data-id"]);
  assert.ok(over.length > 0);
  assert.ok(over.includes("steps/0/plans/2/steps/0"), `third branch's model call is the third: ${over.join(", ")}`);
  assert.ok(!over.includes("steps/0/plans/0/steps/0"));
});

test("dot: a cluster per nested plan, one node per step, order and data edges", () => {
  const run = rlmPlan("graph", NESTED, "--format", "dot");
  assert.equal(run.code, 0, run.stderr);
  const text = run.stdout;
  assert.match(text, /^digraph plan \{\n/);
  assert.equal((text.match(/^\s*n\d+ \[label=/gm) ?? []).length, 8);
  assert.equal((text.match(/subgraph cluster_/g) ?? []).length, 4);
  assert.equal((text.match(/^ {2}n\d+ -> n\d+;$/gm) ?? []).length, 5);
  assert.match(text, /n1 -> n9 \[style=dashed, color="#0969da", label="hits"\];/);
  assert.ok(text.endsWith("}\n"));
});

test("mermaid: Mermaid's own parser accepts it as a flowchart", async () => {
  const run = rlmPlan("graph", PARALLEL, "--format", "mermaid", "--budget", '{"max_model_calls": 2}');
  assert.equal(run.code, 0, run.stderr);
  const { JSDOM } = await import("jsdom");
  // Mermaid sanitizes labels with DOMPurify, which needs a window.
  const dom = new JSDOM("<!doctype html><html><body></body></html>");
  Object.assign(globalThis, { window: dom.window, document: dom.window.document });
  const mermaid = (await import("mermaid")).default;
  assert.deepEqual(await mermaid.parse(run.stdout), { diagramType: "flowchart-v2", config: {} });
  // The escaping matters: the nested plan's search pattern is quoted.
  const nested = rlmPlan("graph", NESTED, "--format", "mermaid").stdout;
  assert.match(nested, /search #quot;ERROR#quot;/);
  assert.deepEqual(await mermaid.parse(nested), { diagramType: "flowchart-v2", config: {} });
  await assert.rejects(mermaid.parse(nested.replace(/#quot;/g, '"')), /Parse error/);
  assert.equal((run.stdout.match(/^\s*n\d+\("/gm) ?? []).length, 10);
  assert.match(run.stdout, /class [n\d,]+ over$/m);
});

test("--output writes the file; --collapse-depth keeps nested plans inside their step", () => {
  const out = join(dir, "nested.svg");
  const run = rlmPlan("graph", NESTED, "--collapse-depth", "2", "-o", out);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, "");
  const root = (parser.parse(readFileSync(out, "utf8")) as { svg: XmlNode[] }).svg[0];
  const steps = elements(root, "g").filter((g) => classOf(g).includes("step"));
  assert.equal(steps.length, 6);
  const collapsed = steps.find((g) => classOf(g).includes("collapsed")) as XmlNode;
  assert.equal(collapsed["@data-id"], "steps/1/plan/steps/1");
  assert.deepEqual(
    elements(collapsed, "text")
      .map((t) => t["#text"])
      .at(-1),
    "+2 nested steps",
  );
});

test("errors: usage mistakes exit 2; a file with no plan exits 1 with its problems", () => {
  const usage = rlmPlan("graph", NESTED, "--format", "png");
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--format: expected svg, dot, mermaid or json, not "png"/);
  assert.equal(rlmPlan("graph").code, 2);
  assert.match(rlmPlan("graph", NESTED, "--collapse-depth", "0").stderr, /--collapse-depth: expected a whole number/);
  const broken = join(dir, "broken.rlmplan.json");
  writeFileSync(broken, '{ "steps": ');
  const run = rlmPlan("graph", broken);
  assert.equal(run.code, 1);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, /broken\.rlmplan\.json:1:\d+: error: /);
  assert.match(run.stderr, /no plan to draw/);
  assert.match(rlmPlan("graph", join(dir, "missing.json")).stderr, /no such file/);
  assert.match(rlmPlan("graph", "--help").stdout, /^usage: rlm-plan graph FILE/);
});
