// Holds "one basename, one meaning" (issue 35): across the product code of every package (the
// core, the CLI, the language server, the debug adapter, the client and its webview), a file name
// names one thing, so a reader who meets `requestKey.ts` in a stack trace or a search knows what it
// is without its folder. Two files may share a name only when they are the same role in two
// packages or the two sides of one thing, listed below with why. Shown planted files first.

import { strict as assert } from "node:assert";
import { basename, join } from "node:path";
import { test } from "node:test";
import { repositoryRoot, slashed, sourceFiles } from "../support/importGraph";

const PRODUCT = [
  "shared-runtime/src",
  "cli/src",
  "server/src",
  "debug-adapter/src",
  "client/src",
  "client/webview/src",
];

/** Names that mean the same in each place they appear. */
const SAME_MEANING: Readonly<Record<string, string>> = {
  "index.ts": "a folder's entry (package.json exports)",
  "main.ts": "a package's process entry",
  "bundleStart.ts": "a package's bundle started with V8's code cache",
  "estimate.ts": "the worst-case estimate: computed by the core, printed by `rlm-plan estimate`",
  "hostProfiles.ts": "which host profile applies and its reading: the session's, and the server's watch of them",
  "journalRuns.ts": "the journal's runs for the editor: the server reads them, the client shows them",
  "runEvents.ts": "a run's event stream: the run emits it, the debug adapter forwards it",
  "runOutput.ts": "what a run shows: the CLI's printer, the editor's output channel",
};

/** Each basename used by more than one file and not listed above, with its files. */
function clashes(files: readonly string[]): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
  return [...byName]
    .filter(([name, paths]) => paths.length > 1 && !(name in SAME_MEANING))
    .map(([name, paths]) => `${name}: ${paths.join(", ")}`)
    .sort();
}

const productFiles = (): string[] =>
  PRODUCT.flatMap((folder) =>
    sourceFiles(join(repositoryRoot, folder)).map((path) => slashed(path.slice(repositoryRoot.length + 1))),
  );

test("the scan finds a planted clash, and passes names listed as one meaning", () => {
  assert.deepEqual(
    clashes([
      "shared-runtime/src/journal/canonical.ts",
      "shared-runtime/src/testing/canonical.ts",
      "cli/src/main.ts",
      "server/src/lsp/main.ts",
      "shared-runtime/src/plan/parse.ts",
    ]),
    ["canonical.ts: shared-runtime/src/journal/canonical.ts, shared-runtime/src/testing/canonical.ts"],
  );
});

test("the scan reads every product package, the webview included", () => {
  const files = productFiles();
  for (const file of ["client/webview/src/graphView.ts", "debug-adapter/src/main.ts", "server/src/lsp/main.ts"])
    assert.ok(files.includes(file), file);
  assert.ok(files.length > 300, `only ${files.length} files`);
});

test("each basename of the product code has one meaning", () => {
  assert.deepEqual(clashes(productFiles()), []);
});

test("every name listed as one meaning is still used more than once", () => {
  const counts = new Map<string, number>();
  for (const file of productFiles()) counts.set(basename(file), (counts.get(basename(file)) ?? 0) + 1);
  assert.deepEqual(
    Object.keys(SAME_MEANING).filter((name) => (counts.get(name) ?? 0) < 2),
    [],
  );
});
