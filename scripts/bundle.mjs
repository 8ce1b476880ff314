// Bundles the extension for VS Code: the client (client/out/extension.js, with
// vscode-languageclient and the runtime functions it uses) into dist/extension.js, and the
// language server with the whole runtime (ajv and the host-profile schema inlined) into
// dist/server.js, the debug adapter (run as its own Node process) into dist/debugAdapter.js, and
// the plan graph's webview script (for the browser) into dist/graphView.js with its layout engine
// beside it (dist/graphLayout.js, loaded when needed), the MCP SDK
// (loaded on first use) into dist/mcp-sdk.js, and OpenTelemetry (loaded only for a run that
// exports a trace) into dist/telemetry.js.
// All but the webview script are CommonJS for Node; `vscode` is provided by VS Code at run time.
// Run after `npm run build` (it bundles the compiled JavaScript).
//
// Every bundle is minified with a linked source map (`dist/<name>.js.map`, chained through tsc's
// maps to the TypeScript sources) and keeps its function and class names, so a stack trace stays
// readable as it is and maps back to the sources (the server runs with --enable-source-maps).
// Each bundle's esbuild metafile is written as `dist/<name>.meta.json`: what went into it (a test
// holds the client bundle free of the runtime's validator and of ajv).
//
//   node scripts/bundle.mjs          # for the .vsix
//   node scripts/bundle.mjs --dev    # not minified, with source contents in the maps (F5)
//   node scripts/bundle.mjs --out DIR   # into DIR instead of dist/ (the .vsix test packs a copy)
//   node scripts/bundle.mjs --sqlite-addon   # with better-sqlite3 in dist/node_modules (npm run package:node20)

import { build } from "esbuild";
import { cpSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");

// The plan graph's webview script runs in the browser: elkjs (the layout engine) is bundled
// there, never into the extension host.
const MCP_SDK_MODULE = "shared-runtime/out/host/mcp/sdk.js";
const TELEMETRY_MODULE = "shared-runtime/out/telemetry/runTrace.js";

export const entries = [
  { in: "client/out/extension.js", out: "dist/extension.js" },
  // The extension's main: dist/extension.js loaded with V8's code cache (client/src/extensionStart.ts).
  { in: "client/out/extensionStart.js", out: "dist/extensionStart.js" },
  { in: "server/out/lsp/main.js", out: "dist/server.js" },
  // What the extension starts: dist/server.js run with V8's code cache (shared-runtime/src/codeCache.ts).
  { in: "server/out/lsp/bundleStart.js", out: "dist/serverStart.js" },
  { in: "debug-adapter/out/main.js", out: "dist/debugAdapter.js" },
  // Command tools run under it; the runtime finds it beside itself (host/commandTool.ts).
  { in: "shared-runtime/out/host/supervisor.js", out: "dist/supervisor.js" },
  { in: "client/webview/out/webview/src/graphView.js", out: "dist/graphView.js", browser: true },
  // The "Compare Runs" page: the same renderer and layout as the graph view, beside a diff table.
  { in: "client/webview/out/webview/src/compareView.js", out: "dist/compareView.js", browser: true },
  // elkjs for the webview, as the global ELK: the page loads it only for a layout that needs it
  // (graph/layout.ts), so the view starts without parsing its 1.5 MiB.
  { in: "node_modules/elkjs/lib/elk.bundled.js", out: "dist/graphLayout.js", browser: true, global: "ELK" },
  // The MCP SDK (with zod, most of its weight) in a file of its own, required on first use.
  { in: MCP_SDK_MODULE, out: "dist/mcp-sdk.js" },
  // The run trace with its four OpenTelemetry packages, required by the session only when a
  // profile (or the user) asks for telemetry.
  { in: TELEMETRY_MODULE, out: "dist/telemetry.js" },
];

/**
 * The runtime requires the MCP SDK lazily (host/mcp/lazySdk.ts); in the bundles that require
 * becomes one of dist/mcp-sdk.js, so that starting the language server or the debug adapter
 * never parses the SDK: about half of the server's bundle, needed only by profiles with MCP servers.
 */
const lazyMcpSdk = {
  name: "lazy-mcp-sdk",
  setup(build) {
    build.onResolve({ filter: /^\.\/sdk$/ }, (args) =>
      /shared-runtime[\\/]out[\\/]host[\\/]mcp$/.test(args.resolveDir)
        ? { path: "./mcp-sdk.js", external: true }
        : undefined,
    );
  },
};

/**
 * The session requires the run trace (and with it OpenTelemetry) only for a run that exports one
 * (session/runLife.ts); in the bundles that require becomes one of dist/telemetry.js, so the
 * server and the adapter neither parse nor ship OpenTelemetry twice.
 */
const lazyTelemetry = {
  name: "lazy-telemetry",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/telemetry\/runTrace$/ }, (args) =>
      /shared-runtime[\\/]out[\\/]session$/.test(args.resolveDir)
        ? { path: "./telemetry.js", external: true }
        : undefined,
    );
  },
};

