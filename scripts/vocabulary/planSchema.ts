// The plan JSON Schema (shared-runtime/schemas/plan.schema.json), for editors: its forms,
// fields, required lists and enumerations come from the AST's vocabulary tables, the
// descriptions from the runtime's (plan/vocabularyHelp.ts), the capability each step needs from
// the capability tables. A field added to a table without its description stops the generator
// with a message that says where to add it.

import {
  ACTION_FIELDS,
  CONTEXT_ACTIONS,
  DISCRIMINATORS,
  MAP_TRANSFORMS,
  OPERATIONS,
  PARTITION_STRATEGIES,
  PLAN_FIELDS,
  REDUCERS,
  REFERENCE_FIELDS,
  REFERENCE_KINDS,
  SELECTOR_CONSTANTS,
  SELECTOR_FIELDS,
  SELECTOR_TYPES,
  STEP_FIELDS,
  STRATEGY_FIELDS,
  type FieldTable,
} from "@rlm-plan/core";
import { SPAWN_AGENT, type FieldKind } from "@rlm-plan/core/plan/ast";
import { orList } from "@rlm-plan/core/plan/problems";
import {
  type FormDocs,
  ACTION_DOCS,
  PLAN_DOCS,
  REFERENCE_DOCS,
  SELECTOR_DOCS,
  STEP_DOCS,
  STRATEGY_DOCS,
} from "@rlm-plan/core/plan/vocabularyHelp";
import { BARE_CAPABILITIES, formatCapability } from "@rlm-plan/core/plan/capabilities";

type Schema = Record<string, unknown>;

function fieldText(docs: FormDocs, key: string, where: string): string {
  const text = docs.fields[key];
  if (text === undefined)
    throw new Error(
      `no description for field "${key}" of ${where}: add it in shared-runtime/src/plan/vocabularyHelp.ts`,
    );
  return text;
}

/** A field's schema by what it holds; descriptions first, as editors show them. */
function fieldSchema(kind: FieldKind, description: string): Schema {
  const described = description === "" ? {} : { description };
  switch (kind) {
    case "expression":
      return { ...described, $ref: "#/definitions/expr" };
    case "bind":
      return { ...described, $ref: "#/definitions/bind" };
    case "name":
    case "text":
    case "label":
      return { ...described, type: "string" };
    case "integer":
      return { ...described, type: "integer" };
    case "positive":
      return { ...described, type: "integer", minimum: 1 };
    case "plan":
      return { ...described, $ref: "#/definitions/plan" };
    case "plans":
      return { ...described, type: "array", minItems: 1, items: { $ref: "#/definitions/plan" } };
    case "steps":
      return { ...described, type: "array", minItems: 1, items: { $ref: "#/definitions/step" } };
    case "options":
      return { ...described, type: "object" };
    case "action":
      return { ...described, $ref: "#/definitions/action" };
    case "selector":
      return { ...described, $ref: "#/definitions/selector" };
    case "strategy":
      return { ...described, $ref: "#/definitions/strategy" };
    case "transform":
      return { ...described, enum: [...MAP_TRANSFORMS] };
    case "reducer":
      return { ...described, enum: [...REDUCERS] };
    case "any":
      return { ...described };
    case "list":
      return { ...described, type: "array" };
  }
}

/** One form: an object with its discriminator as a constant and its fields. */
function formSchema(
  discriminator: string | undefined,
  form: string | string[],
  fields: FieldTable,
  docs: FormDocs,
  where: string,
): Schema {
  const required = Object.keys(fields).filter((key) => fields[key]?.required === true);
  const properties: Schema = {};
  if (discriminator !== undefined) {
    const text = fieldText(docs, discriminator, where);
    properties[discriminator] = Array.isArray(form)
      ? { description: text, enum: form }
      : { description: text, const: form };
  }
  for (const [key, spec] of Object.entries(fields))
    properties[key] = fieldSchema(spec.kind, fieldText(docs, key, where));
  return {
    description: docs.description,
    type: "object",
    required: discriminator === undefined ? required : [discriminator, ...required],
    properties,
  };
}

/** The capability a step form needs, as a host profile grants it (ACTION, PROVIDER, NAME: the step's own). */
function capabilityNeeded(op: keyof typeof STEP_FIELDS): string | undefined {
  if ((BARE_CAPABILITIES as readonly string[]).includes(op)) return op;
  switch (op) {
    case "context":
      return "context(ACTION)";
    case "model":
      return "model(PROVIDER)";
    case "tool":
      return "tool(NAME)";
    case SPAWN_AGENT:
      return formatCapability({ kind: "tool", name: SPAWN_AGENT });
    default:
      return undefined;
  }
}

