// Static typing of tool arguments: a tool that publishes a JSON Schema of its input (an MCP
// tool, or a profile tool with "inputSchema") has each plan's literal arguments validated with
// ajv before anything runs, and computed values whose type is known (plan/types/: a search
// result, a model reply, a tool's declared result) checked against what the schema expects there. Problems are host-dependent
// warnings on the offending token, and stay warnings under `check`'s CI gate: `run` does not
// refuse such a plan before running (the tool itself judges its arguments).
// Over 400 lines because literal and typed argument checks share the compiled-schema cache; not split yet.

import type { default as Ajv, ErrorObject, ValidateFunction } from "ajv";
import { isJsonObject, pointerPath, valueAtPath, type JsonObject, type JsonPath, type JsonValue } from "../json";
import type { Expr, Step } from "./ast";
import type { PlanModel } from "./model";
import type { PlanTypes } from "./types/planTypes";
import { membersOf, printType, UNKNOWN, type ValueType } from "./types/valueType";
import { nearestName } from "../text/nearestName";
import { describe } from "./normalize";
import { quoted, type PlanProblem } from "./problems";
import { LINEAR_REGEXP_CODE } from "../text/linearRegExp";
import type { ToolKnowledge, ToolSignature } from "./toolKnowledge";

export type { ToolKnowledge, ToolSignature } from "./toolKnowledge";

type Compiled =
  { readonly ok: true; readonly validate: ValidateFunction } | { readonly ok: false; readonly message: string };

// Schemas come from servers and profiles: compiled once per distinct text, bounded.
const compiledSchemas = new Map<string, Compiled>();
const MAX_COMPILED = 256;
let engines: { draft7: Ajv; draft2019: Ajv; draft2020: Ajv } | undefined;

/** Compiles an input schema with the draft its `$schema` names (draft-07 otherwise). */
export function compileInputSchema(schema: unknown): Compiled {
  if (!isJsonObject(schema)) return { ok: false, message: "an input schema must be a JSON Schema object" };
  const key = JSON.stringify(schema);
  const cached = compiledSchemas.get(key);
  if (cached) return cached;
  const options = { allErrors: true, verbose: true, strict: false, validateFormats: false, code: LINEAR_REGEXP_CODE };
  engines ??= newEngines(options);
  const draft = typeof schema.$schema === "string" ? schema.$schema : "";
  const engine = draft.includes("2020-12")
    ? engines.draft2020
    : draft.includes("2019-09")
      ? engines.draft2019
      : engines.draft7;
  // The meta-schema reference is the engine's choice above; ids would clash across servers.
  const { $schema: _meta, $id: _id, ...body } = schema as Record<string, unknown>;
  let result: Compiled;
  try {
    result = { ok: true, validate: engine.compile(body) };
  } catch (error) {
    result = { ok: false, message: `the input schema is not a valid JSON Schema: ${(error as Error).message}` };
  }
  if (compiledSchemas.size >= MAX_COMPILED) compiledSchemas.clear();
  compiledSchemas.set(key, result);
  return result;
}

/**
 * ajv and its three drafts, required on the first schema to compile: a plan with no tool input
 * schema (and every start of the CLI and the server) never evaluates them, about a fifth of the bundle.
 */
function newEngines(options: ConstructorParameters<typeof Ajv>[0]): { draft7: Ajv; draft2019: Ajv; draft2020: Ajv } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const draft7 = (require("ajv") as typeof import("ajv")).default;
  const draft2019 = (require("ajv/dist/2019") as typeof import("ajv/dist/2019")).default;
  const draft2020 = (require("ajv/dist/2020") as typeof import("ajv/dist/2020")).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { draft7: new draft7(options), draft2019: new draft2019(options), draft2020: new draft2020(options) };
}

/** Undefined when `schema` compiles; otherwise why not (for the host profile's own check). */
export function inputSchemaProblem(schema: unknown): string | undefined {
  const compiled = compileInputSchema(schema);
  return compiled.ok ? undefined : compiled.message;
}

