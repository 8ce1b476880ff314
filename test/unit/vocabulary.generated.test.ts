// The generated vocabulary copies (plan schema, TextMate grammar, snippets) are what the AST's
// tables give today: each is regenerated in memory and compared with the committed file, and
// the generators are shown to follow a table when it changes.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, test } from "node:test";
import { MAP_TRANSFORMS, REDUCERS } from "@rlm-plan/core";

// The generators are build tooling (scripts/, a project of its own, not a package): loaded from
// where tsc puts them.
const { GENERATED_FILES, REPOSITORY_ROOT, generatedText } = createRequire(__filename)(
  join(__dirname, "..", "..", "..", "scripts", "out", "vocabulary", "outputs.js"),
) as typeof import("../../scripts/vocabulary/outputs");

describe("generated vocabulary copies", () => {
  for (const file of GENERATED_FILES) {
    test(`${file.path} is up to date with the AST's tables`, async () => {
      const committed = readFileSync(join(REPOSITORY_ROOT, file.path), "utf8");
      const fresh = await generatedText(file);
      if (committed === fresh) return;
      const lines = committed.split("\n");
      const at = fresh.split("\n").findIndex((line, i) => line !== lines[i]);
      assert.fail(
        `${file.path} is stale: run npm run generate (first difference on line ${at + 1}: ` +
          `committed ${JSON.stringify(lines[at])}, generated ${JSON.stringify(fresh.split("\n")[at])})`,
      );
    });
  }

  test("a name added to a table reaches every copy that lists it", () => {
    const tables = [MAP_TRANSFORMS, REDUCERS] as unknown as string[][];
    for (const table of tables) table.push("zz_added");
    try {
      const texts = Object.fromEntries(GENERATED_FILES.map((file) => [file.path, file.text()]));
      const schema = JSON.parse(texts["shared-runtime/schemas/plan.schema.json"] as string) as {
        definitions: { action: { oneOf: { properties: Record<string, { enum?: string[] }> }[] } };
      };
      const enums = schema.definitions.action.oneOf.flatMap((form) =>
        Object.values(form.properties).flatMap((property) => property.enum ?? []),
      );
      assert.deepEqual(
        enums.filter((name) => name === "zz_added"),
        ["zz_added", "zz_added"],
      );
      assert.match(
        texts["syntaxes/rlm-plan.tmLanguage.json"] as string,
        /identity\|lowercase\|uppercase\|length\|zz_added/,
      );
      assert.match(texts["syntaxes/rlm-plan.tmLanguage.json"] as string, /count\|byte_count\|zz_added/);
      assert.match(texts["snippets/rlm-plan.code-snippets"] as string, /count,byte_count,zz_added\|/);
    } finally {
      for (const table of tables) table.pop();
    }
  });

  test("the schema's required lists and the snippets' fields follow the field tables", () => {
    const schema = JSON.parse(
      readFileSync(join(REPOSITORY_ROOT, "shared-runtime/schemas/plan.schema.json"), "utf8"),
    ) as {
      definitions: Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
    };
    assert.deepEqual(schema.definitions.modelStep?.required, ["op", "provider", "prompt", "bind"]);
    assert.deepEqual(Object.keys(schema.definitions.modelStep?.properties ?? {}), [
      "op",
      "provider",
      "prompt",
      "options",
      "bind",
    ]);
    assert.deepEqual(schema.definitions.retryStep?.properties?.attempts, {
      description: "How many times the sub-plan may run; 1 or more. The budget counts every attempt.",
      type: "integer",
      minimum: 1,
    });
    const snippets = readFileSync(join(REPOSITORY_ROOT, "snippets/rlm-plan.code-snippets"), "utf8");
    assert.match(snippets, /"prefix": "step-retry"/);
    assert.match(snippets, /"\\t\\"attempts\\": \$\{1:3\},"/);
  });
});