/** esbuild's options for one entry (the bundle test builds the client with these too). */
export function bundleOptions(entry, { dev = false } = {}) {
  return {
    absWorkingDir: root,
    entryPoints: [entry.in],
    outfile: entry.out,
    bundle: true,
    platform: entry.browser ? "browser" : "node",
    format: entry.browser ? "iife" : "cjs",
    target: entry.browser ? "chrome120" : "node20",
    // better-sqlite3 is a native addon, loaded on first use from node_modules (journal/sqlite.ts).
    // The webview's elkjs is dist/graphLayout.js, which its page loads when needed.
    external: ["vscode", "better-sqlite3", ...(entry.browser ? ["elkjs/lib/elk.bundled.js"] : [])],
    ...(entry.global ? { globalName: entry.global } : {}),
    // jsonc-parser's "main" is a UMD build whose requires esbuild cannot follow; its ES build bundles.
    mainFields: ["module", "main"],
    sourcemap: "linked",
    sourcesContent: dev,
    minify: !dev,
    keepNames: true,
    logLevel: "warning",
    metafile: true,
    plugins:
      entry.browser || entry.in === MCP_SDK_MODULE || entry.in === TELEMETRY_MODULE ? [] : [lazyMcpSdk, lazyTelemetry],
  };
}

async function main() {
  const dev = process.argv.includes("--dev");
  const outAt = process.argv.indexOf("--out");
  const dist = outAt > 0 ? resolve(process.argv[outAt + 1] ?? "") : join(root, "dist");
  for (const entry of entries) {
    if (!existsSync(join(root, entry.in))) {
      console.error(`bundle: ${entry.in} is missing; run \`npm run build\` first`);
      process.exit(1);
    }
  }
  rmSync(dist, { recursive: true, force: true });
  for (const entry of entries) {
    const outfile = join(dist, basename(entry.out));
    const result = await build({ ...bundleOptions(entry, { dev }), outfile });
    writeFileSync(outfile.replace(/\.js$/, ".meta.json"), JSON.stringify(result.metafile));
    const output = (suffix) =>
      Object.entries(result.metafile.outputs).find(([name]) => name.endsWith(basename(entry.out) + suffix))?.[1];
    const [bytes, map] = [output("")?.bytes ?? 0, output(".map")?.bytes ?? 0];
    console.log(`bundle: ${entry.out} ${(bytes / 1024).toFixed(0)} KiB (map ${(map / 1024).toFixed(0)} KiB)`);
  }
  if (process.argv.includes("--sqlite-addon")) copyJournalAddon(dist);
}

/**
 * The run journal's SQLite for an extension host on Node 20, which has no node:sqlite (journal/sqlite.ts,
 * sqliteBackend; docs/journal.md, "Which SQLite"): better-sqlite3, a native addon the bundles keep
 * external, beside them in dist/node_modules where their `require` finds it: its JavaScript, the
 * addon built for this machine's Node (so for that Node's ABI, OS and architecture only), and the
 * two small packages it loads the addon with. Only `--sqlite-addon` copies it: the .vsix of
 * `npm run package` carries none (1.06 MiB of its 2.54), since the hosts it is for run node:sqlite.
 */
export function copyJournalAddon(dist) {
  const files = {
    "better-sqlite3": ["package.json", "LICENSE", "lib", "build/Release/better_sqlite3.node"],
    bindings: ["package.json", "LICENSE.md", "bindings.js"],
    "file-uri-to-path": ["package.json", "LICENSE", "index.js"],
  };
  for (const [name, parts] of Object.entries(files))
    for (const part of parts)
      cpSync(join(root, "node_modules", name, part), join(dist, "node_modules", name, part), { recursive: true });
  console.log("bundle: dist/node_modules/better-sqlite3 (the run journal's SQLite)");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
