// Holds the client's boundary (ARCHITECTURE.md): the VS Code extension imports nothing of the
// server at run time. Its one link to the server is the custom protocol's types, imported with
// `import type` from server/src/protocol.ts, which leave nothing in the bundle.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const clientSources = join(__dirname, "..", "..", "..", "client", "src");

function imports(): { file: string; statement: string; specifier: string }[] {
  return readdirSync(clientSources)
    .filter((name) => name.endsWith(".ts"))
    .flatMap((name) => {
      const text = readFileSync(join(clientSources, name), "utf8");
      return [...text.matchAll(/^(import|export)\b[^;]*?from\s+["']([^"']+)["'];?$/gms)].map((m) => ({
        file: name,
        statement: (m[0] as string).replace(/\s+/g, " "),
        specifier: m[2] as string,
      }));
    });
}

test("the scan sees the client's sources", () => {
  assert.ok(existsSync(clientSources));
  assert.ok(imports().some((i) => i.specifier === "vscode"));
});

test("the client imports the server only as types of its protocol", () => {
  const offenders = imports()
    .filter((i) => i.specifier.startsWith("@rlm-plan/language-server"))
    .filter((i) => i.specifier !== "@rlm-plan/language-server/protocol" || !/^(import|export) type\b/.test(i.statement))
    .map((i) => `${i.file}: ${i.statement}`);
  assert.deepEqual(offenders, []);
});

test("the client never imports the language server library", () => {
  const offenders = imports()
    .filter((i) => /^vscode-languageserver($|\/)/.test(i.specifier))
    .map((i) => `${i.file}: ${i.specifier}`);
  assert.deepEqual(offenders, []);
});
