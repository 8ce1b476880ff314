// Holds the core's front door (ARCHITECTURE.md): every other package (the CLI, the language server,
// the debug adapter, the VS Code client and its webview) reaches @rlm-plan/core only
// through its named entry points, the exports of shared-runtime/package.json without a `*`:
// the core (`.`) and a few narrower doors a front end loads alone (the session, the host, text
// readers, the mask, the journal, testing, the plan layer, the run pipeline's types, the graph's
// renderers and layout, the client's leaves). The `*` subpaths stay for the core's own tests (the in-process tier); a consumer that
// imports one has gone below the door. The root entry is a façade of at most 60 names (the
// session, the analysis, the graph, the types on the wire, the vocabulary), each listed by name:
// an `export *` there would let it widen unseen. The scans run on the real sources and are shown
// planted offenders first, so they can fail.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { packageFolders, repositoryRoot, slashed, sourceFiles, specifiersOf } from "../support/importGraph";

const CORE = "@rlm-plan/core";
const ROOT_LIMIT = 60;

/** The names a module's text exports, and its `export *` statements (which hide how many). */
function exportedNames(text: string): { readonly names: string[]; readonly stars: string[] } {
  const source = ts.createSourceFile("index.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names: string[] = [];
  const stars: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined) stars.push(statement.getText(source));
      else if (ts.isNamespaceExport(clause)) names.push(clause.name.text);
      else names.push(...clause.elements.map((element) => element.name.text));
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement))
      names.push(...statement.declarationList.declarations.map((declaration) => declaration.name.getText(source)));
    else if ("name" in statement && statement.name !== undefined) names.push((statement.name as ts.Identifier).text);
  }
  return { names, stars };
}

/** The named entry points: `@rlm-plan/core`, `@rlm-plan/core/session`, ... */
function frontDoor(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot, "shared-runtime", "package.json"), "utf8")) as {
    exports: Record<string, unknown>;
  };
  return new Set(
    Object.keys(manifest.exports)
      .filter((subpath) => !subpath.includes("*") && subpath !== "./package.json")
      .map((subpath) => (subpath === "." ? CORE : `${CORE}/${subpath.slice(2)}`)),
  );
}

/** The imports of the core in a source text that are not one of its named entries. */
function belowTheDoor(file: string, text: string, door: ReadonlySet<string>): string[] {
  return specifiersOf(text)
    .filter((specifier) => specifier === CORE || specifier.startsWith(`${CORE}/`))
    .filter((specifier) => !door.has(specifier))
    .map((specifier) => `${file} imports ${specifier}`);
}

/**
 * Every package but the core itself must use the door. The CLI loads each command's modules on
 * first use (cli/src/main.ts), so its doors are narrow ones: `rlm-plan check` goes through the
 * session, the plan layer (`@rlm-plan/core/plan`) and the analysis, never the run pipeline's door.
 */
const EXEMPT = new Set(["shared-runtime"]);
const consumers = (): string[] => packageFolders().filter((folder) => !EXEMPT.has(folder));

test("the front door is the core and a few named entries", () => {
  const door = frontDoor();
  for (const entry of [CORE, `${CORE}/session`, `${CORE}/host`, `${CORE}/text`, `${CORE}/editor`])
    assert.ok(door.has(entry), entry);
  assert.ok(door.size < 20, `${door.size} entries is no front door`);
  assert.ok(![...door].some((entry) => entry.includes("*")));
});

test("the scan fails on an import below the door, and passes the door itself", () => {
  const door = frontDoor();
  const planted = [
    'import { childPlans } from "@rlm-plan/core/plan/ast";',
    'import { openPlanSession } from "@rlm-plan/core/session";',
    'const { layoutPlanGraph } = await import("@rlm-plan/core/graph/layout");',
    'const walk = require("@rlm-plan/core/plan/scopeWalk");',
    'import { analyzePlanText } from "@rlm-plan/core";',
  ].join("\n");
  assert.deepEqual(belowTheDoor("cli/src/x.ts", planted, door), [
    "cli/src/x.ts imports @rlm-plan/core/plan/ast",
    "cli/src/x.ts imports @rlm-plan/core/plan/scopeWalk",
  ]);
});

test("every consumer package is scanned, recursively, the webview and the debug adapter included", () => {
  const files = consumers().flatMap((folder) =>
    sourceFiles(join(repositoryRoot, folder)).map((path) => slashed(path.slice(repositoryRoot.length + 1))),
  );
  for (const file of [
    "client/webview/src/graphView.ts",
    "client/src/graph/runSteps.ts",
    "debug-adapter/src/launch.ts",
    "cli/src/check.ts",
    "cli/src/queue/workerJob.ts",
  ])
    assert.ok(files.includes(file), file);
  assert.ok(
    files.some((file) => file.startsWith("server/src/service/")),
    "nested server folders are scanned",
  );
});

test("no consumer imports the core below its front door", () => {
  const door = frontDoor();
  const offenders = consumers().flatMap((folder) =>
    sourceFiles(join(repositoryRoot, folder)).flatMap((path) =>
      belowTheDoor(slashed(path.slice(repositoryRoot.length + 1)), readFileSync(path, "utf8"), door),
    ),
  );
  assert.deepEqual(offenders, []);
});

test("the name counter sees every form of export, and export * apart", () => {
  const planted = [
    'export { openPlanSession, type PlanSession as Session } from "./session";',
    'export type { RunEvent } from "./run/events";',
    'export * from "./plan/ast";',
    'export * as graph from "./graph";',
    "export const LIMIT = 1, OTHER = 2;",
    "export function analyze(): void {}",
    "export interface Shape {}",
    "const hidden = 3;",
  ].join("\n");
  assert.deepEqual(exportedNames(planted), {
    names: ["openPlanSession", "Session", "RunEvent", "graph", "LIMIT", "OTHER", "analyze", "Shape"],
    stars: ['export * from "./plan/ast";'],
  });
});

test(`the root entry is a façade of at most ${ROOT_LIMIT} names, each listed by name`, () => {
  const { names, stars } = exportedNames(
    readFileSync(join(repositoryRoot, "shared-runtime", "src", "index.ts"), "utf8"),
  );
  assert.deepEqual(stars, []);
  assert.equal(new Set(names).size, names.length, "a name exported twice");
  assert.ok(names.length <= ROOT_LIMIT, `${names.length} names: move some to a subsystem's entry`);
  for (const name of ["openPlanSession", "analyzePlanText", "buildPlanGraph", "RunEvent", "PlanError", "STEP_FIELDS"])
    assert.ok(names.includes(name), name);
});