/** A step form's docs with the capability it needs said after its description. */
function stepDocs(op: keyof typeof STEP_FIELDS): FormDocs {
  const capability = capabilityNeeded(op);
  const docs = STEP_DOCS[op];
  return capability ? { ...docs, description: `${docs.description} Needs the capability ${capability}.` } : docs;
}

const stepDefinition = (op: string): string => `${op === SPAWN_AGENT ? "spawnAgent" : op}Step`;

export function planSchema(): Schema {
  const steps = [...OPERATIONS, SPAWN_AGENT] as const;
  const stepForms = Object.fromEntries(
    steps.map((op) => [
      stepDefinition(op),
      formSchema(DISCRIMINATORS.step, op, STEP_FIELDS[op], stepDocs(op), `the ${op} step`),
    ]),
  );
  const planForm = formSchema(undefined, "", PLAN_FIELDS, PLAN_DOCS, "a plan");
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://rlm-plan.dev/schemas/plan.schema.json",
    title: "rlm-plan typed plan",
    description:
      "A typed LLM plan: a list of steps over a closed set of operations, validated as a whole before anything runs. This schema describes the shape for editors; the runtime also checks scopes, capabilities and the budget. Generated from the runtime's vocabulary (npm run generate): do not edit.",
    $ref: "#/definitions/plan",
    definitions: {
      plan: planForm,
      name: { description: "A name: of a variable, an input, a tool or a provider.", type: "string" },
      bind: {
        description:
          "The variable this step's result is bound to; visible to later steps of this plan and its sub-plans. A name is bound once in a scope.",
        type: "string",
      },
      step: {
        description: `One step: ${orList(OPERATIONS)}.`,
        type: "object",
        required: [DISCRIMINATORS.step],
        oneOf: steps.map((op) => ({ $ref: `#/definitions/${stepDefinition(op)}` })),
      },
      ...stepForms,
      action: {
        description: `The context action: ${orList(CONTEXT_ACTIONS)}.`,
        type: "object",
        required: [DISCRIMINATORS.action],
        oneOf: CONTEXT_ACTIONS.map((type) =>
          formSchema(DISCRIMINATORS.action, type, ACTION_FIELDS[type], ACTION_DOCS[type], `the ${type} action`),
        ),
      },
      selector: {
        description: `What a peek looks at: ${orList([...SELECTOR_CONSTANTS, ...SELECTOR_TYPES].map((s) => JSON.stringify(s)))}.`,
        oneOf: [
          ...SELECTOR_CONSTANTS.map((name) => ({ description: SELECTOR_DOCS[name].description, const: name })),
          ...SELECTOR_TYPES.map((type) =>
            formSchema(
              DISCRIMINATORS.selector,
              type,
              SELECTOR_FIELDS[type],
              SELECTOR_DOCS[type],
              `the ${type} selector`,
            ),
          ),
        ],
      },
      strategy: formSchema(
        DISCRIMINATORS.strategy,
        [...PARTITION_STRATEGIES],
        STRATEGY_FIELDS,
        STRATEGY_DOCS,
        "a strategy",
      ),
      expr: {
        description:
          'An expression: {"ref": "input", "name": N}, {"ref": "var", "name": N}, {"ref": "field", "value": EXPR, "key": K}, a list of expressions, an object of expressions (without "ref"), or a literal.',
        anyOf: [
          ...REFERENCE_KINDS.map((kind) =>
            formSchema(
              DISCRIMINATORS.reference,
              kind,
              REFERENCE_FIELDS[kind],
              REFERENCE_DOCS[kind],
              `the ${kind} reference`,
            ),
          ),
          { description: "A list of expressions.", type: "array", items: { $ref: "#/definitions/expr" } },
          {
            description: `An object whose values are expressions (it has no "${DISCRIMINATORS.reference}" key).`,
            type: "object",
            not: { required: [DISCRIMINATORS.reference] },
            additionalProperties: { $ref: "#/definitions/expr" },
          },
          {
            description: "A literal: text, a number, true, false or null.",
            type: ["string", "number", "boolean", "null"],
          },
        ],
      },
    },
  };
}
