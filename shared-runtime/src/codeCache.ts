// Runs a bundled CommonJS file with V8's code cache: the language server's bundle and the
// rlm-plan command's. A bundle is most of its program's start-up, and compiling it again on every
// start is work a user waits for. Node 22 can keep a compile cache itself
// (module.enableCompileCache), but the Node inside VS Code 1.96's extension host is 20, and so is
// ours, so the file is compiled here with vm.Script and the cache V8 produces is kept in a folder
// the program owns. V8 checks a cache against the source and its own version and flags and
// rejects one that does not fit; a rejected, missing or unreadable cache only costs the compile
// it would have saved, and a cache that cannot be written is skipped.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

export interface CachedLoad {
  /** What the file exported. */
  readonly exports: unknown;
  /** Whether V8 compiled the file from a cache it accepted. */
  readonly fromCache: boolean;
  /**
   * Writes the cache (once the start-up's functions are compiled, so that it holds them too):
   * when there was none or V8 rejected it. Never throws.
   */
  saveCache(): void;
}

/** Loads `file` as Node would load a CommonJS module, compiled with the cache in `cacheDir` if any. */
export function requireWithCodeCache(file: string, cacheDir: string | undefined): CachedLoad {
  // A leading #! line is not JavaScript; Node drops it itself, vm does not.
  const source = readFileSync(file, "utf8").replace(/^#!.*/, "");
  const cacheFile = cacheDir ? join(cacheDir, cacheName(file, source)) : undefined;
  const cachedData = cacheFile ? readCache(cacheFile) : undefined;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as unknown, filename: file, id: file };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  let saved = fromCache;
  return {
    exports: module.exports,
    fromCache,
    saveCache() {
      if (saved || !cacheFile || !cacheDir) return;
      saved = true;
      try {
        writeCache(cacheDir, cacheFile, script.createCachedData());
      } catch {
        // A read-only or full disk: the next start compiles, as it would without a cache.
      }
    },
  };
}

/** One cache per content of the file: a new build gets a new name, and old ones are removed. */
function cacheName(file: string, source: string): string {
  return `${basename(file)}-${contentKey(source)}.v8cache`;
}

/**
 * 64 bits of the text (two 32-bit FNV-1a lanes with different seeds), as 16 hex digits. Not
 * node:crypto: loading it was a tenth of a warm `rlm-plan check`. A key, not a defence: the
 * folder is the user's own (mode 0700), and V8 itself rejects a cache of another source length.
 */
export function contentKey(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return ((a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0")).slice(0, 16);
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(dir: string, file: string, data: Buffer): void {
  // Only its owner may write it: a cache is code V8 runs.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const prefix = basename(file).replace(/-[0-9a-f]{16}\.v8cache$/, "-");
  for (const old of readdirSync(dir))
    if (old.startsWith(prefix) && old.endsWith(".v8cache") && old !== basename(file))
      rmSync(join(dir, old), { force: true });
  // Written aside and renamed: two servers starting at once never read half a cache.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}
