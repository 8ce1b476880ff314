// The extension's entry (package.json "main": dist/extensionStart.js): loads the bundled extension
// beside it (dist/extension.js, most of it the language client library) with V8's code cache,
// kept with the server's in the extension's global storage, and hands activation to it. VS Code
// compiles an extension's main file afresh in every window; this saves most of that compile in
// every window after the first (bench/README.md, issue 22 target 1, fourth pass).
// Only meaningful in dist/: the bundle is what it loads.

import { join } from "node:path";
import type * as vscode from "vscode";
import { requireWithCodeCache } from "@rlm-plan/core/codeCache";
import type * as Extension from "./extension";

/** After this long activation's functions are compiled: the cache then holds them too. */
const SAVE_AFTER_MS = 3000;

let extension: typeof Extension | undefined;

export function activate(context: vscode.ExtensionContext): ReturnType<typeof Extension.activate> {
  // createRequire(dist/extension.js) inside: VS Code gives its `require("vscode")` our API, as it
  // finds the extension by the requiring file's path.
  const load = requireWithCodeCache(
    join(__dirname, "extension.js"),
    join(context.globalStorageUri.fsPath, "code-cache"),
  );
  setTimeout(() => load.saveCache(), SAVE_AFTER_MS).unref();
  extension = load.exports as typeof Extension;
  return extension.activate(context);
}

export async function deactivate(): Promise<void> {
  await extension?.deactivate();
}
