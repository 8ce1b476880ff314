// Runs a bundled CommonJS file with V8's code cache. The language server's bundle is most of its
// start-up: compiling it again on every start is work the editor waits for. Node 22 can keep a
// compile cache itself (module.enableCompileCache), but the Node inside VS Code 1.96's extension
// host is 20, so the file is compiled here with vm.Script and the cache V8 produces is kept in a
// folder the extension owns. V8 checks a cache against the source and its own version and flags
// and rejects one that does not fit; a rejected, missing or unreadable cache only costs the
// compile it would have saved, and a cache that cannot be written is skipped.

import { createHash } from "node:crypto";
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
  return `${basename(file)}-${createHash("sha256").update(source).digest("hex").slice(0, 16)}.v8cache`;
}

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(dir: string, file: string, data: Buffer): void {
  mkdirSync(dir, { recursive: true });
  const prefix = basename(file).replace(/-[0-9a-f]{16}\.v8cache$/, "-");
  for (const old of readdirSync(dir))
    if (old.startsWith(prefix) && old.endsWith(".v8cache") && old !== basename(file))
      rmSync(join(dir, old), { force: true });
  // Written aside and renamed: two servers starting at once never read half a cache.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}
