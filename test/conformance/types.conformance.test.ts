// The type rules against the reference's own runs: a plan the reference runs to success gets
// no type problem (gradual typing: what is unknown is never an error), and a run the reference
// ends with missing_field is one `check` would have caught where the types are known.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { analyzePlanText } from "@rlm-plan/core/analysis";
import type { TypeHost } from "@rlm-plan/core/plan/types/planTypes";
import { typeOfValue, type ValueType } from "@rlm-plan/core/plan/types/valueType";
import type { JsonValue } from "@rlm-plan/core/json";

const TYPE_KINDS = new Set(["unknown_field", "field_of_non_object", "invalid_result", "invalid_tool_arguments"]);

interface Case {
  readonly id: string;
  readonly plan: unknown;
  readonly inputs?: Record<string, unknown>;
  readonly expected: { readonly execute?: { readonly ok?: boolean; readonly kind?: string } };
}

/** The case's inputs as a host profile types them: texts and item lists are contexts, the rest values. */
function typeHost(c: Case): TypeHost {
  const inputs = new Map<string, ValueType>();
  for (const [name, value] of Object.entries(c.inputs ?? {})) {
    const only = value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
    const one = only.length === 1 ? only[0] : undefined;
    if (one === "text" && typeof (value as { text: unknown }).text === "string")
      inputs.set(name, { kind: "handle", context: "text" });
    else if (one === "terms" && Array.isArray((value as { terms: unknown }).terms))
      inputs.set(name, { kind: "handle", context: "terms" });
    else inputs.set(name, typeOfValue(value as JsonValue));
  }
  return { inputType: (name) => inputs.get(name) };
}

function cases(file: string): Case[] {
  return readFileSync(join(__dirname, "..", "..", "fixtures", "conformance", file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Case);
}

const all = [...cases("public.jsonl"), ...cases("public-v2.jsonl")];

test("types add no problem to a plan the reference runs to success", () => {
  const succeeded = all.filter((c) => c.expected.execute?.ok === true);
  assert.equal(succeeded.length, 755);
  const flagged = succeeded.flatMap((c) => {
    const analysis = analyzePlanText(JSON.stringify(c.plan), { types: typeHost(c) });
    return analysis.problems.filter((p) => TYPE_KINDS.has(p.kind)).map((p) => `${c.id}: ${p.message}`);
  });
  assert.deepEqual(flagged, []);
});

test("a run the reference ends with missing_field is caught statically where the base's type is known", () => {
  const missing = all.filter((c) => c.expected.execute?.kind === "missing_field");
  assert.ok(missing.length > 0);
  const caught = missing.filter((c) =>
    analyzePlanText(JSON.stringify(c.plan), { types: typeHost(c) }).problems.some((p) => TYPE_KINDS.has(p.kind)),
  );
  // Each one not caught reads a field of a value whose type is unknown (a test tool's result).
  console.log(`missing_field runs caught statically: ${caught.length} of ${missing.length}`);
  assert.equal(caught.length, 52);
});
