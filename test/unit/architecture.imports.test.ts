// Holds the boundary invariants of ARCHITECTURE.md by scanning imports: the runtime knows
// nothing of editors, and the language server nothing of VS Code's API.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "out" || name === "node_modules" ? [] : sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)["']([^"']+)["']/g)].map((m) => m[1] as string);
}

function offenders(dir: string, forbidden: RegExp): string[] {
  return sourceFiles(join(root, dir)).flatMap((file) =>
    importsOf(file)
      .filter((specifier) => forbidden.test(specifier))
      .map((specifier) => `${relative(root, file)} imports ${specifier}`),
  );
}

test("the scan sees the runtime's sources", () => {
  assert.ok(sourceFiles(join(root, "shared-runtime", "src")).length > 10);
});

test("shared-runtime imports neither vscode nor any LSP package", () => {
  assert.deepEqual(offenders("shared-runtime/src", /^vscode($|-languageserver|-languageclient|-jsonrpc)/), []);
});

test("the CLI imports neither vscode nor any LSP package, and the core nothing of the CLI", () => {
  assert.ok(sourceFiles(join(root, "cli", "src")).length > 10);
  assert.deepEqual(
    offenders("cli/src", /^vscode($|-languageserver|-languageclient|-jsonrpc)|^@rlm-plan\/language-server/),
    [],
  );
  assert.deepEqual(offenders("shared-runtime/src", /^rlm-plan($|\/)/), []);
});

test("the language server never imports VS Code's API", () => {
  assert.deepEqual(offenders("server/src", /^vscode$/), []);
});

// server/src/service holds the features as functions of an analysed plan and a position; the
// LSP wiring (connection, documents, guard, workspace, runs) is server/src/lsp. Features may use
// the protocol's types and the shared wire contract (server/src/protocol.ts), never the wiring.
const WIRING = /(^|\/)lsp\/|^vscode-languageserver(\/node)?$/;

test("the server's features never import its LSP wiring or the server library", () => {
  assert.ok(sourceFiles(join(root, "server", "src", "service")).length > 10);
  assert.deepEqual(offenders("server/src/service", WIRING), []);
});

test("the service scan would see an import of the wiring", () => {
  for (const specifier of ["../lsp/workspace", "vscode-languageserver", "vscode-languageserver/node"])
    assert.ok(WIRING.test(specifier), specifier);
  for (const specifier of ["vscode-languageserver-protocol", "../protocol", "./analyzedPlan"])
    assert.ok(!WIRING.test(specifier), specifier);
});
