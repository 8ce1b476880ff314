// Whether a computed value's static type (plan/types/) can meet a JSON Schema: the first place
// where it cannot, following properties, items and local $refs.

import { isJsonObject, pointerPath, valueAtPath, type JsonObject, type JsonPath, type JsonValue } from "../json";
import { typeNoun } from "./schemaProblemText";
import { membersOf, type ValueType } from "./types/valueType";

/** The schema node at `at`, following properties, items and local $refs; undefined when not found. */
export function schemaAt(schema: JsonObject, at: JsonPath): unknown {
  let node: unknown = schema;
  for (const segment of at) {
    node = resolveRef(node, schema);
    if (!isJsonObject(node)) return undefined;
    if (typeof segment === "number")
      node = Array.isArray(node.items)
        ? node.items[segment]
        : ((node.prefixItems as JsonValue[] | undefined)?.[segment] ?? node.items);
    else if (isJsonObject(node.properties) && Object.prototype.hasOwnProperty.call(node.properties, segment))
      node = node.properties[segment];
    else node = isJsonObject(node.additionalProperties) ? node.additionalProperties : undefined;
  }
  return node;
}

/** The `type` names a schema node allows; undefined when it does not say. */
function schemaKinds(node: JsonObject): string[] | undefined {
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type) && node.type.every((t) => typeof t === "string")) return node.type as string[];
  return undefined;
}

export interface Violation {
  /** Where under the value: "", ".text", "[]" (its items). */
  readonly where: string;
  readonly expected: string;
  readonly type: ValueType;
}

/**
 * The first place where a value of `type` cannot meet the schema `node`: a JSON type the
 * schema does not allow, a required field a closed object lacks, a field a closed schema does
 * not take. A union is wrong only when every member is (gradual: a maybe is not an error).
 */
export function typeViolation(
  type: ValueType,
  node: unknown,
  root: JsonObject,
  where: string,
  depth = 0,
): Violation | undefined {
  node = resolveRef(node, root);
  if (!isJsonObject(node) || depth > 8) return undefined;
  const members = membersOf(type);
  let first: Violation | undefined;
  for (const member of members) {
    const found = memberViolation(member, node, root, where, depth);
    if (!found) return undefined;
    first ??= found;
  }
  return first && members.length > 1 && first.where === where ? { ...first, type } : first;
}

function memberViolation(
  member: ValueType,
  node: JsonObject,
  root: JsonObject,
  where: string,
  depth: number,
): Violation | undefined {
  if (member.kind === "unknown" || member.kind === "handle" || member.kind === "union") return undefined;
  const kinds = schemaKinds(node);
  if (kinds && !kinds.includes(member.kind) && !(member.kind === "integer" && kinds.includes("number")))
    return { where, expected: `must be ${kinds.map(typeNoun).join(" or ")}`, type: member };
  if (member.kind === "object") {
    const properties = isJsonObject(node.properties) ? node.properties : {};
    const required = Array.isArray(node.required) ? node.required.filter((k) => typeof k === "string") : [];
    for (const key of required) {
      if (!member.fields.has(key) && member.rest === undefined)
        return { where, expected: `must have the field ${JSON.stringify(key)}`, type: member };
    }
    for (const [key, field] of member.fields) {
      if (Object.prototype.hasOwnProperty.call(properties, key)) {
        const found = typeViolation(field, properties[key], root, `${where}.${key}`, depth + 1);
        if (found) return found;
      } else if (
        node.additionalProperties === false &&
        !isJsonObject(node.patternProperties) &&
        member.required.has(key)
      ) {
        return { where, expected: `must not have the field ${JSON.stringify(key)}`, type: member };
      }
    }
  }
  if (member.kind === "array" && isJsonObject(node.items)) {
    for (const item of member.tuple ?? [member.items]) {
      const found = typeViolation(item, node.items, root, `${where}[]`, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function resolveRef(node: unknown, root: JsonObject): unknown {
  for (let hops = 0; hops < 16 && isJsonObject(node) && typeof node.$ref === "string"; hops++) {
    const ref = node.$ref;
    if (!ref.startsWith("#")) return undefined;
    node = valueAtPath(root, pointerPath(ref.slice(1), root));
  }
  return node;
}