/** The argument keys a schema names at its top level, with their descriptions (completion). */
export function argumentKeys(
  schema: JsonObject | undefined,
): { name: string; description?: string; required: boolean }[] {
  if (!schema || !isJsonObject(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === "string") : []);
  return Object.keys(schema.properties).map((name) => {
    const property = (schema.properties as JsonObject)[name];
    const description =
      isJsonObject(property) && typeof property.description === "string" ? property.description : undefined;
    return { name, required: required.has(name), ...(description !== undefined ? { description } : {}) };
  });
}

/**
 * Every argument problem of the plan's tool steps (nested plans included), in step order, and
 * each call of a tool whose source could not be asked. Unknown tools and tools without an
 * input schema are not checked. Computed values are typed by `types` (the semantic model's).
 */
export function toolArgumentProblems(model: PlanModel, tools: ToolKnowledge, types: PlanTypes): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const { step } of model.steps())
    if (step.op === "tool") for (const item of callProblems(step, tools, types)) problems.push(item);
  return problems;
}

/**
 * The problems of one call's literal arguments against a tool's input schema (references are
 * unknown here, never judged): what a run's preflight refuses once an MCP server has listed the tool.
 */
export function literalArgumentProblems(step: Extract<Step, { op: "tool" }>, signature: ToolSignature): PlanProblem[] {
  const schema = signature.inputSchema;
  if (schema === undefined) return [];
  const tool = quoted(step.name);
  return valueSchemaProblems(step.args, [...step.path, "args"], schema, UNTYPED, (message, at) => ({
    phase: "preflight",
    kind: "invalid_tool_arguments",
    message: `tool ${tool}: ${message} (its input schema)`,
    ...at,
  }));
}

/** Types that know nothing: every reference is unknown, so only literal parts are judged. */
const UNTYPED = { ofExpr: () => UNKNOWN, rootOf: () => undefined } as unknown as PlanTypes;

function callProblems(step: Extract<Step, { op: "tool" }>, tools: ToolKnowledge, types: PlanTypes): PlanProblem[] {
  const unavailable = tools.unavailable(step.name);
  if (unavailable === undefined) {
    const schema = tools.signature(step.name)?.inputSchema;
    if (schema === undefined) return [];
    const tool = quoted(step.name);
    return valueSchemaProblems(step.args, [...step.path, "args"], schema, types, (message, at) => ({
      phase: "validate",
      kind: "invalid_tool_arguments",
      message: `tool ${tool}: ${message} (its input schema)`,
      hostDependent: true,
      severity: "warning",
      ...at,
    }));
  }
  return [
    {
      phase: "validate",
      kind: "tool_source_unavailable",
      message: `${unavailable}: the arguments of tool ${quoted(step.name)} are not checked`,
      path: [...step.path, "name"],
      target: "value",
      hostDependent: true,
      severity: "warning",
    },
  ];
}

interface Hole {
  /** Path inside the arguments. */
  readonly at: JsonPath;
  /** Path of the reference in the plan. */
  readonly path: JsonPath;
  readonly expr: Expr;
}

type ProblemAt = { readonly path: JsonPath; readonly target: "value" | "key" };

/**
 * The problems of a value computed by `expr` (at `exprPath`) against a JSON Schema: its literal
 * parts validated with ajv, its references and fields judged by their types where known.
 * `problem` makes each problem from its message and place.
 */
