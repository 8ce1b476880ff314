// The types a plan's values have, statically: JSON's kinds, lists (with their items, or a tuple
// when each position is known), objects (their known fields, closed or open), a context handle,
// unions, and `unknown`, which stays unknown and is never an error (gradual typing). Built from
// JSON Schemas (tool outputs, the runtime's own result shapes) and from literal values; printed
// compactly, JSON-Schema flavoured, for messages and hovers.

import { isJsonObject, pointerPath, valueAtPath, type JsonObject, type JsonValue } from "../../json";

export type ScalarKind = "string" | "integer" | "number" | "boolean" | "null";

export type ValueType =
  | { readonly kind: "unknown" }
  | { readonly kind: ScalarKind }
  /** An opaque context handle: a text, a list of items, or either when `context` is undefined. */
  | { readonly kind: "handle"; readonly context: "text" | "terms" | undefined }
  | {
      readonly kind: "array";
      readonly items: ValueType;
      /** Each position's type when the list's length is known (a literal list, parallel results). */
      readonly tuple?: readonly ValueType[];
    }
  | {
      readonly kind: "object";
      readonly fields: ReadonlyMap<string, ValueType>;
      readonly required: ReadonlySet<string>;
      /** The type of any other field; undefined when the object has no other field (closed). */
      readonly rest: ValueType | undefined;
    }
  | { readonly kind: "union"; readonly of: readonly ValueType[] };

export const UNKNOWN: ValueType = { kind: "unknown" };

export function scalar(kind: ScalarKind): ValueType {
  return { kind };
}

/** The union of `types`, flattened; `unknown` absorbs the rest, one member is itself. */
export function unionOf(types: readonly ValueType[]): ValueType {
  const members: ValueType[] = [];
  const seen = new Set<string>();
  for (const type of types) {
    for (const member of type.kind === "union" ? type.of : [type]) {
      if (member.kind === "unknown") return UNKNOWN;
      const key = printType(member);
      if (seen.has(key)) continue;
      seen.add(key);
      members.push(member);
    }
  }
  if (members.length === 0) return UNKNOWN;
  return members.length === 1 ? (members[0] as ValueType) : { kind: "union", of: members };
}

/** The members of a type (itself, or a union's members). */
export function membersOf(type: ValueType): readonly ValueType[] {
  return type.kind === "union" ? type.of : [type];
}

/** The exact type of a literal value: objects closed with every field, lists as tuples. */
export function typeOfValue(value: JsonValue, depth = 0): ValueType {
  if (value === null) return scalar("null");
  if (typeof value === "string") return scalar("string");
  if (typeof value === "boolean") return scalar("boolean");
  if (typeof value === "number" || typeof value === "bigint")
    return scalar(typeof value === "bigint" || Number.isInteger(value) ? "integer" : "number");
  if (depth > 32) return UNKNOWN;
  if (Array.isArray(value)) {
    const tuple = value.map((item) => typeOfValue(item, depth + 1));
    return { kind: "array", items: tuple.length > 0 ? unionOf(tuple) : UNKNOWN, tuple };
  }
  const fields = new Map<string, ValueType>();
  for (const key of Object.keys(value))
    fields.set(key, typeOfValue((value as JsonObject)[key] as JsonValue, depth + 1));
  return { kind: "object", fields, required: new Set(fields.keys()), rest: undefined };
}

const SCALARS: readonly string[] = ["string", "integer", "number", "boolean", "null"];
const MAX_SCHEMA_DEPTH = 12;

/**
 * A JSON Schema as a type: `type` (one or several), `const`/`enum`, `properties`, `required`,
 * `additionalProperties` (false: closed; absent or true: open with unknown fields), `items`,
 * `prefixItems`, `anyOf`/`oneOf` (unions) and local `$ref`s. Anything else is unknown.
 */
export function typeOfSchema(schema: unknown, root: unknown = schema, depth = 0): ValueType {
  if (depth > MAX_SCHEMA_DEPTH || !isJsonObject(schema)) return UNKNOWN;
  if (typeof schema.$ref === "string") {
    if (!schema.$ref.startsWith("#")) return UNKNOWN;
    const target = valueAtPath(root, pointerPath(schema.$ref.slice(1), root));
    return typeOfSchema(target, root, depth + 1);
  }
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (alternatives) return unionOf(alternatives.map((s) => typeOfSchema(s, root, depth + 1)));
  if (Object.prototype.hasOwnProperty.call(schema, "const")) return typeOfValue(schema.const as JsonValue, 30);
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return unionOf(schema.enum.map((v) => typeOfValue(v as JsonValue, 30)));
  const kinds = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (kinds === undefined) {
    if (isJsonObject(schema.properties)) return objectOfSchema(schema, root, depth);
    if (schema.items !== undefined || schema.prefixItems !== undefined) return arrayOfSchema(schema, root, depth);
    return UNKNOWN;
  }
  return unionOf(
    kinds.map((kind): ValueType => {
      if (kind === "object") return objectOfSchema(schema, root, depth);
      if (kind === "array") return arrayOfSchema(schema, root, depth);
      return typeof kind === "string" && SCALARS.includes(kind) ? scalar(kind as ScalarKind) : UNKNOWN;
    }),
  );
}

