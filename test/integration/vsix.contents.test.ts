// The .vsix is whole (issue 34, item 6): packed as `npm run package` packs it (scripts/bundle.mjs,
// then vsce with the repository's .vscodeignore), but in a staging copy, so the repository's dist/
// and rlm-plan.vsix are left alone. Its files are listed exactly: the six schemas package.json
// points at are in (the test-file and cassette schemas were left out, so those files had no
// schema in VS Code), no source map ships (2.2 MB did), no SQLite addon ships (its hosts run the
// journal on node:sqlite: 1.06 MB of the 2.54 MB it was), and the whole file is within the budget
// that `npm run package` enforces (scripts/vsix-contents.mjs). A file the package gains or loses
// fails here and has to be named. The same staging packed again with the addon is
// `npm run package:node20`'s package, for extension hosts on Node 20.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { REPOSITORY_ROOT } from "../support/bundleScript";

const execFileP = promisify(execFile);

interface Entry {
  readonly name: string;
  readonly compressed: number;
  readonly size: number;
}
interface VsixContents {
  BUDGET_BYTES: number;
  checkVsix(
    bytes: Buffer,
    manifest: unknown,
    options?: { budget?: number; sqliteAddon?: boolean },
  ): { problems: string[]; entries: Entry[]; addon: number; total: number; limit: number };
  zipEntries(bytes: Buffer): Entry[];
}

/** What the package holds: no dist/node_modules/, the journal's SQLite being the host's node:sqlite. */
const FILES = [
  "[Content_Types].xml",
  "extension.vsixmanifest",
  "extension/LICENSE.txt",
  "extension/dist/compareView.js",
  "extension/dist/debugAdapter.js",
  "extension/dist/extension.js",
  "extension/dist/extensionStart.js",
  "extension/dist/graphLayout.js",
  "extension/dist/graphView.js",
  "extension/dist/mcp-sdk.js",
  "extension/dist/server.js",
  "extension/dist/serverStart.js",
  "extension/dist/supervisor.js",
  "extension/dist/telemetry.js",
  "extension/images/icon.png",
  "extension/language-configuration.json",
  "extension/package.json",
  "extension/readme.md",
  "extension/shared-runtime/schemas/cassette.schema.json",
  "extension/shared-runtime/schemas/host-profile.schema.json",
  "extension/shared-runtime/schemas/mocks.schema.json",
  "extension/shared-runtime/schemas/plan-baseline.schema.json",
  "extension/shared-runtime/schemas/plan-test.schema.json",
  "extension/shared-runtime/schemas/plan.schema.json",
  "extension/snippets/rlm-plan.code-snippets",
  "extension/syntaxes/rlm-plan.tmLanguage.json",
];
const ADDON_FILES = [
  "extension/dist/node_modules/better-sqlite3/LICENSE",
  "extension/dist/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
  "extension/dist/node_modules/better-sqlite3/package.json",
  "extension/dist/node_modules/bindings/LICENSE.md",
  "extension/dist/node_modules/bindings/bindings.js",
  "extension/dist/node_modules/bindings/package.json",
  "extension/dist/node_modules/file-uri-to-path/LICENSE",
  "extension/dist/node_modules/file-uri-to-path/index.js",
  "extension/dist/node_modules/file-uri-to-path/package.json",
];
const SQLITE_LIB = "extension/dist/node_modules/better-sqlite3/lib/";

const stage = mkdtempSync(join(tmpdir(), "rlm-plan-vsix-"));
let contents: VsixContents;
let vsix: Buffer;
let vsixNode20: Buffer;
let manifest: unknown;

