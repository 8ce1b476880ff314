// Input values given for one run (a test case's inputs, a queued job's inputs, `rlm-plan run
// --input-text/--input-json/--inputs`) over a host profile's: each named value replaces the
// profile's input of that name, which is then never built. A string given for an input the
// profile declares as a text (inline or a text file) becomes a text context, as the file's
// contents would: a plan reads it with context steps either way. The one rule `rlm-plan test`,
// `rlm-plan run`, the plan session and the queue's workers share (createRunHost applies it).

import type { ContextStore } from "../context/store";
import type { JsonValue } from "../json";
import { compileInputSchema } from "../plan/inputSchemas";
import type { HostProfile, InputSpec } from "./profileTypes";

/** What a run sees for a value given for input `spec` (undefined: the profile does not declare it). */
export function givenInputValue(spec: InputSpec | undefined, value: JsonValue, store: ContextStore): unknown {
  const textInput = spec?.type === "text-file" || spec?.type === "text";
  return textInput && typeof value === "string" ? store.registerText(value) : value;
}

/**
 * Why `value` cannot be given for input `name` of `profile` (undefined: it can). A declared text
 * takes a string, a declared value what its "schema" accepts (without one, the JSON kind of its
 * declared value), and a list of items none (it comes from the profile: a value would reach the
 * plan as a plain list, not a context). A name the profile does not declare passes as it is when
 * the plan reads it (`planInputs`, as a test case's do) and is refused otherwise: it is a typo.
 */
export function givenInputProblem(
  profile: HostProfile,
  name: string,
  value: JsonValue,
  planInputs: ReadonlySet<string> | undefined,
): string | undefined {
  const spec = profile.inputs.get(name);
  if (!spec) {
    if (planInputs === undefined || planInputs.has(name)) return undefined;
    const known = [...new Set([...profile.inputs.keys(), ...planInputs])].sort();
    return `no input ${JSON.stringify(name)}: the host profile does not declare it and the plan does not read it (${known.length > 0 ? `inputs: ${known.join(", ")}` : "it has no inputs"})`;
  }
  switch (spec.type) {
    case "text":
    case "text-file":
      return typeof value === "string"
        ? undefined
        : `input ${JSON.stringify(name)} is a text: give a string, not ${jsonKind(value)}`;
    case "items":
    case "items-file":
      return `input ${JSON.stringify(name)} is a list of items (${spec.type}): it is read from the host profile, not given as a value`;
    case "value": {
      if (spec.schema === undefined)
        return jsonKind(value) === jsonKind(spec.value)
          ? undefined
          : `input ${JSON.stringify(name)} is ${jsonKind(spec.value)} (its declared value's kind): not ${jsonKind(value)}`;
      const compiled = compileInputSchema(spec.schema);
      if (!compiled.ok) return `input ${JSON.stringify(name)}: ${compiled.message}`;
      if (compiled.validate(value)) return undefined;
      const first = compiled.validate.errors?.[0];
      const at = first?.instancePath ? ` at ${first.instancePath}` : "";
      return `input ${JSON.stringify(name)} does not match its schema${at}: ${first?.message ?? "refused"}`;
    }
  }
}

// Kinds only, never the value: a value may be a secret.
function jsonKind(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