export function valueSchemaProblems(
  expr: Expr,
  exprPath: JsonPath,
  schema: JsonObject,
  types: PlanTypes,
  problem: (message: string, at: ProblemAt) => PlanProblem,
  words: PlaceWords = ARGUMENT_WORDS,
): PlanProblem[] {
  const compiled = compileInputSchema(schema);
  if (!compiled.ok) return [];
  const holes: Hole[] = [];
  const probe = probeValue(expr, [], holes);
  const problems: PlanProblem[] = [];
  const report = (at: JsonPath, message: string, target: "value" | "key" = "value", path?: JsonPath) =>
    problems.push(problem(message, { path: path ?? [...exprPath, ...at], target }));
  const reportedKeys = new Set<string>();
  if (!compiled.validate(probe)) {
    for (const error of compiled.validate.errors ?? []) {
      const at = pointerPath(error.instancePath, probe);
      // A computed value is unknown here: nothing at or under it, and no choice above it, is judged.
      if (holes.some((hole) => startsWith(at, hole.at))) continue;
      if (COMPOSITE.has(error.keyword) && holes.some((hole) => startsWith(hole.at, at))) continue;
      const [where, message, target] = errorText(error, at, probe, words);
      // A misspelled key is both missing one and an extra one: one problem on its token.
      const token = `${target}:${JSON.stringify(where)}`;
      if (target === "key" && reportedKeys.has(token)) continue;
      reportedKeys.add(token);
      report(where, message, target);
    }
  }
  for (const hole of holes) {
    const type = types.ofExpr(hole.expr);
    const found = typeViolation(type, schemaAt(schema, hole.at), schema, "");
    if (!found) continue;
    const root = types.rootOf(hole.expr);
    const origin = root?.origin ? ` (${root.origin.text})` : "";
    report(
      hole.at,
      `${placeText(hole.at, words)}${found.where} ${found.expected}, but ${exprText(hole.expr)}${found.where} is ${printType(found.type)}${origin}`,
      "value",
      hole.path,
    );
  }
  return problems;
}

/** How a reference reads in a message: `"hits"`, `"reply".text`, `input "doc"`. */
function exprText(expr: Expr): string {
  if (expr.kind === "var") return quoted(expr.name);
  if (expr.kind === "input") return `input ${quoted(expr.name)}`;
  if (expr.kind === "field") return `${exprText(expr.base)}.${expr.key}`;
  return "the value";
}

const COMPOSITE = new Set(["oneOf", "anyOf", "allOf", "not", "if", "then", "else", "contains", "dependentSchemas"]);

/** The value as far as it is literal; references and fields become null and are recorded as holes. */
function probeValue(expr: Expr, at: JsonPath, holes: Hole[]): JsonValue {
  switch (expr.kind) {
    case "literal":
      return expr.value;
    case "list":
      return expr.items.map((item, i) => probeValue(item, [...at, i], holes));
    case "object": {
      const object = Object.create(null) as JsonObject;
      for (const [key, value] of expr.entries) {
        Object.defineProperty(object, key, {
          value: probeValue(value, [...at, key], holes),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return object;
    }
    case "var":
    case "input":
    case "field":
      holes.push({ at, path: expr.path, expr });
      return null;
  }
}

function startsWith(path: JsonPath, prefix: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

/** How a message names the whole value and a part of it. */
interface PlaceWords {
  readonly whole: string;
  readonly part: string;
}

const ARGUMENT_WORDS: PlaceWords = { whole: "the arguments", part: "argument" };
/** For a plan's final value against the host's result schema. */
export const RESULT_WORDS: PlaceWords = { whole: "the final value", part: "the final value's field" };

/** `the arguments`, `argument "message"`, `argument "items"[2].name`. */
function placeText(at: JsonPath, words: PlaceWords = ARGUMENT_WORDS): string {
  if (at.length === 0) return words.whole;
  const [first, ...rest] = at;
  const tail = rest.map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`)).join("");
  return typeof first === "number"
    ? `${words.whole}[${first}]${tail}`
    : `${words.part} ${JSON.stringify(first)}${tail}`;
}

function errorText(
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

/** The schema node at `at`, following properties, items and local $refs; undefined when not found. */
function schemaAt(schema: JsonObject, at: JsonPath): unknown {
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

interface Violation {
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
function typeViolation(
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
