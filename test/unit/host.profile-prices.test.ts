// Prices, currency and max_cost in the host profile: read into the profile (max_cost apart from the
// plan budget, which keeps the reference's fields), and each mistake located at its token.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseHostProfile } from "@rlm-plan/core/host/profile";
import { costPolicyOf } from "@rlm-plan/core/host/hostPolicy";

const FILE = "/work/space/rlmplan.host.json";

function errorsOf(lines: readonly string[]): [string, number, number, string][] {
  const result = parseHostProfile(lines.join("\n"), FILE);
  assert.equal(result.ok, false, "the profile has errors");
  if (result.ok) return [];
  return result.errors.map((error) => [error.jsonPath, error.line, error.column, error.message]);
}

const provider = (extra: string) =>
  `    "a": { "type": "openai-chat", "baseUrl": "http://127.0.0.1:1/v1", "model": "m"${extra} }`;

describe("host profile: prices", () => {
  test("a priced profile: currency, each provider's costing, max_cost apart from the plan budget", () => {
    const result = parseHostProfile(
      JSON.stringify({
        capabilities: ["model(a)"],
        currency: "EUR",
        budget: { max_steps: 9, max_cost: 0.5 },
        providers: {
          a: {
            type: "openai-chat",
            baseUrl: "http://127.0.0.1:1/v1",
            model: "m",
            price: { input_per_mtok: 3, output_per_mtok: 15 },
            maxTokens: 200,
          },
          b: { type: "openai-chat", baseUrl: "http://127.0.0.1:1/v1", model: "m" },
        },
      }),
      FILE,
    );
    assert.ok(result.ok);
    assert.deepEqual(result.profile.budget, { max_steps: 9 });
    const costs = costPolicyOf(result.profile);
    // JSON round trip: the profile's objects have no prototype.
    assert.deepEqual(
      JSON.parse(JSON.stringify({ currency: costs.currency, maxCost: costs.maxCost, providers: [...costs.providers] })),
      {
        currency: "EUR",
        maxCost: 0.5,
        providers: [
          ["a", { price: { input_per_mtok: 3, output_per_mtok: 15 }, maxTokens: 200 }],
          ["b", {}],
        ],
      },
    );
  });

  test("no currency means USD, no max_cost means no limit", () => {
    const result = parseHostProfile('{ "capabilities": [] }', FILE);
    assert.ok(result.ok);
    assert.deepEqual(costPolicyOf(result.profile), { currency: "USD", providers: new Map() });
  });

  test("each price mistake is located at its token", () => {
    assert.deepEqual(
      errorsOf([
        "{",
        '  "capabilities": [],',
        '  "currency": "euro",',
        '  "budget": { "max_cost": -1 },',
        '  "providers": {',
        provider(', "price": { "input_per_mtok": "3", "output_per_mtok": -2 }, "maxTokens": 0'),
        "  }",
        "}",
      ]),
      [
        ["/currency", 3, 15, '"currency" must match ^[A-Z]{3}$, got the text "euro"'],
        ["/budget/max_cost", 4, 27, '"max_cost" in "budget" must be at least 0, got the number -1'],
        [
          "/providers/a/price/input_per_mtok",
          6,
          114,
          '"price"."input_per_mtok" of provider "a" must be a number, got the text "3"',
        ],
        [
          "/providers/a/price/output_per_mtok",
          6,
          138,
          '"price"."output_per_mtok" of provider "a" must be at least 0, got the number -2',
        ],
        ["/providers/a/maxTokens", 6, 157, '"maxTokens" of provider "a" must be at least 1, got the number 0'],
      ],
    );
  });

  test("a price missing its output figure, and a misspelt price key", () => {
    assert.deepEqual(
      errorsOf([
        "{",
        '  "capabilities": [],',
        '  "providers": {',
        provider(', "price": { "input_per_mtok": 3, "output_per_tok": 1 }'),
        "  }",
        "}",
      ]),
      [
        [
          "/providers/a/price",
          4,
          85,
          '"price" of provider "a" is missing "output_per_mtok": price of a million output (completion) tokens.',
        ],
        [
          "/providers/a/price/output_per_tok",
          4,
          117,
          'unknown key "output_per_tok" in "price" of provider "a": did you mean "output_per_mtok"? (the keys are input_per_mtok, output_per_mtok)',
        ],
      ],
    );
  });
});
