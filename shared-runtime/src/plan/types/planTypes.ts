// The type of every value a plan names, from the semantic model's bindings and references, the
// host (its inputs, chat providers, tools' output schemas) and the runtime's own result shapes:
// a context action's (context/resultShapes.ts), a model reply's (run/modelReply.ts), a sub-plan's
// `final`. Each binding's type is computed once, on first ask, with where it came from, so a
// message can say "`reply` is the reply of the model call at 7:5".

import { hasOwn, type JsonObject, type JsonPath, type JsonValue } from "../../json";
import { contextResultSchema } from "../shapes/contextResults";
import { MODEL_REPLY_SCHEMA } from "../shapes/modelReply";
import type { Expr, Plan, Step } from "../ast";
import type { ModelBinding } from "../scopeWalk";
import { quoted } from "../problems";
import type { ToolKnowledge } from "../toolKnowledge";
import { membersOf, typeOfSchema, typeOfValue, unionOf, UNKNOWN, type ValueType } from "./valueType";

/** What the host tells the type rules; every part is optional (what is not known is unknown). */
export interface TypeHost {
  /** Tools with the schema of their result (`outputSchema`: an MCP tool's, or a profile's `returns`). */
  readonly tools?: ToolKnowledge;
  /** Providers that answer with the runtime's model reply (the profile's chat-completions providers). */
  readonly chatProviders?: { has(name: string): boolean };
  /** An input's type: a context handle (text or items), or a value's (its declared schema, or its literal). */
  readonly inputType?: (name: string) => ValueType | undefined;
  /** The JSON Schema the root plan's `final` value must meet (the profile's `result`). */
  readonly result?: JsonObject;
}

/** Where a binding's type comes from: the step and how to say it ("the reply of the model call"). */
export interface TypeOrigin {
  readonly stepPath: JsonPath;
  readonly text: string;
}

export interface TypedBinding {
  readonly type: ValueType;
  readonly origin: TypeOrigin | undefined;
}

/** A reference's root: the binding or input a field chain starts at, for messages. */
export interface ExprRoot {
  /** `` `reply` `` or `` input `doc` ``. */
  readonly name: string;
  readonly origin: TypeOrigin | undefined;
}

const MODEL_REPLY = typeOfSchema(MODEL_REPLY_SCHEMA);

/**
 * What the type rules ask of the semantic model (plan/semanticModel.ts's PlanModel answers it): where a
 * name at a path is bound, and what a reference points at. Stated here so the model can own its
 * PlanTypes without the two modules importing each other.
 */
export interface ModelLookups {
  /** The binding the normalized reference at `path`, named `name`, means (the walk's record). */
  bindingOfReference(path: JsonPath, name: string): ModelBinding | undefined;
  resolve(path: JsonPath, name: string): ModelBinding | undefined;
}

export class PlanTypes {
  private readonly bindingTypes = new Map<ModelBinding, TypedBinding>();

  constructor(
    readonly model: ModelLookups,
    readonly host: TypeHost = {},
  ) {}

  /** The type of what `binding` holds, and where it comes from. */
  ofBinding(binding: ModelBinding): TypedBinding {
    let typed = this.bindingTypes.get(binding);
    if (!typed) {
      typed = binding.step ? this.ofStep(binding.step) : { type: UNKNOWN, origin: undefined };
      this.bindingTypes.set(binding, typed);
    }
    return typed;
  }

  /** The type of an expression (as normalized); references resolve through the model. */
  ofExpr(expr: Expr): ValueType {
    switch (expr.kind) {
      case "literal":
        return typeOfValue(expr.value);
      case "input":
        return this.host.inputType?.(expr.name) ?? UNKNOWN;
      case "var": {
        const binding = this.bindingOf(expr);
        return binding ? this.ofBinding(binding).type : UNKNOWN;
      }
      case "field":
        return fieldOf(this.ofExpr(expr.base), expr.key).type;
      case "list": {
        const tuple = expr.items.map((item) => this.ofExpr(item));
        return { kind: "array", items: tuple.length > 0 ? unionOf(tuple) : UNKNOWN, tuple };
      }
      case "object": {
        const fields = new Map<string, ValueType>();
        for (const [key, value] of expr.entries) fields.set(key, this.ofExpr(value));
        return { kind: "object", fields, required: new Set(fields.keys()), rest: undefined };
      }
    }
  }