function objectOfSchema(schema: JsonObject, root: unknown, depth: number): ValueType {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const fields = new Map<string, ValueType>();
  for (const key of Object.keys(properties)) fields.set(key, typeOfSchema(properties[key], root, depth + 1));
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : [],
  );
  // Pattern properties make other names possible: the object is open to them.
  const additional = schema.additionalProperties;
  const closed = additional === false && !isJsonObject(schema.patternProperties);
  const rest = closed ? undefined : isJsonObject(additional) ? typeOfSchema(additional, root, depth + 1) : UNKNOWN;
  return { kind: "object", fields, required, rest };
}

function arrayOfSchema(schema: JsonObject, root: unknown, depth: number): ValueType {
  const prefix = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : [];
  const items = isJsonObject(schema.items) ? typeOfSchema(schema.items, root, depth + 1) : UNKNOWN;
  const tuple = prefix.map((s) => typeOfSchema(s, root, depth + 1));
  const closedTuple = tuple.length > 0 && (schema.items === false || schema.additionalItems === false);
  return closedTuple ? { kind: "array", items: unionOf(tuple), tuple } : { kind: "array", items };
}

/** The type in at most `width` characters where it can be: nested objects folded to `{…}` first. */
export function compactType(type: ValueType, width = 80): string {
  let text = printType(type);
  for (let depth = 1; text.length > width && depth <= 2; depth++) text = printType(type, depth);
  return text;
}

/**
 * A JSON-Schema-flavoured rendering: `{text: string, usage: {…}}`, `array<string>`. Objects and
 * tuples nested at `depth` 2 or more are folded (`{…}`); start deeper to fold sooner.
 */
export function printType(type: ValueType, depth = 0): string {
  switch (type.kind) {
    case "unknown":
    case "string":
    case "integer":
    case "number":
    case "boolean":
    case "null":
      return type.kind;
    case "handle":
      return type.context === undefined
        ? "context handle"
        : `context handle (${type.context === "text" ? "text" : "list of items"})`;
    case "union":
      return type.of.map((member) => wrapped(member, depth)).join(" | ");
    case "array":
      if (type.tuple) {
        if (depth >= 2) return `[…${type.tuple.length}]`;
        return `[${type.tuple.map((item) => printType(item, depth + 1)).join(", ")}]`;
      }
      return `array<${printType(type.items, depth + 1)}>`;
    case "object": {
      if (type.fields.size === 0) return type.rest === undefined ? "{}" : "object";
      if (depth >= 2) return "{…}";
      const names = [...type.fields.keys()];
      const shown = names.slice(0, 8).map((name) => {
        const optional = type.required.has(name) ? "" : "?";
        return `${fieldName(name)}${optional}: ${printType(type.fields.get(name) as ValueType, depth + 1)}`;
      });
      if (names.length > 8 || type.rest !== undefined) shown.push("…");
      return `{${shown.join(", ")}}`;
    }
  }
}

function wrapped(type: ValueType, depth: number): string {
  return type.kind === "union" ? `(${printType(type, depth)})` : printType(type, depth);
}

function fieldName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : JSON.stringify(name);
}

/** How a type is said in a sentence: "a list", "text", "an object". */
export function typeNounOf(type: ValueType): string {
  switch (type.kind) {
    case "array":
      return type.tuple ? `a list of ${type.tuple.length}` : "a list";
    case "string":
      return "text";
    case "integer":
      return "a whole number";
    case "number":
      return "a number";
    case "boolean":
      return "true or false";
    case "null":
      return "null";
    case "object":
      return "an object";
    case "handle":
      return "a context handle";
    case "union":
      return type.of.map(typeNounOf).join(" or ");
    case "unknown":
      return "unknown";
  }
}

/** The fields an object type is known to have (each union member's), for completion. */
export function knownFields(type: ValueType): { name: string; type: ValueType }[] {
  const fields = new Map<string, ValueType[]>();
  for (const member of membersOf(type)) {
    if (member.kind !== "object") continue;
    for (const [name, field] of member.fields) fields.set(name, [...(fields.get(name) ?? []), field]);
  }
  return [...fields].map(([name, types]) => ({ name, type: unionOf(types) }));
}
