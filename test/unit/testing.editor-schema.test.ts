// What VS Code gives a test file from the manifest alone: the test file, cassette and baseline schemas
// (hover, completion and validation of the JSON language service) at the paths the manifest
// names, and test files read as JSON with comments, as the runner reads them.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

const ROOT = join(__dirname, "..", "..", "..");

interface Manifest {
  contributes: {
    jsonValidation: { fileMatch: string | string[]; url: string }[];
    languages: { id: string; filenamePatterns?: string[] }[];
  };
}

test("the manifest applies the test file, cassette and baseline schemas, and reads test files as JSON with comments", () => {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;
  const schemaOf = (pattern: string) =>
    manifest.contributes.jsonValidation.find((v) => [v.fileMatch].flat().includes(pattern))?.url;
  assert.equal(schemaOf("*.rlmplan.test.json"), "./shared-runtime/schemas/plan-test.schema.json");
  assert.equal(schemaOf("*.cassette.json"), "./shared-runtime/schemas/cassette.schema.json");
  assert.equal(schemaOf("*.rlmplan.baseline.json"), "./shared-runtime/schemas/plan-baseline.schema.json");
  for (const url of [schemaOf("*.rlmplan.test.json"), schemaOf("*.cassette.json"), schemaOf("*.rlmplan.baseline.json")])
    assert.ok(existsSync(join(ROOT, url as string)), `${url} exists`);
  const jsonc = manifest.contributes.languages.find((l) => l.id === "jsonc");
  assert.deepEqual(jsonc?.filenamePatterns, ["*.rlmplan.test.json"]);
});
