// Loading the extension's bundle (dist/extension.js, most of it vscode-languageclient) as VS Code
// did before (a plain require: compiled afresh in every window) and as dist/extensionStart.js does
// now (requireWithCodeCache, the cache warm), each in a fresh Node process, samples interleaved:
// the CPU time of the load itself, the figure a loaded machine disturbs least. The `vscode` module
// is a stub here (VS Code's API exists only inside its extension host); the bundle's top level
// only keeps references to it. In VS Code the cache is written 3 s after activation, so it also
// holds activation's functions: what it saves there is at least this.
//
//   npm run package (or npm run build && node scripts/bundle.mjs), then
//   node bench/out/extension-load.bench.js

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..", "..");
const BUNDLE = join(ROOT, "dist/extension.js");
const CODE_CACHE = join(ROOT, "shared-runtime/out/codeCache.js");
const SAMPLES = Number(process.env.EXTENSION_LOAD_SAMPLES ?? 15);

/** Loads the bundle (argv: mode, bundle, codeCache.js, cache folder) and prints the load's CPU ms. */
const CHILD = `
const Module = require("node:module");
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "vscode" ? "vscode" : resolveFilename.call(this, request, ...rest);
};
const stub = new Proxy(function () {}, { get: () => stub, apply: () => stub, construct: () => stub });
require.cache.vscode = { id: "vscode", filename: "vscode", loaded: true, exports: stub };
const [mode, bundle, codeCache, cacheDir] = process.argv.slice(1);
const { requireWithCodeCache } = require(codeCache);
const before = process.cpuUsage();
let fromCache = false;
if (mode === "plain") require(bundle);
else {
  const load = requireWithCodeCache(bundle, cacheDir);
  fromCache = load.fromCache;
  if (mode === "write") load.saveCache();
}
const used = process.cpuUsage(before);
process.stdout.write(JSON.stringify({ ms: (used.user + used.system) / 1000, fromCache }));
`;

function load(mode: "plain" | "write" | "cached", cacheDir: string): { ms: number; fromCache: boolean } {
  const out = execFileSync(process.execPath, ["-e", CHILD, mode, BUNDLE, CODE_CACHE, cacheDir], { encoding: "utf8" });
  return JSON.parse(out) as { ms: number; fromCache: boolean };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function main(): void {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run package (or node scripts/bundle.mjs)`);
  const cacheDir = mkdtempSync(join(tmpdir(), "rlm-plan-extension-cache-"));
  try {
    load("write", cacheDir);
    const plain: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      plain.push(load("plain", cacheDir).ms);
      const warm = load("cached", cacheDir);
      if (!warm.fromCache) throw new Error("V8 rejected the code cache it had just written");
      cached.push(warm.ms);
    }
    const before = median(plain);
    const after = median(cached);
    console.log(`dist/extension.js, CPU of the load, median of ${SAMPLES} (interleaved):`);
    console.log(`  plain require (before):          ${before.toFixed(0)} ms`);
    console.log(`  code cache warm (extensionStart): ${after.toFixed(0)} ms (${(after / before).toFixed(2)}x)`);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

main();
