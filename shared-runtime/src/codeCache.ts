// Runs a bundled CommonJS file with V8's code cache: the language server's bundle and the
// rlm-plan command's. A bundle is most of its program's start-up, and compiling it again on every
// start is work a user waits for. Node 22 can keep a compile cache itself
// (module.enableCompileCache), but the Node inside VS Code 1.96's extension host is 20, and so is
// ours, so the file is compiled here with vm.Script and the cache V8 produces is kept in a folder
// the program owns. An entry is used only for the very source it was made from (compared byte for
// byte: V8 checks only its own version, its flags and the source's length) and V8 rejects one that
// does not fit; a rejected, missing or unreadable cache only costs the compile it would have
// saved, and a cache that cannot be written is skipped.

import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
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

/**
 * Loads `file` as Node would load a CommonJS module, compiled with the cache in `cacheDir` if any.
 * `variant` names what this start runs (the CLI's command), when starts differ in what they run:
 * each variant keeps an entry of its own. V8 caches the functions a start compiled, so an entry
 * written by `check` lacks those a `run` needs (compiled again on every run) and one written by
 * `run` holds functions `check` would deserialize for nothing.
 */
export function requireWithCodeCache(file: string, cacheDir: string | undefined, variant?: string): CachedLoad {
  const bytes = readFileSync(file);
  // A leading #! line is not JavaScript; Node drops it itself, vm does not.
  const source = bytes.toString("utf8").replace(/^#!.*/, "");
  const cacheFile = cacheDir ? join(cacheDir, cacheName(file, bytes.length, variant)) : undefined;
  const cachedData = cacheFile ? readCache(cacheFile, bytes) : undefined;
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
        writeCache(cacheDir, file, cacheFile, bytes, script.createCachedData());
      } catch {
        // A read-only or full disk: the next start compiles, as it would without a cache.
      }
    },
  };
}

/**
 * One cache per build of the file (and variant): named for its size and modification time, so a
 * new build gets a new name and old ones are removed. The name only finds the entry; what decides
 * is the copy of the source the entry holds (readCache), since V8 itself checks no more than the
 * source's length.
 */
function cacheName(file: string, size: number, variant: string | undefined): string {
  let modified = 0;
  try {
    modified = statSync(file).mtimeMs;
  } catch {
    // Read a moment ago: the copy in the entry still decides.
  }
  const key = contentKey(`${size}:${modified}`);
  return `${basename(file)}-${key}${variant === undefined ? "" : `.${variant.replace(/[^a-z0-9-]/gi, "_")}`}.v8cache`;
}

/**
 * 64 bits of the text (two 32-bit FNV-1a lanes with different seeds), as 16 hex digits. Not
 * node:crypto: loading it was a tenth of a warm `rlm-plan check`. A key, not a defence: the
 * folder is the user's own (mode 0700).
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

// An entry: MAGIC, the source's byte length (32 bits, little-endian), the source, V8's data.
// Comparing the source byte for byte is one memcmp; hashing the megabyte of a bundle in
// JavaScript on every start took longer than compiling from the cache did.
const MAGIC = Buffer.from("rlmv8c1\n");
const HEADER = MAGIC.length + 4;

/** V8's data of the entry, when the entry holds exactly this source. */
function readCache(file: string, source: Buffer): Buffer | undefined {
  let entry: Buffer;
  try {
    entry = readFileSync(file);
  } catch {
    return undefined;
  }
  if (entry.length <= HEADER + source.length || !entry.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  if (entry.readUInt32LE(MAGIC.length) !== source.length) return undefined;
  if (!entry.subarray(HEADER, HEADER + source.length).equals(source)) return undefined;
  return entry.subarray(HEADER + source.length);
}

function writeCache(dir: string, script: string, file: string, source: Buffer, data: Buffer): void {
  // Only its owner may write it: a cache is code V8 runs.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Entries of earlier builds go, of every variant; this build's other variants stay.
  const prefix = `${basename(script)}-`;
  const build = basename(file).slice(0, prefix.length + 16);
  for (const old of readdirSync(dir))
    if (old.startsWith(prefix) && old.endsWith(".v8cache") && !old.startsWith(build))
      rmSync(join(dir, old), { force: true });
  // Written aside and renamed: two servers starting at once never read half a cache.
  const temporary = `${file}.${process.pid}.tmp`;
  const length = Buffer.alloc(4);
  length.writeUInt32LE(source.length);
  writeFileSync(temporary, Buffer.concat([MAGIC, length, source, data]));
  renameSync(temporary, file);
}
