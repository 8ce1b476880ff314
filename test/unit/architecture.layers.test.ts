// Holds the core's layer order (issue 35): text → plan → context → run → host → journal/telemetry
// → session → testing, with the entries (the root façade and the subpath doors) on top. A module
// may import its own layer and the layers below it, never one above: plan/ means a plan with no
// host and no run, so it cannot reach for a host profile. Every file of shared-runtime/src is
// placed in exactly one layer, so a new folder or loose module has to be given a place here.
// The scan reads the real import graph (type-only imports too) and is shown a planted upward
// import first, so it can fail.

import { strict as assert } from "node:assert";
import { join } from "node:path";
import { test } from "node:test";
import { importEdges, repositoryRoot, slashed, sourceFiles } from "../support/importGraph";

const SRC = "shared-runtime/src/";

/**
 * The layers, lowest first; each holds folders (ending in /) and loose modules of shared-runtime/src.
 * run/ sits below host/: the host builds tools and providers on the run's contract (createHost
 * imports startRun's types), so the run may not read a host profile.
 */
const LAYERS: readonly { readonly name: string; readonly members: readonly string[] }[] = [
  // Leaves: JSON values, text positions and readers, the secret mask, the code cache's loader.
  { name: "text", members: ["json.ts", "codeCache.ts", "text/", "mask/"] },
  // A plan with no host and no run: the AST, its checks, static analysis, the graph, debug lines.
  { name: "plan", members: ["plan/", "analysis.ts", "replyAnalysis.ts", "graph/", "debug/"] },
  { name: "context", members: ["context/"] },
  { name: "run", members: ["run/"] },
  // The host: profiles, tools, MCP, model providers (built by the host, proposing plans).
  { name: "host", members: ["host/", "providers/", "workspaceFiles.ts"] },
  { name: "journal/telemetry", members: ["journal/", "telemetry/"] },
  { name: "session", members: ["session/"] },
  { name: "testing", members: ["testing/"] },
  // The doors front ends use: the root façade and the subpath entries of package.json.
  { name: "entries", members: ["index.ts", "editorLeaves.ts", "entries/"] },
];

/** The layer index of a module (a path under shared-runtime/src/), or undefined when unplaced. */
function layerOf(path: string): number | undefined {
  const inside = path.slice(SRC.length);
  const index = LAYERS.findIndex(({ members }) =>
    members.some((member) => (member.endsWith("/") ? inside.startsWith(member) : inside === member)),
  );
  return index < 0 ? undefined : index;
}

/** The imports that go up a layer, as `from -> to (lower layer -> higher layer)`. */
function upward(edges: readonly { readonly from: string; readonly to: string }[]): string[] {
  return edges
    .filter(({ from, to }) => from.startsWith(SRC) && to.startsWith(SRC))
    .filter(({ from, to }) => (layerOf(from) ?? Infinity) < (layerOf(to) ?? -Infinity))
    .map(
      ({ from, to }) =>
        `${from.slice(SRC.length)} -> ${to.slice(SRC.length)} ` +
        `(${LAYERS[layerOf(from) as number]?.name} -> ${LAYERS[layerOf(to) as number]?.name})`,
    );
}

const edges = importEdges(["shared-runtime"]);

test("the scan fails on a planted upward import, and passes imports down or within a layer", () => {
  const planted = [
    { from: `${SRC}plan/parse.ts`, to: `${SRC}host/profile.ts` },
    { from: `${SRC}text/jsonText.ts`, to: `${SRC}plan/problems.ts` },
    { from: `${SRC}run/startRun.ts`, to: `${SRC}host/profile.ts` },
    { from: `${SRC}host/createHost.ts`, to: `${SRC}run/startRun.ts` },
    { from: `${SRC}session/planSession.ts`, to: `${SRC}session/openSession.ts` },
    { from: `${SRC}testing/runCase.ts`, to: `${SRC}json.ts` },
  ];
  assert.deepEqual(upward(planted), [
    "plan/parse.ts -> host/profile.ts (plan -> host)",
    "text/jsonText.ts -> plan/problems.ts (text -> plan)",
    "run/startRun.ts -> host/profile.ts (run -> host)",
  ]);
});

test("the graph reads the core's imports, type-only ones included", () => {
  const inside = edges.filter(({ from, to }) => from.startsWith(SRC) && to.startsWith(SRC));
  assert.ok(inside.length > 500, `only ${inside.length} imports read`);
  assert.ok(inside.some(({ from, to }) => from === `${SRC}host/createHost.ts` && to === `${SRC}run/startRun.ts`));
});

test("every module of the core is placed in exactly one layer", () => {
  const modules = sourceFiles(join(repositoryRoot, "shared-runtime", "src")).map((path) =>
    slashed(path.slice(repositoryRoot.length + 1)),
  );
  assert.deepEqual(
    modules.filter((path) => layerOf(path) === undefined),
    [],
  );
  const members = LAYERS.flatMap((layer) => layer.members);
  assert.equal(new Set(members).size, members.length, "a member named in two layers");
});

test("no module of the core imports a layer above its own", () => {
  assert.deepEqual(upward(edges), []);
});
