// The plan JSON Schema (shared-runtime/schemas/plan.schema.json), for editors: its forms,
// fields, required lists and enumerations come from the AST's vocabulary tables; only the
// descriptions are written here. A form or field added to a table without its description
// here stops the generator with a message that says where to add it.

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
  SPAWN_AGENT,
  STEP_FIELDS,
  STRATEGY_FIELDS,
  orList,
  type FieldKind,
  type FieldTable,
} from "@rlm-plan/core";

type Schema = Record<string, unknown>;

/** What a form is, and what each of its fields (the discriminator included) holds. */
interface FormDocs {
  readonly description: string;
  readonly fields: Readonly<Record<string, string>>;
}

const STEP_DOCS: Readonly<Record<keyof typeof STEP_FIELDS, FormDocs>> = {
  context: {
    description:
      "Reads an opaque context (an input registered as a text or a list of items) through one bounded action. Needs the capability context(ACTION).",
    fields: {
      op: "A context operation.",
      handle: 'The context: usually {"ref": "input", "name": NAME}.',
      action: "The context action.",
      bind: "",
    },
  },
  model: {
    description: "Calls a model provider of the host with a prompt. Needs the capability model(PROVIDER).",
    fields: {
      op: "A model call.",
      provider: "The provider's name in the host profile.",
      prompt: "The prompt: an expression that resolves to text.",
      options: "Options passed to the provider, such as max_tokens or temperature.",
      bind: "",
    },
  },
  rlm: {
    description: "Runs a sub-plan one level deeper and binds its final value. Needs the capability rlm.",
    fields: { op: "A recursive sub-plan.", plan: "The sub-plan; it sees the enclosing scope.", bind: "" },
  },
  tool: {
    description: "Calls a trusted tool of the host with arguments. Needs the capability tool(NAME).",
    fields: {
      op: "A trusted tool call.",
      name: "The tool's name in the host profile.",
      args: "The arguments: any expression.",
      bind: "",
    },
  },
  parallel: {
    description:
      "Runs branch plans, each in its own scope, and binds the list of their final values. Needs the capability parallel.",
    fields: { op: "Parallel branches.", plans: "The branches: at least one plan.", bind: "" },
  },
  retry: {
    description: "Runs a sub-plan up to `attempts` times until it succeeds. Needs the capability retry.",
    fields: {
      op: "Retry a sub-plan.",
      attempts: "How many times the sub-plan may run; 1 or more. The budget counts every attempt.",
      plan: "The sub-plan to retry.",
      bind: "",
    },
  },
  checkpoint: {
    description:
      "Records a label in the run's checkpoints (runtime state, never I/O). Needs the capability checkpoint.",
    fields: { op: "A checkpoint.", label: "The label recorded." },
  },
  final: {
    description: "Ends the plan with a value: the last step of every plan.",
    fields: { op: "The final value.", value: "The plan's result: any expression." },
  },
  [SPAWN_AGENT]: {
    description:
      "The reference's spawn_agent step: calls the host's trusted spawn_agent tool with the spec and capabilities as literal arguments. Needs the capability tool(spawn_agent).",
    fields: {
      op: "Spawn an agent through the host.",
      spec: "The agent's specification, passed as it is.",
      capabilities: "The capabilities asked for the agent.",
      bind: "",
    },
  },
};

const ACTION_DOCS: Readonly<Record<keyof typeof ACTION_FIELDS, FormDocs>> = {
  search: {
    description: "The lines (or items) that contain a pattern, with their 0-based index.",
    fields: {
      type: "Search lines or items.",
      pattern: "The text to look for (plain text, not a regular expression); not empty.",
    },
  },
  slice: {
    description: "A run of characters (of a text) or items (of a list).",
    fields: {
      type: "A slice.",
      start: "The 0-based start position (code points or items).",
      length: "How many characters or items.",
    },
  },
  peek: {
    description: "A look at the context: its metadata, its first or last lines/items, or one item.",
    fields: {
      type: "A peek.",
      selector: '"metadata", {"type": "head" | "tail", "count": N} or {"type": "item", "index": N}.',
    },
  },
  partition: {
    description: "The context cut into consecutive parts, each with its index, start and length.",
    fields: {
      type: "A partition.",
      strategy:
        '{"type": "fixed", "size": N}: runs of N characters or items; {"type": "lines", "size": N}: runs of N lines.',
    },
  },
  map: {
    description: "Every line or item transformed.",
    fields: { type: "A map.", transform: "identity, lowercase, uppercase, or length (in code points)." },
  },
  reduce: {
    description: "A summary of the whole context.",
    fields: { type: "A reduce.", reducer: "count (lines or items) or byte_count (UTF-8 bytes)." },
  },
};

const SELECTOR_DOCS: Readonly<Record<(typeof SELECTOR_CONSTANTS)[number] | keyof typeof SELECTOR_FIELDS, FormDocs>> = {
  metadata: { description: "Size, kind and creation time of the context.", fields: {} },
  head: {
    description: "The first `count` lines or items.",
    fields: { type: "From the start.", count: "How many lines or items." },
  },
  tail: {
    description: "The last `count` lines or items.",
    fields: { type: "From the end.", count: "How many lines or items." },
  },
  item: { description: "One line or item.", fields: { type: "One line or item.", index: "Its 0-based index." } },
};

const STRATEGY_DOCS: FormDocs = {
  description: "How the context is cut.",
  fields: {
    type: "Fixed-size runs or runs of lines.",
    size: "Characters, items or lines per part; 1 or more.",
  },
};

const REFERENCE_DOCS: Readonly<Record<keyof typeof REFERENCE_FIELDS, FormDocs>> = {
  input: {
    description: "A named input of the host.",
    fields: { ref: "A host input.", name: "The input's name in the host profile." },
  },
  var: {
    description: "A variable bound by an earlier step in scope.",
    fields: { ref: "A variable.", name: "The variable's name." },
  },
  field: {
    description: "A field of an object value.",
    fields: { ref: "A field of an object.", value: "The object: any expression.", key: "The field's key." },
  },
};

const PLAN_DOCS: FormDocs = {
  description: "A plan: its steps run in order; the last one, and only the last one, is a final step.",
  fields: {
    $schema: "The JSON Schema of this file, for editors; ignored by the runtime.",
    description: "What the plan does; ignored by the runtime.",
    steps: 'The steps, in order. Not empty; the last step is {"op": "final", ...}.',
  },
};

function fieldText(docs: FormDocs, key: string, where: string): string {
  const text = docs.fields[key];
  if (text === undefined) throw new Error(`no description for field "${key}" of ${where}: add it in ${__filename}`);
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

const stepDefinition = (op: string): string => `${op === SPAWN_AGENT ? "spawnAgent" : op}Step`;

export function planSchema(): Schema {
  const steps = [...OPERATIONS, SPAWN_AGENT] as const;
  const stepForms = Object.fromEntries(
    steps.map((op) => [
      stepDefinition(op),
      formSchema(DISCRIMINATORS.step, op, STEP_FIELDS[op], STEP_DOCS[op], `the ${op} step`),
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
