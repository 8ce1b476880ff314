// Holds the package boundary of ARCHITECTURE.md: code reaches another package of the repository only
// by its npm name and the subpaths its exports map declares, never its out/ or src/ folder.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");

/** The workspace packages: folder -> npm name. */
const PACKAGES: Record<string, string> = {
  "shared-runtime": "@rlm-plan/core",
  server: "@rlm-plan/language-server",
  "debug-adapter": "@rlm-plan/debug-adapter",
  client: "rlm-plan-client",
  "test/support/lsp": "@rlm-plan/lsp-harness",
};

const SKIPPED = new Set(["out", "node_modules", "dist", ".e2e", ".vscode-test", ".git"]);

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : sourceFiles(path);
    return /\.(ts|mts|cts|mjs|cjs|js)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const SCANNED = [...Object.keys(PACKAGES), "test", "bench", "scripts"].flatMap((dir) => sourceFiles(join(root, dir)));

function specifiersOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)["']([^"']+)["']/g)].map((m) => m[1] as string);
}

/** The workspace package folder that holds a path, or undefined for the repository's own folders. */
function packageOf(path: string): string | undefined {
  const rel = relative(root, path);
  return Object.keys(PACKAGES).find((dir) => rel === dir || rel.startsWith(dir + sep));
}

test("the scan sees every package and the tests", () => {
  for (const dir of [...Object.keys(PACKAGES), "test", "bench"]) {
    assert.ok(
      SCANNED.some((file) => packageOf(file) === dir || relative(root, file).startsWith(dir + sep)),
      dir,
    );
  }
  assert.ok(SCANNED.length > 200, `only ${SCANNED.length} files scanned`);
});

test("no import names another package's out/ or src/ folder", () => {
  const offenders = SCANNED.flatMap((file) =>
    specifiersOf(file)
      .filter((specifier) => /^@rlm-plan\/[^/]+\/(out|src)(\/|$)/.test(specifier))
      .map((specifier) => `${relative(root, file)} imports ${specifier}`),
  );
  assert.deepEqual(offenders, []);
});

test("no relative import crosses into another package's folder", () => {
  const offenders = SCANNED.flatMap((file) =>
    specifiersOf(file)
      .filter((specifier) => specifier.startsWith("."))
      .filter((specifier) => {
        const target = packageOf(resolve(dirname(file), specifier));
        return target !== undefined && target !== packageOf(file);
      })
      .map((specifier) => `${relative(root, file)} imports ${specifier}`),
  );
  assert.deepEqual(offenders, []);
});

test("every import of a repository package resolves through its exports map", () => {
  const unresolved = SCANNED.flatMap((file) => {
    const requireHere = createRequire(file);
    return specifiersOf(file)
      .filter((specifier) => specifier.startsWith("@rlm-plan/"))
      .filter((specifier) => {
        try {
          requireHere.resolve(specifier);
          return false;
        } catch {
          return true;
        }
      })
      .map((specifier) => `${relative(root, file)} imports ${specifier}`);
  });
  assert.deepEqual(unresolved, []);
});

type Target = string | { types?: string; default?: string };

test("each package's exports point at built files, with their types", () => {
  const missing: string[] = [];
  for (const dir of Object.keys(PACKAGES)) {
    const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as {
      name: string;
      exports?: Record<string, Target>;
    };
    assert.equal(manifest.name, PACKAGES[dir], `${dir}/package.json name`);
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (subpath.includes("*")) continue;
      const files = typeof target === "string" ? { default: target } : { default: target.default, types: target.types };
      if (typeof target !== "string" && files.types === undefined)
        missing.push(`${manifest.name} ${subpath}: no types`);
      for (const file of Object.values(files)) {
        if (file === undefined) missing.push(`${manifest.name} ${subpath}: no default`);
        else if (!existsSync(join(root, dir, file))) missing.push(`${manifest.name} ${subpath}: ${file}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test("the core's pattern subpaths cover each folder of its build", () => {
  const manifest = JSON.parse(readFileSync(join(root, "shared-runtime", "package.json"), "utf8")) as {
    exports: Record<string, Target>;
  };
  const folders = readdirSync(join(root, "shared-runtime", "src")).filter((name) =>
    statSync(join(root, "shared-runtime", "src", name)).isDirectory(),
  );
  assert.deepEqual(
    folders.filter((name) => !(`./${name}/*` in manifest.exports)),
    [],
  );
  const requireHere = createRequire(__filename);
  assert.equal(
    requireHere.resolve("@rlm-plan/core/plan/parse"),
    join(root, "shared-runtime", "out", "plan", "parse.js"),
  );
  assert.throws(() => requireHere.resolve("@rlm-plan/core/out/plan/parse"), { code: "ERR_PACKAGE_PATH_NOT_EXPORTED" });
});
