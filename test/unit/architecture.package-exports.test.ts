// Holds the package boundary of ARCHITECTURE.md: code reaches another package of the repository only
// by its npm name and the subpaths its exports map declares, never its out/ or src/ folder.

import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");

/** The workspace packages: folder -> npm name. The CLI is `rlm-plan`, the extension's name too (the root,
 * never a dependency of anything). */
const PACKAGES: Record<string, string> = {
  "shared-runtime": "@rlm-plan/core",
  cli: "rlm-plan",
  server: "@rlm-plan/language-server",
  "debug-adapter": "@rlm-plan/debug-adapter",
  client: "rlm-plan-client",
  "test/support/lsp": "@rlm-plan/lsp-harness",
};

/** A specifier naming a package of the repository: @rlm-plan/*, the CLI (rlm-plan) or rlm-plan-client. */
const REPOSITORY_PACKAGE = /^(@rlm-plan\/[^/]+|rlm-plan|rlm-plan-client)(\/|$)/;
/** ... followed by its build or source folder. */
const INTO_BUILD_OR_SOURCES = /^(@rlm-plan\/[^/]+|rlm-plan|rlm-plan-client)\/(out|src)(\/|$)/;

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
      .filter((specifier) => INTO_BUILD_OR_SOURCES.test(specifier))
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
      .filter((specifier) => REPOSITORY_PACKAGE.test(specifier))
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

test("the repository-package patterns tell the CLI from the extension's client", () => {
  for (const specifier of ["rlm-plan", "rlm-plan/args", "rlm-plan-client/runLog", "@rlm-plan/core/plan/parse"])
    assert.match(specifier, REPOSITORY_PACKAGE);
  for (const specifier of [
    "rlm-plan/out/main",
    "rlm-plan/src/args",
    "@rlm-plan/core/out/json",
    "rlm-plan-client/out/x",
  ])
    assert.match(specifier, INTO_BUILD_OR_SOURCES);
  for (const specifier of ["rlm-planner", "rlm-plan-server/x", "./rlm-plan/out"])
    assert.doesNotMatch(specifier, REPOSITORY_PACKAGE);
});

interface Manifest {
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  exports: Record<string, Target>;
}

function manifestOf(dir: string): Manifest {
  return JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as Manifest;
}

test("the CLI is its own package: the core has no bin and no CLI code, the rlm-plan bin is cli/'s", () => {
  const core = manifestOf("shared-runtime");
  assert.equal(core.bin, undefined);
  assert.deepEqual(
    Object.keys(core.exports).filter((subpath) => /cli|conformance/.test(subpath)),
    [],
  );
  assert.equal(existsSync(join(root, "shared-runtime", "src", "cli")), false);
  assert.equal(existsSync(join(root, "shared-runtime", "src", "conformance")), false);
  const cli = manifestOf("cli");
  assert.deepEqual(cli.bin, { "rlm-plan": "bin/rlm-plan.js" });
  assert.equal(cli.dependencies?.["@rlm-plan/core"], "*");
  const requireHere = createRequire(__filename);
  assert.equal(requireHere.resolve("rlm-plan/args"), join(root, "cli", "out", "args.js"));
  assert.equal(requireHere.resolve("rlm-plan"), join(root, "cli", "out", "main.js"));
  assert.throws(() => requireHere.resolve("@rlm-plan/core/cli/args"), { code: "ERR_PACKAGE_PATH_NOT_EXPORTED" });
});

test("neither the language server nor the debug adapter depends on the CLI package", () => {
  for (const dir of ["server", "debug-adapter", "client"]) {
    assert.equal(manifestOf(dir).dependencies?.["rlm-plan"], undefined, dir);
    const offenders = SCANNED.filter((file) => packageOf(file) === dir).flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => /^rlm-plan(\/|$)/.test(specifier))
        .map((specifier) => `${relative(root, file)} imports ${specifier}`),
    );
    assert.deepEqual(offenders, [], dir);
  }
});
