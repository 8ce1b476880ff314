// Holds the thin client (issue 11): the extension bundle asks the language server for what it
// computes of plans and host profiles, so it carries neither ajv nor the runtime's validator or
// analysis. The client is bundled here in memory with scripts/bundle.mjs's own options, and
// esbuild's metafile says which files went in.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import { build, type Metafile } from "esbuild";
import { bundleScript } from "../support/bundleScript";

async function inputsOf(out: string): Promise<string[]> {
  const script = await bundleScript();
  const result = await build({ ...script.bundleOptions(script.entry(out)), write: false, logLevel: "silent" });
  const metafile = result.metafile as Metafile;
  return Object.keys(metafile.outputs[out]?.inputs ?? {});
}

test("the extension bundle holds no ajv, no plan validator and no plan analysis", async () => {
  const inputs = await inputsOf("dist/extension.js");
  // The scan sees the bundle: the client's entry and its language client library are in it.
  assert.ok(inputs.includes("client/out/extension.js"), inputs.slice(0, 5).join(", "));
  assert.ok(inputs.some((input) => input.includes("node_modules/vscode-languageclient/")));
  const forbidden = inputs.filter(
    (input) =>
      input.includes("node_modules/ajv/") ||
      input.endsWith("shared-runtime/out/plan/validate.js") ||
      input.endsWith("shared-runtime/out/analysis.js") ||
      input.endsWith("shared-runtime/out/host/profile.js"),
  );
  assert.deepEqual(forbidden, []);
});

test("of the runtime, the extension bundle holds only dependency-free leaf modules", async () => {
  const runtime = (await inputsOf("dist/extension.js")).filter((input) => input.startsWith("shared-runtime/"));
  assert.deepEqual(runtime.sort(), [
    "shared-runtime/out/editorLeaves.js",
    "shared-runtime/out/graph/ids.js",
    "shared-runtime/out/graph/style.js",
    "shared-runtime/out/host/filename.js",
    "shared-runtime/out/mask/secretMask.js",
    "shared-runtime/out/mask/secretMatcher.js",
    "shared-runtime/out/mask/secretText.js",
    "shared-runtime/out/plan/ast.js",
    "shared-runtime/out/session/sessionMask.js",
  ]);
});

test("the extension's main holds only its loader and the code cache: the client is dist/extension.js", async () => {
  const inputs = await inputsOf("dist/extensionStart.js");
  assert.deepEqual(inputs.sort(), ["client/out/extensionStart.js", "shared-runtime/out/codeCache.js"]);
});

test("the server bundle does hold the validator: the scan would see it", async () => {
  const inputs = await inputsOf("dist/server.js");
  assert.ok(inputs.includes("shared-runtime/out/plan/validate.js"));
  assert.ok(inputs.some((input) => input.includes("node_modules/ajv/")));
});
