// Bundles the extension for VS Code: the client (client/out/extension.js, with
// vscode-languageclient and the runtime functions it uses) into dist/extension.js, and the
// language server with the whole runtime (ajv and the host-profile schema inlined) into
// dist/server.js, the debug adapter (run as its own Node process) into dist/debugAdapter.js, and
// the plan graph's webview script (for the browser) into dist/graphView.js.
// All but the webview script are CommonJS for Node; `vscode` is provided by VS Code at run time.
// Run after `npm run build` (it bundles the compiled JavaScript).
//
//   node scripts/bundle.mjs          # for the .vsix: no source maps
//   node scripts/bundle.mjs --dev    # with source maps, for debugging (F5)

import { build } from "esbuild";
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dev = process.argv.includes("--dev");

// The plan graph's webview script runs in the browser: elkjs (the layout engine) is bundled
// there, never into the extension host.
const entries = [
  { in: "client/out/extension.js", out: "dist/extension.js" },
  { in: "server/out/lsp/main.js", out: "dist/server.js" },
  { in: "debug-adapter/out/main.js", out: "dist/debugAdapter.js" },
  // Command tools run under it; the runtime finds it beside itself (host/commandTool.ts).
  { in: "shared-runtime/out/host/supervisor.js", out: "dist/supervisor.js" },
  { in: "client/webview/out/webview/src/graphView.js", out: "dist/graphView.js", browser: true },
];
for (const entry of entries) {
  if (!existsSync(join(root, entry.in))) {
    console.error(`bundle: ${entry.in} is missing; run \`npm run build\` first`);
    process.exit(1);
  }
}

rmSync(join(root, "dist"), { recursive: true, force: true });
for (const entry of entries) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry.in],
    outfile: entry.out,
    bundle: true,
    platform: entry.browser ? "browser" : "node",
    format: entry.browser ? "iife" : "cjs",
    target: entry.browser ? "chrome120" : "node20",
    external: ["vscode"],
    // jsonc-parser's "main" is a UMD build whose requires esbuild cannot follow; its ES build bundles.
    mainFields: ["module", "main"],
    sourcemap: dev,
    minify: false,
    logLevel: "warning",
    metafile: true,
  });
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  console.log(`bundle: ${entry.out} ${(bytes / 1024).toFixed(0)} KiB${dev ? " (with source maps)" : ""}`);
}
