// What each context action returns, declared once: the builders the operations make their
// result objects with, and the JSON Schema of every result, which the plan's type rules read
// (plan/types/). A test runs each action and validates its value against the schema here.

import type { JsonObject, JsonValue } from "../../json";
import type { ContextAction } from "../ast";

/** What a registered context holds: a text, or a list of terms. */
export type ContextKind = "text" | "terms";

/** One search match: the 0-based line (or item) index and its text, cut to the byte budget. */
export function searchMatch(index: number, value: string): JsonValue {
  return { index, value };
}

/** One part of a partition: its index, where it starts, how long it is and what it holds. */
export function partitionPart(index: number, start: number, length: number, value: JsonValue): JsonValue {
  return { index, start, length, value };
}

/** What `peek` with the `metadata` selector returns. */
export function contextMetadata(
  kind: ContextKind,
  bytes: number,
  items: number,
  version: number,
  createdAt: number,
): JsonValue {
  return { backend: "memory", kind, bytes, items, version, created_at: createdAt };
}

const INTEGER: JsonObject = { type: "integer" };
const STRING: JsonObject = { type: "string" };
/** An item of a list context: any JSON value (or the preview of one too large to show). */
const ITEM: JsonObject = {};

function closed(properties: JsonObject): JsonObject {
  return { type: "object", properties, required: Object.keys(properties), additionalProperties: false };
}

function listOf(items: JsonObject): JsonObject {
  return { type: "array", items };
}

export const SEARCH_MATCH_SCHEMA = closed({ index: INTEGER, value: STRING });

export const METADATA_SCHEMA = closed({
  backend: { type: "string", const: "memory" },
  kind: { type: "string", enum: ["text", "terms"] },
  bytes: INTEGER,
  items: INTEGER,
  version: INTEGER,
  created_at: { type: "number" },
});

function partsOf(value: JsonObject): JsonObject {
  return listOf(closed({ index: INTEGER, start: INTEGER, length: INTEGER, value }));
}

/**
 * The schema of what `action` returns on a context of `kind` (a text or a list of items);
 * undefined when that kind of context refuses the action (peek item on a text, say) or the
 * action's name is not one the runtime knows.
 */
export function contextResultSchema(action: ContextAction, kind: ContextKind): JsonObject | undefined {
  const text = kind === "text";
  switch (action.type) {
    case "search":
      return listOf(SEARCH_MATCH_SCHEMA);
    case "slice":
      return text ? STRING : listOf(ITEM);
    case "peek":
      switch (action.selector.type) {
        case "metadata":
          return METADATA_SCHEMA;
        case "head":
        case "tail":
          return text ? STRING : listOf(ITEM);
        case "item":
          return text ? undefined : ITEM;
      }
      return undefined;
    case "partition":
      if (action.strategy.type === "lines") return text ? partsOf(listOf(STRING)) : undefined;
      return partsOf(text ? STRING : listOf(ITEM));
    case "map":
      switch (action.transform) {
        case "identity":
          return listOf(text ? STRING : ITEM);
        case "lowercase":
        case "uppercase":
          return listOf(STRING);
        case "length":
          // A line too long to measure within the budget has no length (null).
          return listOf(text ? { type: ["integer", "null"] } : INTEGER);
      }
      return undefined;
    case "reduce":
      return action.reducer === "count" || action.reducer === "byte_count" ? INTEGER : undefined;
  }
  return undefined;
}
