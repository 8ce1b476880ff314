// The response_format `propose` sends to providers that accept structured outputs: the plan's
// published JSON Schema (schemas/plan.schema.json, generated from the AST's tables), so the
// model's reply is a plan's JSON by construction. Each provider opts in with its profile's
// "responseFormat": "json_schema"; the default, "none", sends nothing, for endpoints that refuse it.

import type { JsonObject, JsonValue } from "../json";
import type { OpenAIChatSpec } from "./openaiChat";

// A literal require so a bundler inlines the schema; the JSON file is what editors use too.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PLAN_SCHEMA = require("../../schemas/plan.schema.json") as JsonObject;

/** The request option for `spec`, or undefined when the provider does not take one. */
export function planResponseFormat(spec: Pick<OpenAIChatSpec, "responseFormat">): JsonObject | undefined {
  if (spec.responseFormat !== "json_schema") return undefined;
  // The meta-schema and id are for editors; providers want the schema itself.
  const { $schema: _meta, $id: _id, title: _title, ...schema } = PLAN_SCHEMA;
  return {
    type: "json_schema",
    json_schema: {
      name: "rlm_plan",
      description: "One typed plan: a JSON object with its steps.",
      // The plan's schema is recursive and uses oneOf: strict mode's subset cannot say it.
      strict: false,
      schema: { type: "object", ...schema },
    },
  };
}

/** The options of a request for a plan: `response_format` where the provider takes it, else none. */
export function proposalOptions(spec: Pick<OpenAIChatSpec, "responseFormat"> | undefined): Record<string, JsonValue> {
  const options = Object.create(null) as Record<string, JsonValue>;
  const format = spec && planResponseFormat(spec);
  if (format) options.response_format = format;
  return options;
}
