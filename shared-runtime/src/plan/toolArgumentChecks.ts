// Static typing of tool arguments: a tool that publishes a JSON Schema of its input (an MCP
// tool, or a profile tool with "inputSchema") has each plan's literal arguments validated with
// ajv before anything runs, and computed values whose type is known (plan/types/: a search
// result, a model reply, a tool's declared result) checked against what the schema expects there.
// Each problem is certain (an unknown type is never judged), host-dependent (the schema is the
// host's) and on the offending token: an error under `check`'s gate, and `run` refuses the plan
// before its first step (plan/types/certainTypeErrors.ts), as the tool would refuse the call.

import { type JsonObject, type JsonPath, type JsonValue, pointerPath } from "../json";
import type { Expr, Step } from "./ast";
import { compileInputSchema } from "./inputSchemas";
import type { PlanModel } from "./semanticModel";
import { quoted, type PlanProblem } from "./problems";
import { ARGUMENT_WORDS, errorText, placeText, type PlaceWords } from "./schemaProblemText";
import { schemaAt, typeViolation } from "./schemaTypeViolation";
import type { PlanTypes } from "./types/planTypes";
import { printType, UNKNOWN } from "./types/valueType";
import type { ToolKnowledge, ToolSignature } from "./toolKnowledge";

export type { ToolKnowledge, ToolSignature } from "./toolKnowledge";
// The schema cache and the problems' English have their own modules; their names stay exported here.
export { argumentKeys, compileInputSchema, inputSchemaProblem } from "./inputSchemas";
export { RESULT_WORDS, typeNoun } from "./schemaProblemText";

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
  return argumentProblems(step, signature.inputSchema, UNTYPED, "preflight");
}

/**
 * A call's arguments against its tool's input schema, each problem told as the tool's: a run's
 * preflight refuses them; the static check too, under a host's gate (`hostDependent`).
 */
function argumentProblems(
  step: Extract<Step, { op: "tool" }>,
  schema: JsonObject | undefined,
  types: PlanTypes,
  phase: "preflight" | "validate",
): PlanProblem[] {
  if (schema === undefined) return [];
  const tool = quoted(step.name);
  return valueSchemaProblems(step.args, [...step.path, "args"], schema, types, (message, at) => ({
    phase,
    kind: "invalid_tool_arguments",
    message: `tool ${tool}: ${message} (its input schema)`,
    ...(phase === "validate" ? { hostDependent: true } : {}),
    ...at,
  }));
}

/** Types that know nothing: every reference is unknown, so only literal parts are judged. */
const UNTYPED = { ofExpr: () => UNKNOWN, rootOf: () => undefined } as unknown as PlanTypes;

function callProblems(step: Extract<Step, { op: "tool" }>, tools: ToolKnowledge, types: PlanTypes): PlanProblem[] {
  const unavailable = tools.unavailable(step.name);
  if (unavailable === undefined) {
    return argumentProblems(step, tools.signature(step.name)?.inputSchema, types, "validate");
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

/** The expression's value when it is wholly literal (no reference anywhere in it), else undefined. */
export function literalValueOf(expr: Expr): JsonValue | undefined {
  const holes: Hole[] = [];
  const value = probeValue(expr, [], holes);
  return holes.length === 0 ? value : undefined;
}

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