  /**
   * The type of an expression as written in the document at `path` (a JSON value that may not
   * have normalized yet, while someone types): references resolve by the scope at their place,
   * so completion and hover work on half-typed steps.
   */
  ofWritten(value: unknown, path: JsonPath, depth = 0): ValueType {
    if (depth > 64) return UNKNOWN;
    if (value === null || typeof value !== "object") return typeOfValue(value as JsonValue);
    if (Array.isArray(value)) {
      const tuple = value.map((item, i) => this.ofWritten(item, [...path, i], depth + 1));
      return { kind: "array", items: tuple.length > 0 ? unionOf(tuple) : UNKNOWN, tuple };
    }
    const object = value as Record<string, unknown>;
    if (!hasOwn(object, "ref")) {
      const fields = new Map<string, ValueType>();
      for (const key of Object.keys(object)) fields.set(key, this.ofWritten(object[key], [...path, key], depth + 1));
      return { kind: "object", fields, required: new Set(fields.keys()), rest: undefined };
    }
    const name = object.name;
    switch (object.ref) {
      case "var": {
        const binding = typeof name === "string" ? this.model.resolve(path, name) : undefined;
        return binding ? this.ofBinding(binding).type : UNKNOWN;
      }
      case "input":
        return typeof name === "string" ? (this.host.inputType?.(name) ?? UNKNOWN) : UNKNOWN;
      case "field":
        return typeof object.key === "string"
          ? fieldOf(this.ofWritten(object.value, [...path, "value"], depth + 1), object.key).type
          : UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  /** The variable or input a field chain starts at; undefined for a literal base. */
  rootOf(expr: Expr): ExprRoot | undefined {
    let node = expr;
    while (node.kind === "field") node = node.base;
    if (node.kind === "var") {
      const binding = this.bindingOf(node);
      return { name: `\`${node.name}\``, origin: binding ? this.ofBinding(binding).origin : undefined };
    }
    if (node.kind === "input") return { name: `input \`${node.name}\``, origin: undefined };
    return undefined;
  }

  /**
   * The binding a normalized reference means (the model resolves the first few by scope rather
   * than build an index of every reference by path for a hover: 10,000 path strings, 7-27 ms).
   */
  private bindingOf(expr: Extract<Expr, { kind: "var" }>): ModelBinding | undefined {
    return this.model.bindingOfReference(expr.path, expr.name);
  }

  /** The type of a plan's `final` value (what an rlm, retry or parallel branch binds). */
  finalOf(plan: Plan): ValueType {
    const last = plan.steps[plan.steps.length - 1];
    return last?.op === "final" ? this.ofExpr(last.value) : UNKNOWN;
  }

  private ofStep(step: Step): TypedBinding {
    const origin = (text: string): TypeOrigin => ({ stepPath: step.path, text });
    switch (step.op) {
      case "context": {
        const handle = this.ofExpr(step.handle);
        const kinds = membersOf(handle).map((m) => (m.kind === "handle" ? m.context : undefined));
        // Without a known kind, a result is what either kind of context returns.
        const contexts = kinds.includes(undefined) ? (["text", "terms"] as const) : [...new Set(kinds)];
        const schemas = contexts.map((kind) => contextResultSchema(step.action, kind as "text" | "terms"));
        const type = schemas.some((s) => s === undefined) ? UNKNOWN : unionOf(schemas.map((s) => typeOfSchema(s)));
        return { type, origin: origin(`the result of the context ${step.action.type}`) };
      }
      case "model":
        return this.host.chatProviders?.has(step.provider)
          ? { type: MODEL_REPLY, origin: origin(`the reply of the model call`) }
          : { type: UNKNOWN, origin: undefined };
      case "tool": {
        const schema = this.host.tools?.signature(step.name)?.outputSchema;
        return schema
          ? { type: typeOfSchema(schema), origin: origin(`the result of tool ${quoted(step.name)}`) }
          : { type: UNKNOWN, origin: undefined };
      }
      case "rlm":
        return { type: this.finalOf(step.plan), origin: origin("the final value of the rlm sub-plan") };
      case "retry":
        return { type: this.finalOf(step.plan), origin: origin("the final value of the retried plan") };
      case "parallel": {
        const tuple = step.plans.map((plan) => this.finalOf(plan));
        return {
          type: { kind: "array", items: tuple.length > 0 ? unionOf(tuple) : UNKNOWN, tuple },
          origin: origin("the list of the parallel branches' final values"),
        };
      }
      default:
        return { type: UNKNOWN, origin: undefined };
    }
  }
}

/** Why a field cannot be read: the base is no object, or a known closed object lacks it. */
export type FieldMiss =
  | { readonly kind: "not_object"; readonly base: ValueType }
  | { readonly kind: "no_field"; readonly known: readonly string[] };

/**
 * Reading `key` of a value of type `base`: the field's type, or why it cannot be read when no
 * member of the type has it. A union some of whose members have the field is read from those.
 */
export function fieldOf(base: ValueType, key: string): { type: ValueType; miss?: FieldMiss } {
  const found: ValueType[] = [];
  let firstMiss: FieldMiss | undefined;
  const known: string[] = [];
  for (const member of membersOf(base)) {
    if (member.kind === "unknown") return { type: UNKNOWN };
    if (member.kind !== "object") {
      firstMiss ??= { kind: "not_object", base };
      continue;
    }
    const field = member.fields.get(key);
    if (field) found.push(field);
    else if (member.rest) found.push(member.rest);
    else for (const name of member.fields.keys()) known.push(name); // no spread: a schema may have 200k properties
  }
  if (found.length > 0) return { type: unionOf(found) };
  if (known.length > 0 || membersOf(base).some((m) => m.kind === "object"))
    return { type: UNKNOWN, miss: { kind: "no_field", known: [...new Set(known)] } };
  return { type: UNKNOWN, miss: firstMiss ?? { kind: "not_object", base } };
}
