// A host profile's budget problems in editors that read only the published schema (VS Code's JSON
// support, any schema-driven editor): a negative limit is flagged, and the schema's bounds are
// the runtime's rule. (The server's own diagnostics of the same profile, every problem at once on
// its token, are host-profile-language/budget-problems-at-once's golden.)

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BUDGET_FIELDS } from "@rlm-plan/core";
import { HOST_PROFILE_SCHEMA } from "@rlm-plan/core/host/profile";
import { resolveBudget } from "@rlm-plan/core/plan/budget";
import { getLanguageService } from "vscode-json-languageservice";
import { TextDocument } from "vscode-languageserver-textdocument";

const PROFILE = `{
  "capabilities": [],
  "budget": { "max_stepz": 3, "max_tool_calls": -8, "time_limit": 0 },
  "capabilites": []
}
`;

describe("diagnostics: a host profile's budget", () => {
  it("the published schema alone flags the negative limit and the zero time limit", async () => {
    const json = getLanguageService({});
    json.configure({
      validate: true,
      schemas: [{ uri: "rlm-plan:/host", fileMatch: ["*"], schema: HOST_PROFILE_SCHEMA as never }],
    });
    const document = TextDocument.create("file:///w/rlmplan.host.json", "json", 1, PROFILE);
    const found = await json.doValidation(document, json.parseJSONDocument(document));
    const text = (d: {
      range: { start: { line: number; character: number }; end: { line: number; character: number } };
    }) => PROFILE.split("\n")[d.range.start.line]?.slice(d.range.start.character, d.range.end.character);
    assert.deepEqual(
      found.map((d) => [text(d), d.message]).filter(([token]) => token === "-8" || token === "0"),
      [
        ["-8", "Value is below the minimum of 0."],
        ["0", "Value is below the exclusive minimum of 0."],
      ],
    );
  });

  it("the schema's bounds are the runtime's budget rule", () => {
    const fields = (
      HOST_PROFILE_SCHEMA as { properties: { budget: { properties: Record<string, Record<string, number>> } } }
    ).properties.budget.properties;
    // max_cost is the host's own field (money): not a plan budget field, so no rule of the reference's.
    assert.deepEqual(Object.keys(fields), [...BUDGET_FIELDS, "max_cost"]);
    for (const field of BUDGET_FIELDS) {
      const spec = fields[field] ?? {};
      const least = spec.minimum ?? spec.exclusiveMinimum;
      assert.equal(typeof least, "number", `${field} has a bound`);
      const bound = least as number;
      const lowest = spec.minimum !== undefined ? bound : bound + 0.001;
      assert.ok(resolveBudget({ [field]: lowest }).ok, `${field} = ${lowest} is allowed`);
      assert.ok(!resolveBudget({ [field]: spec.minimum !== undefined ? bound - 1 : bound }).ok, `${field} below`);
    }
  });
});
