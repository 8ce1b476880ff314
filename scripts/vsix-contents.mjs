// What a .vsix holds, read from its zip directory, and whether it is whole: every file the
// manifest (package.json) points at is in it, no source map ships, and the whole file stays within
// its size budget. `npm run package` ends with this check, so a package that breaks a rule fails the
// build; test/integration/vsix.contents.test.ts packs one and holds the same rules and the exact list.
//
//   node scripts/vsix-contents.mjs rlm-plan.vsix
//   node scripts/vsix-contents.mjs --sqlite-addon rlm-plan-node20.vsix   (npm run package:node20)
//
// The budget counts the whole file's bytes (what a download costs). The run journal's native SQLite
// addon (dist/node_modules/better-sqlite3/) is no part of `npm run package`'s .vsix: its hosts have
// node:sqlite (journal/sqlite.ts, sqliteBackend). Only the package for hosts on Node 20 carries
// it, by choice (`--sqlite-addon`): that one may pass the budget by the addon's own ceiling.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Bytes of the whole .vsix. */
export const BUDGET_BYTES = 2 * 1000 * 1000;
/** Compressed bytes of the native SQLite addon, in a `--sqlite-addon` package (a rebuild that doubled it would show here). */
export const ADDON_CEILING_BYTES = 1.25 * 1024 * 1024;
const ADDON = /^extension\/dist\/node_modules\//;

/** The zip's entries from its central directory: name, compressed and uncompressed size. */
export function zipEntries(bytes) {
  // The end-of-central-directory record: its signature within the last 64 KiB + 22 bytes.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65557); i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error("not a zip file: no end of central directory");
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry at byte ${at}`);
    const compressed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const name = bytes.toString("utf8", at + 46, at + 46 + nameLength);
    entries.push({ name, compressed, size });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Every file of the extension the manifest names, as the .vsix path `extension/...`. */
export function manifestFiles(manifest) {
  const c = manifest.contributes ?? {};
  const files = [
    manifest.main,
    manifest.icon,
    ...(c.languages ?? []).map((l) => l.configuration),
    ...(c.grammars ?? []).map((g) => g.path),
    ...(c.snippets ?? []).map((s) => s.path),
    ...(c.jsonValidation ?? []).map((v) => v.url),
  ].filter((file) => typeof file === "string" && !/^[a-z]+:/i.test(file));
  return [...new Set(files.map((file) => `extension/${file.replace(/^\.\//, "")}`))];
}

/** What is wrong with a .vsix (none: it is whole), and its figures. */
export function checkVsix(vsixBytes, manifest, { budget = BUDGET_BYTES, sqliteAddon = false } = {}) {
  const entries = zipEntries(vsixBytes);
  const names = new Set(entries.map((e) => e.name));
  const problems = [];
  for (const file of manifestFiles(manifest))
    if (!names.has(file))
      problems.push(`package.json points at ${file.slice("extension/".length)}, which is not in it`);
  for (const e of entries) if (e.name.endsWith(".map")) problems.push(`a source map ships: ${e.name}`);
  const addon = entries.filter((e) => ADDON.test(e.name)).reduce((sum, e) => sum + e.compressed, 0);
  const total = vsixBytes.length;
  if (!sqliteAddon && addon > 0)
    problems.push("the SQLite addon ships (dist/node_modules/), which only a --sqlite-addon package carries");
  if (sqliteAddon && addon === 0) problems.push("the SQLite addon is missing from a --sqlite-addon package");
  if (addon > ADDON_CEILING_BYTES)
    problems.push(`the SQLite addon takes ${mb(addon)} compressed, over its ceiling of ${mb(ADDON_CEILING_BYTES)}`);
  const limit = sqliteAddon ? budget + ADDON_CEILING_BYTES : budget;
  if (total > limit) problems.push(`the package takes ${mb(total)}, over its budget of ${mb(limit)}`);
  return { problems, entries, addon, total, limit };
}

/** Megabytes (10^6 bytes, as the budget is written), two decimals. */
export function mb(bytes) {
  return `${(bytes / 1000 / 1000).toFixed(2)} MB`;
}

function main(file, sqliteAddon) {
  const root = join(fileURLToPath(import.meta.url), "..", "..");
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const { problems, entries, addon, total, limit } = checkVsix(readFileSync(file), manifest, { sqliteAddon });
  console.log(
    `vsix: ${file}: ${entries.length} files, ${mb(total)} of a budget of ${mb(limit)}` +
      (sqliteAddon ? `, the SQLite addon ${mb(addon)} of it` : ""),
  );
  for (const problem of problems) console.error(`vsix: ${problem}`);
  if (problems.length > 0) process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const sqliteAddon = args.includes("--sqlite-addon");
  const files = args.filter((arg) => arg !== "--sqlite-addon");
  if (files.length !== 1 || files[0].startsWith("-")) {
    console.error("usage: node scripts/vsix-contents.mjs [--sqlite-addon] FILE.vsix");
    process.exit(2);
  }
  main(files[0], sqliteAddon);
}
