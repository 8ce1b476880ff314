// Holds the shape of the real import graph (test/support/importGraph.ts: every workspace package,
// recursively, client/webview and debug-adapter included, type-only imports too): no module
// imports itself through others. Each cycle this repository had closed through a helper placed in
// the wrong module (lineColumn in analysis.ts, which text/ and host/ needed, the Feature type in lsp/features.ts, textSource
// re-exporting memoryTextSource, the runner's host type in runPlan.ts); the fix is to move the
// helper to a leaf both sides import. The scanner is shown planted offenders first, so it can fail.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import { cycles, importEdges, packageFolders, specifiersOf } from "../support/importGraph";

test("the cycle finder finds planted cycles, and only those", () => {
  assert.deepEqual(
    cycles([
      { from: "a.ts", to: "b.ts" },
      { from: "b.ts", to: "c.ts" },
      { from: "c.ts", to: "a.ts" },
      { from: "c.ts", to: "d.ts" },
      { from: "d.ts", to: "d.ts" },
      { from: "e.ts", to: "a.ts" },
    ]),
    [["a.ts", "b.ts", "c.ts"], ["d.ts"]],
  );
  assert.deepEqual(
    cycles([
      { from: "a.ts", to: "b.ts" },
      { from: "a.ts", to: "c.ts" },
      { from: "b.ts", to: "c.ts" },
    ]),
    [],
  );
});

test("the reader sees every form of import, and none in comments", () => {
  const text = [
    'import type { Feature } from "./features";',
    'export { lineColumn } from "../analysis";',
    'import "./sideEffect";',
    'const sdk = require("./sdk");',
    'const lazy = await import("./lazy");',
    '// import { x } from "./commented";',
    "/* from './blockComment' */",
  ].join("\n");
  assert.deepEqual(specifiersOf(text), ["./features", "../analysis", "./sideEffect", "./sdk", "./lazy"]);
});

const edges = importEdges();

test("the graph covers every package, recursively, the webview and the debug adapter included", () => {
  const files = new Set(edges.flatMap((edge) => [edge.from, edge.to]));
  for (const folder of packageFolders())
    assert.ok(
      [...files].some((file) => file.startsWith(`${folder}/`)),
      folder,
    );
  for (const file of [
    "client/webview/src/graphView.ts",
    "client/src/graph/graphPanel.ts",
    "debug-adapter/src/session.ts",
    "server/src/lsp/features.ts",
    "cli/src/main.ts",
  ])
    assert.ok(files.has(file), file);
  // Package specifiers resolve to the other package's source: the client reaches the core.
  assert.ok(edges.some((edge) => edge.from.startsWith("client/") && edge.to.startsWith("shared-runtime/src/")));
});

test("the graph has the cycles this repository had, once their fixes are planted back", () => {
  const planted = [
    ...edges,
    { from: "shared-runtime/src/text/planDocument.ts", to: "shared-runtime/src/analysis.ts" },
    { from: "server/src/lsp/runMask.ts", to: "server/src/lsp/runPlan.ts" },
  ];
  const found = cycles(planted);
  assert.ok(
    found.some((cycle) => cycle.includes("server/src/lsp/runMask.ts") && cycle.includes("server/src/lsp/runPlan.ts")),
    JSON.stringify(found),
  );
  assert.ok(
    found.some(
      (cycle) =>
        cycle.includes("shared-runtime/src/analysis.ts") && cycle.includes("shared-runtime/src/text/planDocument.ts"),
    ),
    JSON.stringify(found),
  );
});

test("no import cycle in any package", () => {
  assert.deepEqual(cycles(edges), []);
});
