// Holds the core's front door (ARCHITECTURE.md): every other package (the CLI, the language server,
// the debug adapter, the VS Code client and its webview) reaches @rlm-plan/core only
// through its named entry points, the exports of shared-runtime/package.json without a `*`:
// the core (`.`) and a few narrower doors a front end loads alone (the session, the host, text
// readers, the mask, the journal, testing, the plan layer, the run pipeline's types, the graph's
// renderers and layout, the client's leaves). The `*` subpaths stay for the core's own tests (the in-process tier); a consumer that
// imports one has gone below the door. The scan runs on the real import graph and is shown a
// planted offender first, so it can fail.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { packageFolders, repositoryRoot, slashed, sourceFiles, specifiersOf } from "../support/importGraph";

const CORE = "@rlm-plan/core";

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
