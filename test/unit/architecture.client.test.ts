// Holds the client's boundary (ARCHITECTURE.md): the VS Code extension imports nothing of the
// server at run time but the wire contract, server/src/protocol.ts, which both sides import (one
// contract, written once, in the manner of vscode-eslint's shared messages). That module in turn
// needs nothing at run time but vscode-languageserver-protocol, so the extension bundles no server.
// Every folder of the client is scanned, recursively (client/src/graph and client/webview too).

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");
const PROTOCOL = "@rlm-plan/language-server/protocol";

interface Import {
  readonly file: string;
  readonly statement: string;
  readonly specifier: string;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "out" || name === "node_modules" ? [] : sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

function importsOfText(file: string, text: string): Import[] {
  return [...text.matchAll(/^(import|export)\b[^;]*?from\s+["']([^"']+)["'];?$/gms)].map((m) => ({
    file,
    statement: (m[0] as string).replace(/\s+/g, " "),
    specifier: m[2] as string,
  }));
}

function importsOf(files: readonly string[]): Import[] {
  return files.flatMap((path) => importsOfText(relative(root, path), readFileSync(path, "utf8")));
}

const clientImports = (): Import[] => importsOf(sourceFiles(join(root, "client")));

/** A client import of the server that is not the wire contract. */
function serverOffenders(imports: readonly Import[]): string[] {
  return imports
    .filter((i) => i.specifier.startsWith("@rlm-plan/language-server") && i.specifier !== PROTOCOL)
    .map((i) => `${i.file}: ${i.statement}`);
}

/** A run-time import of the wire contract that is neither the protocol library nor a type. */
function protocolOffenders(imports: readonly Import[]): string[] {
  return imports
    .filter((i) => i.specifier !== "vscode-languageserver-protocol" && !/^(import|export) type\b/.test(i.statement))
    .map((i) => `${i.file}: ${i.statement}`);
}

test("the scan sees the client's sources, recursively, the webview included", () => {
  const files = sourceFiles(join(root, "client")).map((path) => relative(root, path).split("\\").join("/"));
  for (const expected of ["client/src/extension.ts", "client/src/graph/graphPanel.ts"])
    assert.ok(files.includes(expected), expected);
  assert.ok(
    files.some((file) => file.startsWith("client/webview/")),
    "client/webview is scanned",
  );
  assert.ok(clientImports().some((i) => i.specifier === "vscode"));
});

test("the scans fail on a planted offender", () => {
  const planted = importsOfText(
    "client/src/x.ts",
    'import { analyze } from "@rlm-plan/language-server/service/analyzedPlan";\nimport { RunCommand } from "@rlm-plan/language-server/protocol";\n',
  );
  assert.deepEqual(serverOffenders(planted), [
    'client/src/x.ts: import { analyze } from "@rlm-plan/language-server/service/analyzedPlan";',
  ]);
  const protocol = importsOfText(
    "server/src/protocol.ts",
    'import { NotificationType } from "vscode-languageserver";\nimport type { RunEvent } from "@rlm-plan/core";\nimport { RequestType } from "vscode-languageserver-protocol";\n',
  );
  assert.deepEqual(protocolOffenders(protocol), [
    'server/src/protocol.ts: import { NotificationType } from "vscode-languageserver";',
  ]);
});

test("the client imports of the server only its wire contract", () => {
  assert.deepEqual(serverOffenders(clientImports()), []);
  assert.ok(
    clientImports().some((i) => i.specifier === PROTOCOL),
    "the client uses the shared protocol",
  );
});

test("the wire contract needs nothing at run time but vscode-languageserver-protocol", () => {
  assert.deepEqual(protocolOffenders(importsOf([join(root, "server", "src", "protocol.ts")])), []);
});

test("the client keeps no mirror of the wire contract", () => {
  assert.equal(existsSync(join(root, "client", "src", "serverProtocol.ts")), false);
  const mirrors = sourceFiles(join(root, "client"))
    .filter((path) => /["']rlmPlan\/[A-Za-z]+["']|["']rlmPlan\.server\.[A-Za-z]+["']/.test(readFileSync(path, "utf8")))
    .map((path) => relative(root, path));
  assert.deepEqual(mirrors, []);
});

test("the client never imports the language server library", () => {
  const offenders = clientImports()
    .filter((i) => /^vscode-languageserver($|\/)/.test(i.specifier))
    .map((i) => `${i.file}: ${i.specifier}`);
  assert.deepEqual(offenders, []);
});