before(async () => {
  contents = (await import(pathToFileURL(join(REPOSITORY_ROOT, "scripts", "vsix-contents.mjs")).href)) as VsixContents;
  // What vsce sees in the repository, minus dist/ (bundled below) and the rest it would ignore.
  const copied = [
    "package.json",
    ".vscodeignore",
    "LICENSE",
    "language-configuration.json",
    "syntaxes",
    "snippets",
    "images",
    "shared-runtime/schemas",
    "client/README.md",
  ];
  for (const path of copied) cpSync(join(REPOSITORY_ROOT, path), join(stage, path), { recursive: true });
  const node = process.execPath;
  await execFileP(node, [join(REPOSITORY_ROOT, "scripts", "bundle.mjs"), "--out", join(stage, "dist")], {
    cwd: REPOSITORY_ROOT,
  });
  const vsce = join(REPOSITORY_ROOT, "node_modules", "@vscode", "vsce", "vsce");
  const pack = async (file: string): Promise<Buffer> => {
    await execFileP(
      node,
      [
        vsce,
        "package",
        "--no-dependencies",
        "--allow-missing-repository",
        "--readme-path",
        "client/README.md",
        "-o",
        file,
      ],
      { cwd: stage },
    );
    return readFileSync(join(stage, file));
  };
  vsix = await pack("test.vsix");
  // npm run package:node20's package: the same bundles, with the addon copied beside them.
  const bundler = (await import(pathToFileURL(join(REPOSITORY_ROOT, "scripts", "bundle.mjs")).href)) as {
    copyJournalAddon(dist: string): void;
  };
  bundler.copyJournalAddon(join(stage, "dist"));
  vsixNode20 = await pack("test-node20.vsix");
  manifest = JSON.parse(readFileSync(join(REPOSITORY_ROOT, "package.json"), "utf8"));
});

after(() => rmSync(stage, { recursive: true, force: true }));

test("the .vsix lists exactly the extension's files: the five schemas, the bundles, no source map, no SQLite addon", () => {
  const names = contents.zipEntries(vsix).map((e) => e.name);
  assert.deepEqual(names.sort(), FILES);
});

test("the whole .vsix is within the budget of 2 MB, and passes the package's own check", () => {
  assert.equal(contents.BUDGET_BYTES, 2_000_000);
  const { problems, total, limit } = contents.checkVsix(vsix, manifest);
  assert.deepEqual(problems, []);
  assert.equal(total, vsix.length);
  assert.equal(limit, 2_000_000);
  assert.ok(vsix.length <= 2_000_000, `${vsix.length} bytes`);
});

test("the check fails a package that points at a file it lacks, or passes its budget", () => {
  // The same package against a manifest naming one more schema, and against a budget of its size less one.
  const more = structuredClone(manifest) as { contributes: { jsonValidation: { url: string }[] } };
  more.contributes.jsonValidation.push({ url: "./shared-runtime/schemas/missing.schema.json" });
  assert.deepEqual(contents.checkVsix(vsix, more).problems, [
    "package.json points at shared-runtime/schemas/missing.schema.json, which is not in it",
  ]);
  const over = contents.checkVsix(vsix, manifest, { budget: vsix.length - 1 }).problems;
  assert.equal(over.length, 1);
  assert.match(over[0] ?? "", /^the package takes \d+\.\d\d MB, over its budget of \d+\.\d\d MB$/);
});

test("npm run package:node20's package carries the addon, within the budget plus the addon's ceiling", () => {
  const names = contents.zipEntries(vsixNode20).map((e) => e.name);
  assert.deepEqual(names.filter((name) => !name.startsWith(SQLITE_LIB)).sort(), [...FILES, ...ADDON_FILES].sort());
  // better-sqlite3's JavaScript (the addon's loader), however many files its version has.
  assert.ok(names.includes(`${SQLITE_LIB}index.js`));
  assert.deepEqual(contents.checkVsix(vsixNode20, manifest, { sqliteAddon: true }).problems, []);
  // Packed by `npm run package`'s check, it fails: the addon ships only by choice, and it is over 2 MB.
  const problems = contents.checkVsix(vsixNode20, manifest).problems;
  assert.equal(problems.length, 2, problems.join("\n"));
  assert.equal(problems[0], "the SQLite addon ships (dist/node_modules/), which only a --sqlite-addon package carries");
  assert.match(problems[1] ?? "", /^the package takes \d+\.\d\d MB, over its budget of 2\.00 MB$/);
  // And a --sqlite-addon check of the package without it says the addon is missing.
  assert.deepEqual(contents.checkVsix(vsix, manifest, { sqliteAddon: true }).problems, [
    "the SQLite addon is missing from a --sqlite-addon package",
  ]);
});
