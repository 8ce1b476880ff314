// The English of a schema problem: how a message names a value's place (an argument, the final
// value's field) and what ajv's errors say in those words, with the likelier misspelling told.

import type { ErrorObject } from "ajv";
import { isJsonObject, valueAtPath, type JsonObject, type JsonPath } from "../json";
import { nearestName } from "../text/nearestName";
import { argumentKeys } from "./inputSchemas";
import { describe } from "./normalize";

/** How a message names the whole value and a part of it. */
export interface PlaceWords {
  readonly whole: string;
  readonly part: string;
}

export const ARGUMENT_WORDS: PlaceWords = { whole: "the arguments", part: "argument" };
/** For a plan's final value against the host's result schema. */
export const RESULT_WORDS: PlaceWords = { whole: "the final value", part: "the final value's field" };

/** `the arguments`, `argument "message"`, `argument "items"[2].name`. */
export function placeText(at: JsonPath, words: PlaceWords = ARGUMENT_WORDS): string {
  if (at.length === 0) return words.whole;
  const [first, ...rest] = at;
  const tail = rest.map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`)).join("");
  return typeof first === "number"
    ? `${words.whole}[${first}]${tail}`
    : `${words.part} ${JSON.stringify(first)}${tail}`;
}

export function errorText(
  error: ErrorObject,
  at: JsonPath,
  probe: unknown,
  words: PlaceWords,
): [JsonPath, string, "value" | "key"] {
  const params = error.params as Record<string, unknown>;
  const value = valueAtPath(probe, at);
  const place = placeText(at, words);
  switch (error.keyword) {
    case "required": {
      const key = String(params.missingProperty);
      // A misspelled key is the likelier story, told where the misspelling is.
      const given = isJsonObject(value) ? Object.keys(value) : [];
      const typo = given.find((k) => nearestName(k, [key], 2) === key);
      if (typo !== undefined) {
        return [
          [...at, typo],
          `${placeText([...at, typo], words)} is not one ${words === ARGUMENT_WORDS ? "the tool takes" : "the schema allows"}: did you mean ${JSON.stringify(key)}?`,
          "key",
        ];
      }
      return [at, `${place} ${words === ARGUMENT_WORDS ? "lack" : "lacks"} the required ${JSON.stringify(key)}`, "key"];
    }
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const known = argumentKeys(error.parentSchema as JsonObject).map((k) => JSON.stringify(k.name));
      const hint = known.length > 0 ? `: the keys are ${known.join(", ")}` : "";
      const taker = words === ARGUMENT_WORDS ? "the tool takes" : "the schema allows";
      return [[...at, key], `${placeText([...at, key], words)} is not one ${taker}${hint}`, "key"];
    }
    case "type":
      return [at, `${place} must be ${typeNoun(String(params.type))}, got ${describe(value)}`, "value"];
    case "enum":
      return [
        at,
        `${place} must be one of ${((params.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)).join(", ")}, got ${describe(value)}`,
        "value",
      ];
    case "const":
      return [at, `${place} must be ${JSON.stringify(params.allowedValue)}, got ${describe(value)}`, "value"];
    default:
      return [at, `${place} ${error.message ?? "does not match"}, got ${describe(value)}`, "value"];
  }
}

/** A JSON Schema type (or a comma-separated list, as ajv reports them) as people say it. */
export function typeNoun(type: string): string {
  const nouns: Record<string, string> = {
    integer: "a whole number",
    number: "a number",
    string: "text",
    array: "a list",
    object: "an object",
    boolean: "true or false",
    null: "null",
  };
  return type
    .split(",")
    .map((t) => nouns[t] ?? t)
    .join(" or ");
}
