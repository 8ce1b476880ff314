// The .vsix is whole (issue 34, item 6): packed as `npm run package` packs it (scripts/bundle.mjs,
// then vsce with the repository's .vscodeignore), but in a staging copy, so the repository's dist/
// and rlm-plan.vsix are left alone. Its files are listed exactly: the five schemas package.json
// points at are in (the test-file and cassette schemas were left out, so those files had no
// schema in VS Code), no source map ships (2.2 MB did), and its size is within the budget that
// `npm run package` enforces (scripts/vsix-contents.mjs). A file the package gains or loses fails
// here and has to be named.

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
    options?: { budget?: number },
  ): { problems: string[]; entries: Entry[]; own: number; addon: number; total: number };
  zipEntries(bytes: Buffer): Entry[];
}

/** What the package holds besides the journal addon's lib/ (listed by count below). */
const FILES = [
  "[Content_Types].xml",
  "extension.vsixmanifest",
  "extension/LICENSE.txt",
  "extension/dist/debugAdapter.js",
  "extension/dist/extension.js",
  "extension/dist/extensionStart.js",
  "extension/dist/graphLayout.js",
  "extension/dist/graphView.js",
  "extension/dist/mcp-sdk.js",
  "extension/dist/node_modules/better-sqlite3/LICENSE",
  "extension/dist/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
  "extension/dist/node_modules/better-sqlite3/package.json",
  "extension/dist/node_modules/bindings/LICENSE.md",
  "extension/dist/node_modules/bindings/bindings.js",
  "extension/dist/node_modules/bindings/package.json",
  "extension/dist/node_modules/file-uri-to-path/LICENSE",
  "extension/dist/node_modules/file-uri-to-path/index.js",
  "extension/dist/node_modules/file-uri-to-path/package.json",
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
  "extension/shared-runtime/schemas/plan-test.schema.json",
  "extension/shared-runtime/schemas/plan.schema.json",
  "extension/snippets/rlm-plan.code-snippets",
  "extension/syntaxes/rlm-plan.tmLanguage.json",
];
const SQLITE_LIB = "extension/dist/node_modules/better-sqlite3/lib/";

const stage = mkdtempSync(join(tmpdir(), "rlm-plan-vsix-"));
let contents: VsixContents;
let vsix: Buffer;
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
      "test.vsix",
    ],
    { cwd: stage },
  );
  vsix = readFileSync(join(stage, "test.vsix"));
  manifest = JSON.parse(readFileSync(join(REPOSITORY_ROOT, "package.json"), "utf8"));
});

after(() => rmSync(stage, { recursive: true, force: true }));

test("the .vsix lists exactly the extension's files: the five schemas, the bundles, no source map", () => {
  const names = contents.zipEntries(vsix).map((e) => e.name);
  assert.deepEqual(names.filter((name) => !name.startsWith(SQLITE_LIB)).sort(), FILES);
  // better-sqlite3's JavaScript (the addon's loader), however many files its version has.
  assert.ok(names.some((name) => name === `${SQLITE_LIB}index.js`));
  assert.deepEqual(
    names.filter((name) => name.endsWith(".map")),
    [],
  );
});

test("the .vsix passes the package's own check: whole, no maps, within its size budget", () => {
  const { problems, own } = contents.checkVsix(vsix, manifest);
  assert.deepEqual(problems, []);
  assert.ok(own <= contents.BUDGET_BYTES, `${own} bytes`);
});

test("the check fails a package that points at a file it lacks, or passes its budget", () => {
  // The same package against a manifest naming one more schema, and against a budget of its size less one.
  const more = structuredClone(manifest) as { contributes: { jsonValidation: { url: string }[] } };
  more.contributes.jsonValidation.push({ url: "./shared-runtime/schemas/missing.schema.json" });
  assert.deepEqual(contents.checkVsix(vsix, more).problems, [
    "package.json points at shared-runtime/schemas/missing.schema.json, which is not in it",
  ]);
  const { own } = contents.checkVsix(vsix, manifest);
  const over = contents.checkVsix(vsix, manifest, { budget: own - 1 }).problems;
  assert.equal(over.length, 1);
  assert.match(over[0] ?? "", /^its own files take \d+\.\d\d MiB compressed, over the budget of \d+\.\d\d MiB$/);
});
