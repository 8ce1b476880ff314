// Holds ARCHITECTURE.md to the tree: every file it names in backticks exists (a module moved or
// deleted fails here, not in a reader's head), and every symbol it names (a constant in capitals,
// a camelCase function or type) is defined somewhere in the sources. Build output (`dist/`,
// `out/`) and patterns (`*`, `<feature>`) are not files of the tree. Shown planted offenders
// first, so it can fail. And every source file of every package is in the code map: named in
// backticks by its path or a tail of it (`run/interpreter.ts`, `interpreter.ts`).

import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");
const SKIPPED = new Set(["node_modules", "out", "dist", ".git", ".e2e", ".vscode-test"]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : files(path);
    return [relative(root, path).split(sep).join("/")];
  });
}

const TREE = files(root);
const SOURCES = TREE.filter(
  (file) =>
    /\.(?:ts|mts|mjs|cjs|json)$/.test(file) &&
    !file.startsWith("test/fixtures/") &&
    !file.endsWith("docs.architecture.test.ts"),
)
  .map((file) => readFileSync(join(root, file), "utf8"))
  .join("\n");

function named(text: string): string[] {
  return [...new Set([...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] as string))];
}

/** Backticked file names that are not in the tree. */
function missingFiles(text: string, tree: readonly string[]): string[] {
  return named(text)
    .filter((token) => /\.(?:ts|mts|mjs|cjs|js|json|md|sh)$/.test(token))
    .filter((token) => !/[*<>]/.test(token) && !/(^|\/)(dist|out)\//.test(token))
    .filter((token) => !tree.some((file) => file === token || file.endsWith(`/${token}`)));
}

/** Backticked identifiers (CONSTANT_CASE, camelCase, PascalCase with a hump) no source defines. */
function missingSymbols(text: string, sources: string): string[] {
  return (
    named(text)
      .map((token) => token.replace(/\(.*\)$/, ""))
      .filter((token) => /^(?:[A-Z][A-Z0-9_]{3,}|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z]+[A-Z][A-Za-z0-9]*)$/.test(token))
      // A protocol's name counts where the sources implement it (`restartFrame`: restartFrameRequest).
      .filter((token) => !new RegExp(`\\b${token}`).test(sources))
  );
}

test("the checks find a missing file and a missing symbol, and pass what exists", () => {
  const planted =
    "- `lsp/features.ts` registers; `lsp/gone.ts` was deleted; `dist/server.js` is built; `EXPRESSION_FIELDS` " +
    "in `plan/ast.ts`; `STEP_FIELDS` and `stepExpressions()` stay; `noSuchWalk` never was.";
  assert.deepEqual(missingFiles(planted, TREE), ["lsp/gone.ts"]);
  assert.deepEqual(missingSymbols(planted, SOURCES), ["EXPRESSION_FIELDS", "noSuchWalk"]);
});

const architecture = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");

test("every file ARCHITECTURE.md names exists", () => {
  assert.ok(named(architecture).length > 100, "the scan reads the document's names");
  assert.deepEqual(missingFiles(architecture, TREE), []);
});

test("every symbol ARCHITECTURE.md names is defined in the sources", () => {
  assert.deepEqual(missingSymbols(architecture, SOURCES), []);
});

/** The product packages' source folders (generated code aside): what the code map maps. */
const SOURCE_FOLDERS = [
  "shared-runtime/src/",
  "server/src/",
  "cli/src/",
  "debug-adapter/src/",
  "client/src/",
  "client/webview/src/",
];

function productSources(tree: readonly string[]): string[] {
  return tree.filter(
    (file) =>
      SOURCE_FOLDERS.some((folder) => file.startsWith(folder)) &&
      /\.(?:ts|mts)$/.test(file) &&
      !file.endsWith(".d.ts") &&
      !file.includes("/generated/"),
  );
}

/** Source files no backticked name of `text` stands for (its path, or a tail of it after a slash). */
function unmapped(text: string, sources: readonly string[]): string[] {
  const names = named(text);
  return sources.filter((file) => !names.some((name) => file === name || file.endsWith(`/${name}`)));
}

test("the map check finds a source file the map does not name", () => {
  const sources = ["server/src/service/hover.ts", "server/src/service/quickFixes/addFinal.ts", "cli/src/run.ts"];
  assert.deepEqual(unmapped("`hover.ts` and `quickFixes/addFinal.ts`", sources), ["cli/src/run.ts"]);
  assert.deepEqual(unmapped("`un.ts` is not `run.ts`'s tail", ["cli/src/run.ts", "cli/src/un.ts"]), []);
  assert.deepEqual(unmapped("`src/run.ts`", ["cli/src/rerun.ts"]), ["cli/src/rerun.ts"]);
});

test("every source file of every package is in ARCHITECTURE.md's code map", () => {
  const sources = productSources(TREE);
  assert.ok(sources.length > 300, `the scan reads the packages' sources (${sources.length})`);
  assert.deepEqual(unmapped(architecture, sources), []);
});
