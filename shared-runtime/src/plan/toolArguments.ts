// Static typing of tool arguments: a tool that publishes a JSON Schema of its input (an MCP
// tool, or a profile tool with "inputSchema") has each plan's literal arguments validated with
// ajv before anything runs, and references whose shape the plan shows (a search result is a list
// of texts) checked against the type the schema expects there. Problems are host-dependent
// warnings on the offending token, and stay warnings under `check`'s CI gate: `run` does not
// refuse such a plan before running (the tool itself judges its arguments).

import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import Ajv2019 from "ajv/dist/2019";
import Ajv2020 from "ajv/dist/2020";
import { isJsonObject, pointerPath, valueAtPath, type JsonObject, type JsonPath, type JsonValue } from "../json";
import type { Expr, Step } from "./ast";
import type { PlanModel } from "./model";
import { nearestName } from "../text/nearestName";
import { describe } from "./normalize";
import { quoted, type PlanProblem } from "./problems";

/** What a host knows of one tool beyond its name: for checking, hover and completion. */
export interface ToolSignature {
  readonly description?: string;
  readonly inputSchema?: JsonObject;
  readonly outputSchema?: JsonObject;
  /** Where the tool comes from, for people: `MCP server "everything"`, `command tool`. */
  readonly source?: string;
}

/** What a host knows of its tools, for checking plans, hover and completion. */
export interface ToolKnowledge {
  /** Whether the host offers a tool by this name. */
  has(name: string): boolean;
  signature(name: string): ToolSignature | undefined;
  /** Why the tool's source could not be asked (an MCP server that did not start), if it could not. */
  unavailable(name: string): string | undefined;
}

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
  const options = { allErrors: true, verbose: true, strict: false, validateFormats: false } as const;
  engines ??= { draft7: new Ajv(options), draft2019: new Ajv2019(options), draft2020: new Ajv2020(options) };
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

/** A JSON type as the checker knows a reference's value, with how to say it. */
interface Shape {
  readonly type: "array" | "string" | "integer" | "number" | "object" | "boolean" | "null";
  readonly noun: string;
}

/** The shape of the value a variable reference means, by the binding the model resolves it to. */
type ShapeOfVar = (referencePath: JsonPath) => Shape | undefined;

/**
 * Every argument problem of the plan's tool steps (nested plans included), in step order, and
 * each call of a tool whose source could not be asked. Unknown tools and tools without an
 * input schema are not checked. References are typed through the semantic model's bindings.
 */
export function toolArgumentProblems(model: PlanModel, tools: ToolKnowledge): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const signatureOf = (name: string) => tools.signature(name);
  const shapeOf: ShapeOfVar = (path) => {
    const step = model.referenceAt(path)?.binding?.step;
    return step ? bindShape(step, signatureOf) : undefined;
  };
  for (const { step } of model.steps()) if (step.op === "tool") problems.push(...callProblems(step, tools, shapeOf));
  return problems;
}

/**
 * The problems of one call's literal arguments against a tool's input schema (references are
 * not judged): what a run's preflight refuses once an MCP server has listed the tool.
 */
export function literalArgumentProblems(step: Extract<Step, { op: "tool" }>, signature: ToolSignature): PlanProblem[] {
  return stepProblems(step, signature, () => undefined);
}

