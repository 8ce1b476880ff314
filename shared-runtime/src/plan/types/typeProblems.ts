// The type checks `check`, the editor and the debugger's launch report (through the analysis):
// a field a known object does not have (with the nearest known field, for a quick fix), a
// field read from what is no object (a list, text, a number, a context handle), and a root
// `final` that cannot meet the result schema the host declares. Each problem is on the exact
// token and says where the type came from ("`reply` is the reply of the model call at 7:5").
// Unknown types are never judged.

import type { JsonPath } from "../../json";
import type { Expr } from "../ast";
import type { PlanModel } from "../semanticModel";
import type { PlanProblem } from "../problems";
import { nearestName } from "../../text/nearestName";
import { RESULT_WORDS, valueSchemaProblems } from "../toolArgumentChecks";
import { typeViolation } from "../schemaTypeViolation";
import { forEachExpressionNode, ownExpression } from "../walk";
import { fieldOf, type PlanTypes, type TypeOrigin } from "./planTypes";
import { printType, typeNounOf } from "./valueType";

/** Where a step is, as people read it ("7:5"); undefined when it cannot be said. */
export type StepPlace = (stepPath: JsonPath) => string | undefined;

export function typeProblems(model: PlanModel, types: PlanTypes, place: StepPlace = () => undefined): PlanProblem[] {
  const problems: PlanProblem[] = [];
  // One visitor for the whole walk and no list per step: this runs on every keystroke, over
  // every step (a closure and a generator per step were 22 MB of garbage at 60,000 steps).
  const visit = (e: Expr): void => {
    if (e.kind === "field") fieldProblem(e, types, place, problems);
  };
  for (const { step } of model.steps()) {
    const expr = ownExpression(step);
    // A reference or a literal reads no field: most steps' expressions.
    if (expr && expr.kind !== "var" && expr.kind !== "input" && expr.kind !== "literal")
      forEachExpressionNode(expr, visit);
  }
  problems.push(...resultProblems(model, types));
  problems.push(...promptProblems(model, types));
  return problems;
}

/** What a model step's prompt must be: the runtime sends only text (`invalid_prompt` otherwise). */
const PROMPT_SCHEMA = { type: "string" } as const;

/**
 * Model steps whose prompt is certainly not text (a context handle, an object, a list): the run
 * would fail at that step (invalid_prompt), after the steps before it had their effects. An
 * unknown type, or a union that may be text, is not judged.
 */
export function promptProblems(model: PlanModel, types: PlanTypes): PlanProblem[] {
  const problems: PlanProblem[] = [];
  for (const { step } of model.steps()) {
    if (step.op !== "model") continue;
    const type = types.ofExpr(step.prompt);
    // A context handle is opaque to schemas (a tool may take one), but it is never text.
    const found = type.kind === "handle" ? { type } : typeViolation(type, PROMPT_SCHEMA, PROMPT_SCHEMA, "");
    if (!found) continue;
    const root = types.rootOf(step.prompt);
    const origin = root?.origin ? ` (${root.name} is ${root.origin.text})` : "";
    const literal = step.prompt.kind === "literal" || step.prompt.kind === "list" || step.prompt.kind === "object";
    const subject = literal ? "it" : chainText(step.prompt);
    const what =
      found.type.kind === "handle"
        ? `${typeNounOf(found.type)}, not text: read it with a context step (search, slice, peek) and give the model what that finds`
        : `${typeNounOf(found.type)} (${printType(found.type)}), not text`;
    problems.push({
      phase: "validate",
      kind: "invalid_prompt",
      message: `the prompt for provider ${JSON.stringify(step.provider)} must be text, but ${subject} is ${what}${origin}`,
      path: [...step.path, "prompt"],
      target: "value",
      // The type may come from the host (an input's declaration): judged under its gate.
      hostDependent: true,
    });
  }
  return problems;
}

type FieldExpr = Extract<Expr, { kind: "field" }>;

function fieldProblem(field: FieldExpr, types: PlanTypes, place: StepPlace, problems: PlanProblem[]): void {
  const base = types.ofExpr(field.base);
  const miss = fieldOf(base, field.key).miss;
  if (!miss) return;
  // A base that itself misses a field has been reported; its type is unknown, so no cascade.
  const subject = chainText(field.base);
  const because = origin(types, field.base, place);
  const at = { path: [...field.path, "key"], target: "value" as const };
  if (miss.kind === "no_field") {
    // A near miss is a slip of one or two letters; anything further is another name altogether.
    const reach = field.key.length <= 2 ? 0 : field.key.length <= 4 ? 1 : 2;
    const suggestion = nearestName(field.key, miss.known, reach);
    const known = miss.known.map((k) => JSON.stringify(k)).join(", ");
    const hint =
      suggestion !== undefined
        ? `: did you mean ${JSON.stringify(suggestion)}?`
        : miss.known.length > 0
          ? `; its fields are ${known}`
          : "";
    problems.push({
      phase: "validate",
      kind: "unknown_field",
      message: `${subject} has no field ${JSON.stringify(field.key)}${hint}${because.text}`,
      field: field.key,
      ...at,
      ...(suggestion !== undefined ? { suggestion } : {}),
      ...because.related,
    });
    return;
  }
  problems.push({
    phase: "validate",
    kind: "field_of_non_object",
    message: `${subject} is ${typeNounOf(miss.base)} (${printType(miss.base)}), not an object: it has no field ${JSON.stringify(field.key)}${because.text}`,
    field: field.key,
    ...at,
    ...because.related,
  });
}

/** `reply`, `reply.usage`, input `doc`, or "the value" for a literal. */
function chainText(expr: Expr): string {
  const keys: string[] = [];
  let node = expr;
  while (node.kind === "field") {
    keys.unshift(node.key);
    node = node.base;
  }
  const tail = keys.map((k) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join("");
  if (node.kind === "var") return `\`${node.name}${tail}\``;
  if (node.kind === "input") return `input \`${node.name}${tail}\``;
  return keys.length > 0 ? `the value's \`${tail.slice(1)}\`` : "the value";
}

/** " (`reply` is the reply of the model call at 7:5)" and the related location of that step. */
function origin(
  types: PlanTypes,
  expr: Expr,
  place: StepPlace,
): { text: string; related: { related?: PlanProblem["related"] } } {
  const root = types.rootOf(expr);
  const from: TypeOrigin | undefined = root?.origin;
  if (!root || !from) return { text: "", related: {} };
  const where = place(from.stepPath);
  const text = ` (${root.name} is ${from.text}${where ? ` at ${where}` : ""})`;
  return {
    text,
    related: {
      related: [{ path: [...from.stepPath, "bind"], target: "value", message: `${root.name} is ${from.text}` }],
    },
  };
}

/** The root plan's `final` against the result schema the host declares. */
function resultProblems(model: PlanModel, types: PlanTypes): PlanProblem[] {
  const schema = types.host.result;
  const last = model.plan.steps[model.plan.steps.length - 1];
  if (!schema || last?.op !== "final") return [];
  return valueSchemaProblems(
    last.value,
    [...last.path, "value"],
    schema,
    types,
    (message, at) => ({
      phase: "validate",
      kind: "invalid_result",
      message: `${message} (the host's result schema)`,
      hostDependent: true,
      ...at,
    }),
    RESULT_WORDS,
  );
}
