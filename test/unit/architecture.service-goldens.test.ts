// Holds "the service tier tests every feature that returns structured results against golden
// files": every module of server/src/service/ is imported by a golden test of test/service/ (one
// that calls goldenTests, scenarioGoldens or cursorGoldens), or is listed below with the reason
// it has no answer of its own; every folder of test/service/golden/ is named by a test, so no
// folder of goldens is left that nothing compares; and a test of test/service/ that calls a
// feature function in tests of its own (not through the golden harness) is listed below with
// why a golden could not say as much. Shown failing on planted trees first.

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
  approvalForecast: "the core's forecast under the plan's profile: hover/approval-* and plan-graph/approval-* print it",
  approvalHover: "hover's approval lines, answered through hover (hover/approval-*)",
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
  "subPlans/": "extract and inline a sub-plan, reached through codeActions: sub-plans/ applies and refuses them",
  "graphEdits/insertedStep": "the palette's step, reached through graphEdit: graph-edits/insert-* print it",
};

/**
 * Service tests that call feature functions in tests of their own, each with why a golden file
 * would say less (a property over many inputs, a bound, state across calls). A new one fails the
 * check: write fixtures and goldens instead (CONTRIBUTING.md, "Golden files").
 */
const DIRECT: Readonly<Record<string, string>> = {
  "codeActions.requests.test.ts":
    "the request an action's command sends the client, a stale diagnostic, kind filters: calls, not one answer",
  "completion.scope.test.ts": "a bound: of 250 names in scope, the nearest 200 that match, as typed, marked incomplete",
  "completion.location.test.ts":
    "a property at every offset of many texts: the cursor found from the tree is jsonc-parser's",
  "subPlans.conformance.test.ts":
    "a property over 40 conformance plans: extract then inline passes check, keeps the calls and gives the plan back",
  "formatting.hostile.test.ts":
    "generated documents of megabytes, refused or formatted as jsonc-parser would: a bound, not a text",
  "treeEdit.edits.test.ts": "after each of many edits, the carried tree equals a full parse node for node: a property",
  "workspaceSymbols.plans.test.ts":
    "files changed on disk between searches, and a size-limit log written once per version",
};

const GOLDEN_CALL = /\b(?:goldenTests|scenarioGoldens|cursorGoldens)\(/;
const SERVICE_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s+from "@rlm-plan\/language-server\/service\/([\w/]+)"/g;

/** Whether an import's names include something that answers: a constant or a type does not. */
function importsAnswer(typeOnly: boolean, names: string): boolean {
  if (typeOnly) return false;
  return names
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "" && !name.startsWith("type "))
    .some((name) => !/^[A-Z][A-Z0-9_]*(?:\s+as\s+\w+)?$/.test(name));
}

function modules(dir: string, prefix = ""): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return modules(path, `${prefix}${name}/`);
      return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [`${prefix}${name.slice(0, -3)}`] : [];
    });
}

/** Service modules each golden test imports a function or class of, by test file name. */
function goldenImports(tests: Readonly<Record<string, string>>): Map<string, string[]> {
  const covered = new Map<string, string[]>();
  for (const [file, text] of Object.entries(tests)) {
    if (!GOLDEN_CALL.test(text)) continue;
    for (const match of text.matchAll(SERVICE_IMPORT)) {
      if (!importsAnswer(match[1] !== undefined, match[2] as string)) continue;
      const module = match[3] as string;
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

const OWN_TEST = /^\s*(?:it|test)\(/m;

/** Whether a test file calls a feature function of service/ (not a constant or a type). */
function callsFeature(text: string): boolean {
  return [...text.matchAll(SERVICE_IMPORT)].some((match) => importsAnswer(match[1] !== undefined, match[2] as string));
}

/** Test files that call feature functions in tests of their own and are not listed, and stale entries. */
function directCallProblems(
  tests: Readonly<Record<string, string>>,
  direct: Readonly<Record<string, string>>,
): string[] {
  const found: string[] = [];
  const isDirect = (file: string) => {
    const text = tests[file];
    return text !== undefined && callsFeature(text) && OWN_TEST.test(text);
  };
  for (const file of Object.keys(tests).filter(isDirect))
    if (direct[file] === undefined)
      found.push(
        `${file} calls feature functions in tests of its own: turn its cases into fixtures and golden files (CONTRIBUTING.md), or list it in DIRECT with why a golden says less`,
      );
  for (const file of Object.keys(direct))
    if (!isDirect(file)) found.push(`${file} is listed as a direct-call test but is not one (or is gone): take it off`);
  return found;
}

test("the check finds a feature module without a golden test, a stale exemption, an unnamed golden folder", () => {
  const tests = {
    "hover.golden.test.ts": `import { hover } from "@rlm-plan/language-server/service/hover";\ngoldenTests("hover", f);`,
    "folding.ranges.test.ts": `import { foldingRanges } from "@rlm-plan/language-server/service/folding";\nit("x", f);`,
    "symbols.golden.test.ts": `import { documentSymbols } from "@rlm-plan/language-server/service/symbols";\nscenarioGoldens("symbols", f);`,
    // A constant or a type is no answer: planTree stays uncovered, so its exemption holds.
    "rename.golden.test.ts": `import { MAX_DEPTH } from "@rlm-plan/language-server/service/planTree";\nimport type { Outline } from "@rlm-plan/language-server/service/folding";\ncursorGoldens("rename", f);`,
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

test("the check finds a new direct-call service test, and a listed one that is gone or now golden", () => {
  const feature = `import { hover } from "@rlm-plan/language-server/service/hover";\n`;
  const tests = {
    "hover.golden.test.ts": `${feature}goldenTests("hover", f);`,
    "hover.names.test.ts": `${feature}it("x", () => hover());`,
    "costs.bignum.test.ts": `${feature}it("x", () => hover());`,
    "hover.limits.test.ts": `import { MAX_DEPTH } from "@rlm-plan/language-server/service/planTree";\nit("x", f);`,
  };
  const direct = { "costs.bignum.test.ts": "a bound", "hover.golden.test.ts": "stale", "gone.test.ts": "deleted" };
  assert.deepEqual(directCallProblems(tests, direct), [
    "hover.names.test.ts calls feature functions in tests of its own: turn its cases into fixtures and golden files (CONTRIBUTING.md), or list it in DIRECT with why a golden says less",
    "hover.golden.test.ts is listed as a direct-call test but is not one (or is gone): take it off",
    "gone.test.ts is listed as a direct-call test but is not one (or is gone): take it off",
  ]);
});

test("every service test that calls feature functions itself is listed with its reason", () => {
  const tests: Record<string, string> = {};
  for (const name of readdirSync(TESTS).sort())
    if (name.endsWith(".test.ts")) tests[name] = readFileSync(join(TESTS, name), "utf8");
  assert.deepEqual(directCallProblems(tests, DIRECT), []);
});
