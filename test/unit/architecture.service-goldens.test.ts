// Holds "the service tier tests every feature that returns structured results against golden
// files": every module of server/src/service/ is imported by a golden test of test/service/ (one
// that calls goldenTests, scenarioGoldens or cursorGoldens), or is listed below with the reason
// it has no answer of its own; and every folder of test/service/golden/ is named by a test, so
// no folder of goldens is left that nothing compares. Shown failing on planted trees first.

import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";

const root = join(__dirname, "..", "..", "..");
const SERVICE = join(root, "server", "src", "service");
const TESTS = join(root, "test", "service");
const GOLDEN = join(TESTS, "golden");

/** Modules with no structured answer of their own (module path under service/, or a folder/). */
const EXEMPT: Readonly<Record<string, string>> = {
  analyzedPlan: "the analysis every feature takes; it answers nothing itself",
  cursorLocation: "where a completion cursor sits: completion/'s goldens print what follows from it",
  formatLimits: "formatting's limits: formatting/'s goldens and formatting.hostile assert its refusals",
  hostView: "the host profile as features see it: hover, completion and diagnostics print what they take from it",
  keyCompletion: "property-name completion, answered through completion (completion/step-keys)",
  planNames: "names under the cursor, answered through definition, references, rename and highlights",
  planTree: "JSON paths of plans and steps, a helper of every cursor feature",
  recentTrees: "memory: which documents keep their tree; no answer",
  sizeLimits: "the diagnostic of a plan past maxAnalyzedSize needs megabytes: test/protocol/sizeLimits.refusal.test.ts",
  toolSignature: "a tool's schema as hover and completion show it (hover/ and completion/ goldens)",
  treeEdit: "a tree carried across an edit, compared with a fresh parse in treeEdit.edits.test.ts",
  "quickFixes/":
    "one quick fix a module, reached through codeActions: code-actions/ applies them, code-actions-offered/ lists them",
};

const GOLDEN_CALL = /\b(?:goldenTests|scenarioGoldens|cursorGoldens)\(/;
const SERVICE_IMPORT = /from "@rlm-plan\/language-server\/service\/([\w/]+)"/g;

function modules(dir: string, prefix = ""): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return modules(path, `${prefix}${name}/`);
      return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [`${prefix}${name.slice(0, -3)}`] : [];
    });
}

/** Service modules each golden test imports, by test file name. */
function goldenImports(tests: Readonly<Record<string, string>>): Map<string, string[]> {
  const covered = new Map<string, string[]>();
  for (const [file, text] of Object.entries(tests)) {
    if (!GOLDEN_CALL.test(text)) continue;
    for (const match of text.matchAll(SERVICE_IMPORT)) {
      const module = match[1] as string;
      covered.set(module, [...(covered.get(module) ?? []), file]);
    }
  }
  return covered;
}

function exemptionOf(module: string, exempt: Readonly<Record<string, string>>): string | undefined {
  return Object.keys(exempt).find((key) => (key.endsWith("/") ? module.startsWith(key) : module === key));
}

/** What is wrong: modules without a golden test or a reason, and reasons that no longer hold. */
function problems(
  service: readonly string[],
  tests: Readonly<Record<string, string>>,
  exempt: Readonly<Record<string, string>>,
): string[] {
  const covered = goldenImports(tests);
  const found: string[] = [];
  for (const module of service) {
    const key = exemptionOf(module, exempt);
    const by = covered.get(module);
    if (!by && !key)
      found.push(
        `service/${module}.ts has no golden test: add test/service/<feature>.golden.test.ts (CONTRIBUTING.md)`,
      );
    if (by && key && !key.endsWith("/"))
      found.push(`service/${module}.ts has a golden test (${by.join(", ")}): take it off the exempt list`);
  }
  for (const key of Object.keys(exempt))
    if (!service.some((module) => exemptionOf(module, { [key]: "" }) !== undefined))
      found.push(`the exempt list names service/${key}, which does not exist`);
  return found;
}

/** Golden folders no test file names as a string literal. */
function unnamedFolders(folders: readonly string[], tests: Readonly<Record<string, string>>): string[] {
  const all = Object.values(tests).join("\n");
  return folders.filter((folder) => !all.includes(`"${folder}"`));
}

test("the check finds a feature module without a golden test, a stale exemption, an unnamed golden folder", () => {
  const tests = {
    "hover.golden.test.ts": `import { hover } from "@rlm-plan/language-server/service/hover";\ngoldenTests("hover", f);`,
    "folding.ranges.test.ts": `import { foldingRanges } from "@rlm-plan/language-server/service/folding";\nit("x", f);`,
    "symbols.golden.test.ts": `import { documentSymbols } from "@rlm-plan/language-server/service/symbols";\nscenarioGoldens("symbols", f);`,
  };
  const exempt = { planTree: "a helper", symbols: "stale", gone: "deleted", "quickFixes/": "through codeActions" };
  assert.deepEqual(problems(["folding", "hover", "planTree", "quickFixes/addFinal", "symbols"], tests, exempt), [
    "service/folding.ts has no golden test: add test/service/<feature>.golden.test.ts (CONTRIBUTING.md)",
    "service/symbols.ts has a golden test (symbols.golden.test.ts): take it off the exempt list",
    "the exempt list names service/gone, which does not exist",
  ]);
  assert.deepEqual(unnamedFolders(["hover", "symbols", "folding"], tests), ["folding"]);
});

test("every service module that answers has a golden test; every golden folder is compared by a test", () => {
  const tests: Record<string, string> = {};
  for (const name of readdirSync(TESTS).sort())
    if (name.endsWith(".test.ts")) tests[name] = readFileSync(join(TESTS, name), "utf8");
  assert.deepEqual(problems(modules(SERVICE), tests, EXEMPT), []);
  const folders = readdirSync(GOLDEN).filter((name) => statSync(join(GOLDEN, name)).isDirectory());
  assert.ok(folders.length >= 20, `golden folders under ${relative(root, GOLDEN)}: ${folders.join(", ")}`);
  assert.deepEqual(unnamedFolders(folders, tests), []);
});
