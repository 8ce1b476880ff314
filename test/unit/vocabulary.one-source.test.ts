// The vocabulary's texts and lists live once, in the core: every description of a form and of a
// field is written in plan/vocabularyHelp.ts (hover, completion, snippets and the plan schema
// read it), and the capabilities every host may grant come from the capability tables
// (plan/capabilities.ts). The scan reads every package's sources, recursively, and the
// generator's (scripts/vocabulary/), and is shown a planted copy first, so it can fail.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  ACTION_DOCS,
  PLAN_DOCS,
  REFERENCE_DOCS,
  SELECTOR_DOCS,
  STEP_DOCS,
  STRATEGY_DOCS,
  type FormDocs,
} from "@rlm-plan/core/plan/vocabularyHelp";
import { analyzeCapability } from "@rlm-plan/core/plan/capabilities";
import { CONTEXT_ACTIONS, FIXED_CAPABILITIES, OPERATION_HELP, OPERATIONS } from "@rlm-plan/core";
import { packageFolders, repositoryRoot, slashed, sourceFiles } from "../support/importGraph";

const SOURCE = "shared-runtime/src/plan/vocabularyHelp.ts";

/** Every description written in the one source that is long enough to be a copy when met again. */
function writtenTexts(): string[] {
  const families: FormDocs[] = [
    ...Object.values(STEP_DOCS),
    ...Object.values(ACTION_DOCS),
    ...Object.values(SELECTOR_DOCS),
    STRATEGY_DOCS,
    ...Object.values(REFERENCE_DOCS),
    PLAN_DOCS,
  ];
  const texts = families.flatMap((docs) => [docs.description, ...Object.values(docs.fields)]);
  return [...new Set(texts.filter((text) => text.length >= 24))];
}

/** A text as a string literal holds it in source (quotes escaped the three ways). */
function inSource(source: string, text: string): boolean {
  return [text, JSON.stringify(text).slice(1, -1), text.replace(/'/g, "\\'")].some((form) => source.includes(form));
}

function scanned(): { file: string; text: string }[] {
  const files = [
    ...packageFolders().flatMap((folder) => sourceFiles(join(repositoryRoot, folder))),
    ...sourceFiles(join(repositoryRoot, "scripts", "vocabulary")),
  ];
  return (
    files
      .map((path) => ({ path, file: slashed(path.slice(repositoryRoot.length + 1)) }))
      // Generated copies (ajv's standalone validators of other schemas) are the generator's output.
      .filter(({ file }) => file !== SOURCE && !file.includes("/generated/"))
      .map(({ path, file }) => ({ file, text: code(readFileSync(path, "utf8")) }))
  );
}

/** Comments may say what a field holds in prose; only code counts. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

function copies(sources: readonly { file: string; text: string }[]): string[] {
  const texts = writtenTexts();
  return sources.flatMap(({ file, text }) =>
    texts.filter((written) => inSource(text, written)).map((written) => `${file}: ${written}`),
  );
}

test("the scan reads the server, the generator and the core, and finds a planted copy", () => {
  const files = scanned().map((s) => s.file);
  for (const file of ["scripts/vocabulary/planSchema.ts", "server/src/service/hover.ts", "client/src/extension.ts"])
    assert.ok(files.includes(file), file);
  const planted = {
    file: "scripts/vocabulary/planSchema.ts",
    text: `const STEP_DOCS = { rlm: { description: ${JSON.stringify(OPERATION_HELP.rlm)} } };`,
  };
  assert.deepEqual(copies([planted]), [`scripts/vocabulary/planSchema.ts: ${OPERATION_HELP.rlm}`]);
});

test("every description of a form or field is written once, in plan/vocabularyHelp.ts", () => {
  assert.ok(writtenTexts().length > 40, `${writtenTexts().length} texts`);
  assert.deepEqual(copies(scanned()), []);
});

test("hover's line on an operation is its form's description, and the schema says it with the capability", () => {
  const schema = JSON.parse(
    readFileSync(join(repositoryRoot, "shared-runtime", "schemas", "plan.schema.json"), "utf8"),
  ) as { definitions: Record<string, { description: string }> };
  for (const op of OPERATIONS) {
    assert.equal(OPERATION_HELP[op], STEP_DOCS[op].description);
    assert.ok(schema.definitions[`${op}Step`]?.description.startsWith(STEP_DOCS[op].description), op);
  }
  assert.equal(
    schema.definitions["parallelStep"]?.description,
    `${STEP_DOCS.parallel.description} Needs the capability parallel.`,
  );
  assert.match(STEP_DOCS.parallel.description, /concurrently by default/);
  assert.equal(schema.definitions["finalStep"]?.description, STEP_DOCS.final.description);
});

test("the capabilities every host may grant come from the capability tables, each one a valid term", () => {
  assert.deepEqual(FIXED_CAPABILITIES, [
    ...CONTEXT_ACTIONS.map((action) => `context(${action})`),
    "rlm",
    "parallel",
    "retry",
    "checkpoint",
  ]);
  for (const capability of FIXED_CAPABILITIES) assert.equal(analyzeCapability(capability), undefined, capability);
  // No front end keeps its own list of them.
  const lists = scanned()
    .filter(({ file }) => !file.startsWith("shared-runtime/src/plan/"))
    .filter(({ text }) => /["']rlm["']\s*,\s*["']parallel["']\s*,\s*["']retry["']/.test(text))
    .map(({ file }) => file);
  assert.deepEqual(lists, []);
});
