// RunCommand's `step` argument (the "Test This Step" lens's run): the step's JSON Pointer and the
// bindings as a JSON object, read into what `session.runStep()` takes, or why they cannot be.

import { isJsonObject, parseStepPath, type JsonPath, type JsonValue } from "@rlm-plan/core/json";
import { RunCommand } from "../protocol";

export function stepArgument(
  args: readonly unknown[],
):
  | { readonly at: JsonPath; readonly bindings: ReadonlyMap<string, JsonValue> }
  | { readonly message: string }
  | undefined {
  const first = args[0];
  if (typeof first !== "object" || first === null || Array.isArray(first)) return undefined;
  const step: unknown = (first as Record<string, unknown>).step;
  if (step === undefined || step === null) return undefined;
  const { path, bindings } = step as { path?: unknown; bindings?: unknown };
  const at = typeof path === "string" ? parseStepPath(path) : undefined;
  if (!at || !isJsonObject(bindings))
    return {
      message: `${RunCommand.command}'s step needs {"path": "/steps/1", "bindings": {...}}: the step's JSON Pointer and a JSON object of binding name -> value`,
    };
  return { at, bindings: new Map(Object.entries(bindings)) };
}
