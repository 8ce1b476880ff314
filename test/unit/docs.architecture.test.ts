// Holds ARCHITECTURE.md to the tree. The document is a map, not an inventory: it need not name
// every file, but whatever it names in backticks must exist, so a module moved or deleted fails
// here rather than in a reader's head. The conventions it is read with:
// - a path: `plan/model.ts` or `model.ts` names a file whose repository path is it or ends with
//   it after a slash; `session/` (trailing slash) names a folder the same way. Build output
//   (`dist/`, `out/`) and patterns (`*`, `<feature>`) are not paths of the tree.
// - a package entry: `@rlm-plan/core/session` is a subpath of that package's exports map.
// - a symbol: `startRun()`, `PlanModel` or `MAX_JSON_DEPTH` is exported by some source file
//   (`export function|const|class|interface|type|enum|namespace NAME`, or `export { NAME }`);
//   `session.run()` names a member, declared at the start of a line by some source file.
//   Lower-case single words (`check`, `run`) are commands or values, not symbols.
// And the document stays a map: at most 30 KiB. Each check is shown a planted offender first.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");
const SKIPPED = new Set(["node_modules", "out", "dist", ".git", ".e2e", ".vscode-test"]);
const MAX_BYTES = 30 * 1024;

/** Every file and folder of the tree, folders with a trailing slash. */
function entries(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const shown = relative(root, path).split(sep).join("/");
    if (!statSync(path).isDirectory()) return [shown];
    return SKIPPED.has(name) ? [`${shown}/`] : [`${shown}/`, ...entries(path)];
  });
}

const TREE = entries(root);
const SOURCES = TREE.filter(
  (file) =>
    /\.(?:ts|mts|mjs|cjs)$/.test(file) &&
    !file.startsWith("test/fixtures/") &&
    !file.endsWith(".d.ts") &&
    !file.endsWith("docs.architecture.test.ts"),
)
  .map((file) => readFileSync(join(root, file), "utf8"))
  .join("\n");

function named(text: string): string[] {
  return [...new Set([...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] as string))];
}

const PATH = /\.(?:ts|mts|mjs|cjs|js|json|jsonl|md|sh|yml)$|\/$/;

/** Backticked paths (files, or folders with a trailing slash) nothing in the tree is or ends with. */
function missingPaths(text: string, tree: readonly string[]): string[] {
  return named(text)
    .filter((token) => PATH.test(token) && !token.startsWith("@"))
    .filter((token) => !/[*<>]/.test(token) && !/(^|\/)(dist|out|node_modules)\//.test(token))
    .filter((token) => !tree.some((entry) => entry === token || entry.endsWith(`/${token}`)));
}

/** The package entries of the repository: `@rlm-plan/core`, `@rlm-plan/core/session`, ... */
function packageEntries(): Set<string> {
  const manifests = ["shared-runtime", "cli", "server", "debug-adapter", "client", "test/support/lsp"]
    .map((folder) => join(root, folder, "package.json"))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, "utf8")) as { name: string; exports?: Record<string, unknown> });
  return new Set(
    manifests.flatMap(({ name, exports }) => [
      name,
      ...Object.keys(exports ?? {}).map((subpath) => (subpath === "." ? name : `${name}/${subpath.slice(2)}`)),
    ]),
  );
}

/** Whether an exports key (`@rlm-plan/core/plan/*` included, as Node matches it) offers a specifier. */
function offers(entry: string, specifier: string): boolean {
  const star = entry.indexOf("*");
  if (star < 0) return entry === specifier;
  const [head, tail] = [entry.slice(0, star), entry.slice(star + 1)];
  return specifier.length > entry.length - 1 && specifier.startsWith(head) && specifier.endsWith(tail);
}

/** Backticked `@rlm-plan/...` specifiers that no exports map of the repository offers. */
function missingEntries(text: string, exported: ReadonlySet<string>): string[] {
  return named(text)
    .filter((token) => token.startsWith("@rlm-plan/") && !token.includes("*"))
    .filter((token) => ![...exported].some((entry) => offers(entry, token)));
}

const CONSTANT = /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/;
const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
const PASCAL = /^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$/;
const escape = (name: string) => name.replace(/\$/g, "\\$");

function exported(name: string, sources: string): boolean {
  const declared = new RegExp(
    `export\\s+(?:declare\\s+)?(?:default\\s+)?(?:async\\s+)?(?:abstract\\s+)?` +
      `(?:function\\*?|const|let|var|class|interface|type|enum|namespace)\\s+${escape(name)}\\b`,
  );
  const listed = new RegExp(`export\\s+(?:type\\s+)?\\{[^}]*\\b${escape(name)}\\b[^}]*\\}`);
  return declared.test(sources) || listed.test(sources);
}

function declaredMember(name: string, sources: string): boolean {
  return new RegExp(
    `^\\s*(?:(?:public|private|protected|static|readonly|async|get)\\s+)*${escape(name)}\\??\\s*[(<:=]`,
    "m",
  ).test(sources);
}

/** Backticked symbols no source exports (or, for `x.member()`, declares). */
function missingSymbols(text: string, sources: string): string[] {
  return named(text).filter((token) => {
    const call = token.endsWith("()");
    const bare = token.replace(/\(\)$/, "");
    const member = /^[A-Za-z_$][\w$]*\.([A-Za-z_$][\w$]*)$/.exec(bare);
    if (member) return call && !declaredMember(member[1]!, sources);
    if (!/^[A-Za-z_$][\w$]*$/.test(bare)) return false;
    if (!call && !CONSTANT.test(bare) && !CAMEL.test(bare) && !PASCAL.test(bare)) return false;
    return !exported(bare, sources);
  });
}

test("the checks find a wrong path, a wrong entry and a wrong symbol, and pass what exists", () => {
  const planted =
    "- `lsp/features.ts` registers; `lsp/gone.ts` was deleted; `dist/server.js` is built; `session/` " +
    "and `nowhere/`; `@rlm-plan/core/session` but `@rlm-plan/core/nothing`; `@rlm-plan/language-server/lsp/main`; `STEP_FIELDS` in `plan/ast.ts` " +
    "and `EXPRESSION_FIELDS`; `startRun()` and `PlanModel` but `noSuchWalk()` and `NoSuchShape`; " +
    "`check` is a command; `rlmPlan/runEvent` is a method; `session.run()` but `session.vanish()`.";
  assert.deepEqual(missingPaths(planted, TREE), ["lsp/gone.ts", "nowhere/"]);
  assert.deepEqual(missingEntries(planted, packageEntries()), ["@rlm-plan/core/nothing"]);
  assert.deepEqual(missingSymbols(planted, SOURCES), [
    "EXPRESSION_FIELDS",
    "noSuchWalk()",
    "NoSuchShape",
    "session.vanish()",
  ]);
});

const architecture = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");

test("ARCHITECTURE.md is a map: at most 30 KiB", () => {
  const bytes = Buffer.byteLength(architecture);
  assert.ok(bytes <= MAX_BYTES, `ARCHITECTURE.md is ${bytes} bytes; a map stays within ${MAX_BYTES}`);
});

test("every path ARCHITECTURE.md names exists", () => {
  assert.ok(named(architecture).length > 100, "the scan reads the document's names");
  assert.deepEqual(missingPaths(architecture, TREE), []);
});

test("every package entry ARCHITECTURE.md names is exported", () => {
  assert.deepEqual(missingEntries(architecture, packageEntries()), []);
});

test("every symbol ARCHITECTURE.md names is exported by a source", () => {
  assert.deepEqual(missingSymbols(architecture, SOURCES), []);
});
