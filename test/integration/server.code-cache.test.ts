// Loading the bundled server with V8's code cache (shared-runtime/src/codeCache.ts), in process on a
// small CommonJS file: the first load compiles and saves a cache named for the file's build;
// the next load is compiled from it; a changed file gets a new cache and the old one goes; a
// damaged cache is rejected by V8 and costs nothing but the compile; no folder means no cache.
// Whether a load came from the cache is asked of a fresh Node process each time, as a server
// start is: in one process V8 would also find the source in its own in-memory cache.

import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { requireWithCodeCache } from "@rlm-plan/core/codeCache";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-code-cache-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const file = join(dir, "bundle.js");
const cacheDir = join(dir, "cache");
// Enough functions for V8 to have something to cache; the require is relative to the file.
const source = (answer: number) =>
  `#!/usr/bin/env node\n"use strict";\nconst path = require("node:path");\n` +
  Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join("\n") +
  `\nmodule.exports = { answer: f0(${answer}), name: path.basename(__filename), dir: __dirname };\n`;

/** Loads the file in a new Node process, saves the cache there, and says what happened. */
function loadInChild(cache: string | undefined): { fromCache: boolean; exports: unknown } {
  const script = `const { requireWithCodeCache } = require(${JSON.stringify(require.resolve("@rlm-plan/core/codeCache"))});
    const load = requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cache)});
    load.saveCache();
    process.stdout.write(JSON.stringify({ fromCache: load.fromCache, exports: load.exports }));`;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as {
    fromCache: boolean;
    exports: unknown;
  };
}

const caches = () => readdirSync(cacheDir).filter((name) => name.endsWith(".v8cache"));

test("the first load compiles and saves; the next is compiled from the cache", () => {
  writeFileSync(file, source(42));
  const first = requireWithCodeCache(file, cacheDir);
  assert.deepEqual(first.exports, { answer: 42, name: "bundle.js", dir });
  assert.equal(first.fromCache, false);
  first.saveCache();
  assert.equal(caches().length, 1);
  assert.match(caches()[0] ?? "", /^bundle\.js-[0-9a-f]{16}\.v8cache$/);
  const second = loadInChild(cacheDir);
  assert.equal(second.fromCache, true);
  assert.deepEqual(second.exports, { answer: 42, name: "bundle.js", dir });
});

test("a changed file gets a cache of its own and the old one is removed", () => {
  const before = caches();
  writeFileSync(file, source(7));
  const load = requireWithCodeCache(file, cacheDir);
  assert.equal(load.fromCache, false);
  assert.deepEqual(load.exports, { answer: 7, name: "bundle.js", dir });
  load.saveCache();
  assert.equal(caches().length, 1);
  assert.notDeepEqual(caches(), before);
  assert.equal(loadInChild(cacheDir).fromCache, true);
});

test("a damaged cache is rejected: the file still loads, and the cache is written again", () => {
  const [name] = caches();
  writeFileSync(join(cacheDir, name ?? "x"), Buffer.from("not a V8 code cache"));
  const load = loadInChild(cacheDir);
  assert.equal(load.fromCache, false);
  assert.deepEqual(load.exports, { answer: 7, name: "bundle.js", dir });
  assert.equal(loadInChild(cacheDir).fromCache, true);
});

test("without a folder nothing is cached; a folder that cannot be written is skipped", () => {
  const plain = requireWithCodeCache(file, undefined);
  assert.equal(plain.fromCache, false);
  plain.saveCache();
  const blocked = join(dir, "a-file");
  writeFileSync(blocked, "");
  const load = requireWithCodeCache(file, join(blocked, "cache"));
  assert.deepEqual(load.exports, { answer: 7, name: "bundle.js", dir });
  assert.doesNotThrow(() => load.saveCache());
});

test("an entry made from another source of the same size and time is not used", () => {
  writeFileSync(file, source(3));
  const first = requireWithCodeCache(file, cacheDir);
  first.saveCache();
  assert.equal(loadInChild(cacheDir).fromCache, true);
  const { mtime } = statSync(file);
  // Same length, same modification time (a copy that kept its time, an archive's fixed dates).
  writeFileSync(file, source(4));
  utimesSync(file, mtime, mtime);
  const load = loadInChild(cacheDir);
  assert.equal(load.fromCache, false);
  assert.deepEqual(load.exports, { answer: 4, name: "bundle.js", dir });
});

test("each variant keeps an entry of its own; a new build removes every variant's old entry", () => {
  writeFileSync(file, source(5));
  for (const variant of ["check", "run"]) requireWithCodeCache(file, cacheDir, variant).saveCache();
  const named = () => caches().map((name) => name.replace(/-[0-9a-f]{16}\./, "-KEY."));
  assert.deepEqual(named().sort(), ["bundle.js-KEY.check.v8cache", "bundle.js-KEY.run.v8cache"]);
  // Each is used by its own variant, in a fresh process.
  const script = (variant: string) =>
    `const { requireWithCodeCache } = require(${JSON.stringify(require.resolve("@rlm-plan/core/codeCache"))});
     process.stdout.write(String(requireWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)}, "${variant}").fromCache));`;
  for (const variant of ["check", "run"])
    assert.equal(execFileSync(process.execPath, ["-e", script(variant)], { encoding: "utf8" }), "true");
  writeFileSync(file, source(6));
  requireWithCodeCache(file, cacheDir, "run").saveCache();
  assert.deepEqual(named(), ["bundle.js-KEY.run.v8cache"]);
});
