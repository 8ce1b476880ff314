// Holds ARCHITECTURE.md to the tree: every file it names in backticks exists (a module moved or
// deleted fails here, not in a reader's head), and every symbol it names (a constant in capitals,
// a camelCase function or type) is defined somewhere in the sources. Build output (`dist/`,
// `out/`) and patterns (`*`, `<feature>`) are not files of the tree. Shown planted offenders
// first, so it can fail. Not yet checked: that every source file is in the code map.

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
  return named(text)
    .map((token) => token.replace(/\(.*\)$/, ""))
    .filter((token) => /^(?:[A-Z][A-Z0-9_]{3,}|[a-z]+[A-Z][A-Za-z0-9]*|[A-Z][a-z]+[A-Z][A-Za-z0-9]*)$/.test(token))
    .filter((token) => !new RegExp(`\\b${token}\\b`).test(sources));
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