function callProblems(step: Extract<Step, { op: "tool" }>, tools: ToolKnowledge, shapeOf: ShapeOfVar): PlanProblem[] {
  const unavailable = tools.unavailable(step.name);
  if (unavailable === undefined) return stepProblems(step, tools.signature(step.name), shapeOf);
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

/** The shape of what a step binds, where the plan alone shows it. */
function bindShape(step: Step, signatureOf: (name: string) => ToolSignature | undefined): Shape | undefined {
  switch (step.op) {
    case "context":
      if (step.action.type === "search") return { type: "array", noun: "a search result (a list of texts)" };
      if (step.action.type === "reduce") return { type: "integer", noun: "a count (a whole number)" };
      return undefined;
    case "parallel":
      return { type: "array", noun: "the results of a parallel step (a list)" };
    case "tool": {
      const type = signatureOf(step.name)?.outputSchema?.type;
      if (typeof type !== "string" || !isShapeType(type)) return undefined;
      return { type, noun: `the result of tool ${quoted(step.name)} (${typeNoun(type)})` };
    }
    default:
      return undefined;
  }
}

function isShapeType(type: string): type is Shape["type"] {
  return ["array", "string", "integer", "number", "object", "boolean", "null"].includes(type);
}

interface Hole {
  /** Path inside the arguments. */
  readonly at: JsonPath;
  /** Path of the reference in the plan. */
  readonly path: JsonPath;
  readonly shape: Shape | undefined;
  readonly name: string;
}

function stepProblems(
  step: Extract<Step, { op: "tool" }>,
  signature: ToolSignature | undefined,
  shapeOf: ShapeOfVar,
): PlanProblem[] {
  if (signature?.inputSchema === undefined) return [];
  const compiled = compileInputSchema(signature.inputSchema);
  if (!compiled.ok) return [];
  const holes: Hole[] = [];
  const probe = probeValue(step.args, [], holes, shapeOf);
  const argsPath: JsonPath = [...step.path, "args"];
  const problems: PlanProblem[] = [];
  const tool = quoted(step.name);
  const report = (at: JsonPath, message: string, target: "value" | "key" = "value", path?: JsonPath) =>
    problems.push({
      phase: "validate",
      kind: "invalid_tool_arguments",
      message: `tool ${tool}: ${message} (its input schema)`,
      path: path ?? [...argsPath, ...at],
      target,
      hostDependent: true,
      severity: "warning",
    });
  const reportedKeys = new Set<string>();
  if (!compiled.validate(probe)) {
    for (const error of compiled.validate.errors ?? []) {
      const at = pointerPath(error.instancePath, probe);
      // A reference's value is unknown here: nothing at or under it, and no choice above it, is judged.
      if (holes.some((hole) => startsWith(at, hole.at))) continue;
      if (COMPOSITE.has(error.keyword) && holes.some((hole) => startsWith(hole.at, at))) continue;
      const [where, message, target] = errorText(error, at, probe);
      // A misspelled key is both missing one and an extra one: one problem on its token.
      const token = `${target}:${JSON.stringify(where)}`;
      if (target === "key" && reportedKeys.has(token)) continue;
      reportedKeys.add(token);
      report(where, message, target);
    }
  }
  for (const hole of holes) {
    if (!hole.shape) continue;
    const expected = typeAt(signature.inputSchema, hole.at);
    if (expected === undefined || accepts(expected, hole.shape.type)) continue;
    report(
      hole.at,
      `${placeText(hole.at)} must be ${expected.map(typeNoun).join(" or ")}, but ${quoted(hole.name)} is ${hole.shape.noun}`,
      "value",
      hole.path,
    );
  }
  return problems;
}

const COMPOSITE = new Set(["oneOf", "anyOf", "allOf", "not", "if", "then", "else", "contains", "dependentSchemas"]);

/** The arguments as far as they are literal; references become null and are recorded as holes. */
function probeValue(expr: Expr, at: JsonPath, holes: Hole[], shapeOf: ShapeOfVar): JsonValue {
  switch (expr.kind) {
    case "literal":
      return expr.value;
    case "list":
      return expr.items.map((item, i) => probeValue(item, [...at, i], holes, shapeOf));
    case "object": {
      const object = Object.create(null) as JsonObject;
      for (const [key, value] of expr.entries) {
        Object.defineProperty(object, key, {
          value: probeValue(value, [...at, key], holes, shapeOf),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return object;
    }
    case "var":
      holes.push({ at, path: expr.path, shape: shapeOf(expr.path), name: expr.name });
      return null;
    case "input":
    case "field":
      holes.push({ at, path: expr.path, shape: undefined, name: expr.kind === "input" ? expr.name : expr.key });
      return null;
  }
}

function startsWith(path: JsonPath, prefix: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
}

/** `the arguments`, `argument "message"`, `argument "items"[2].name`. */
function placeText(at: JsonPath): string {
  if (at.length === 0) return "the arguments";
  const [first, ...rest] = at;
  const tail = rest.map((s) => (typeof s === "number" ? `[${s}]` : `.${s}`)).join("");
  return typeof first === "number" ? `argument [${first}]${tail}` : `argument ${JSON.stringify(first)}${tail}`;
}

function errorText(error: ErrorObject, at: JsonPath, probe: unknown): [JsonPath, string, "value" | "key"] {
  const params = error.params as Record<string, unknown>;
  const value = valueAtPath(probe, at);
  const place = placeText(at);
  switch (error.keyword) {
    case "required": {
      const key = String(params.missingProperty);
      // A misspelled key is the likelier story, told where the misspelling is.
      const given = isJsonObject(value) ? Object.keys(value) : [];
      const typo = given.find((k) => nearestName(k, [key], 2) === key);
      if (typo !== undefined) {
        return [
          [...at, typo],
          `${placeText([...at, typo])} is not one the tool takes: did you mean ${JSON.stringify(key)}?`,
          "key",
        ];
      }
      const what = at.length === 0 ? "the arguments" : place;
      return [at, `${what} lack the required ${JSON.stringify(key)}`, "key"];
    }
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const known = argumentKeys(error.parentSchema as JsonObject).map((k) => JSON.stringify(k.name));
      const hint = known.length > 0 ? `: the keys are ${known.join(", ")}` : "";
      return [[...at, key], `${placeText([...at, key])} is not one the tool takes${hint}`, "key"];
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

/** The `type` the schema gives the node at `at`, following properties, items and local $refs. */
function typeAt(schema: JsonObject, at: JsonPath): string[] | undefined {
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
  node = resolveRef(node, schema);
  if (!isJsonObject(node)) return undefined;
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type) && node.type.every((t) => typeof t === "string")) return node.type as string[];
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

function accepts(expected: readonly string[], actual: Shape["type"]): boolean {
  if (expected.includes(actual)) return true;
  return actual === "integer" && expected.includes("number");
}
