// Input values given for one run (a test case's inputs, a queued job's inputs) over a host
// profile's: each named value replaces the profile's input of that name, which is then never
// built. A string given for an input the profile declares as a text (inline or a text file)
// becomes a text context, as the file's contents would: a plan reads it with context steps
// either way. The one rule `rlm-plan test`, the plan session and the queue's workers share
// (createRunHost applies it).

import type { ContextStore } from "../context/store";
import type { JsonValue } from "../json";
import type { InputSpec } from "./profileTypes";

/** What a run sees for a value given for input `spec` (undefined: the profile does not declare it). */
export function givenInputValue(spec: InputSpec | undefined, value: JsonValue, store: ContextStore): unknown {
  const textInput = spec?.type === "text-file" || spec?.type === "text";
  return textInput && typeof value === "string" ? store.registerText(value) : value;
}
