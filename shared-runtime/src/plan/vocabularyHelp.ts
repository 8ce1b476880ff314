// What each form of the vocabulary is and what each of its fields holds: the one place these
// descriptions are written. Hover, completion, the test-file view and the generated copies
// (the plan schema and the snippets: `npm run generate`) read them; keyed by the AST's tables,
// so a form or field added there without its text here does not compile (or, for a field,
// stops the generator with a message that says where to add it). A schema's "Needs the
// capability ..." sentence is generated from the capability tables, not written here.

import {
  SPAWN_AGENT,
  type ACTION_FIELDS,
  type ContextActionType,
  type Operation,
  type REFERENCE_FIELDS,
  type ReferenceKind,
  type SELECTOR_CONSTANTS,
  type SELECTOR_FIELDS,
  type STEP_FIELDS,
} from "./ast";

/** What a form is, and what each of its fields (the discriminator included) holds. */
export interface FormDocs {
  readonly description: string;
  readonly fields: Readonly<Record<string, string>>;
}

export const STEP_DOCS: Readonly<Record<keyof typeof STEP_FIELDS, FormDocs>> = {
  context: {
    description: "Runs a context action on an opaque context handle and binds what it returns.",
    fields: {
      op: "A context operation.",
      handle: 'The context: usually {"ref": "input", "name": NAME}.',
      action: "The context action.",
      bind: "",
    },
  },
  model: {
    description: "Calls a model provider the host registers with the prompt and binds its reply.",
    fields: {
      op: "A model call.",
      provider: "The provider's name in the host profile.",
      prompt: "The prompt: an expression that resolves to text.",
      options: "Options passed to the provider, such as max_tokens or temperature.",
      bind: "",
    },
  },
  rlm: {
    description: "Runs a nested plan that sees the variables bound so far and binds its final value.",
    fields: { op: "A recursive sub-plan.", plan: "The sub-plan; it sees the enclosing scope.", bind: "" },
  },
  tool: {
    description: "Calls a trusted tool the host registers with JSON arguments and binds its result.",
    fields: {
      op: "A trusted tool call.",
      name: "The tool's name in the host profile.",
      args: "The arguments: any expression.",
      bind: "",
    },
  },
  parallel: {
    description:
      "Runs its branch plans, concurrently by default (up to max_parallel at once; the host profile's `parallel` may say sequential), and binds the list of their final values in the branches' order.",
    fields: { op: "Parallel branches.", plans: "The branches: at least one plan.", bind: "" },
  },
  retry: {
    description: "Runs its plan again after an execution error, up to the given attempts, and binds its final value.",
    fields: {
      op: "Retry a sub-plan.",
      attempts: "How many times the sub-plan may run; 1 or more. The budget counts every attempt.",
      plan: "The sub-plan to retry.",
      bind: "",
    },
  },
  checkpoint: {
    description: "Records a label in the run's state; it does no I/O.",
    fields: { op: "A checkpoint.", label: "The label recorded." },
  },
  final: {
    description: "Ends the plan: its value is the plan's result.",
    fields: { op: "The final value.", value: "The plan's result: any expression." },
  },
  [SPAWN_AGENT]: {
    description:
      "The reference's spawn_agent step: calls the host's trusted spawn_agent tool with the spec and capabilities as literal arguments.",
    fields: {
      op: "Spawn an agent through the host.",
      spec: "The agent's specification, passed as it is.",
      capabilities: "The capabilities asked for the agent.",
      bind: "",
    },
  },
};

export const ACTION_DOCS: Readonly<Record<keyof typeof ACTION_FIELDS, FormDocs>> = {
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

export const SELECTOR_DOCS: Readonly<
  Record<(typeof SELECTOR_CONSTANTS)[number] | keyof typeof SELECTOR_FIELDS, FormDocs>
> = {
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

export const STRATEGY_DOCS: FormDocs = {
  description: "How the context is cut.",
  fields: {
    type: "Fixed-size runs or runs of lines.",
    size: "Characters, items or lines per part; 1 or more.",
  },
};

export const REFERENCE_DOCS: Readonly<Record<keyof typeof REFERENCE_FIELDS, FormDocs>> = {
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

export const PLAN_DOCS: FormDocs = {
  description: "A plan: its steps run in order; the last one, and only the last one, is a final step.",
  fields: {
    $schema: "The JSON Schema of this file, for editors; ignored by the runtime.",
    description: "What the plan does; ignored by the runtime.",
    steps: 'The steps, in order. Not empty; the last step is {"op": "final", ...}.',
  },
};

/** One line on each operation (hover, completion, snippets): its form's description. */
export const OPERATION_HELP: Readonly<Record<Operation, string>> = {
  context: STEP_DOCS.context.description,
  model: STEP_DOCS.model.description,
  rlm: STEP_DOCS.rlm.description,
  tool: STEP_DOCS.tool.description,
  parallel: STEP_DOCS.parallel.description,
  retry: STEP_DOCS.retry.description,
  checkpoint: STEP_DOCS.checkpoint.description,
  final: STEP_DOCS.final.description,
};

/** One line on each context action. */
export const ACTION_HELP: Readonly<Record<ContextActionType, string>> = {
  search: ACTION_DOCS.search.description,
  slice: ACTION_DOCS.slice.description,
  peek: ACTION_DOCS.peek.description,
  partition: ACTION_DOCS.partition.description,
  map: ACTION_DOCS.map.description,
  reduce: ACTION_DOCS.reduce.description,
};

/** One line on each reference kind. */
export const REFERENCE_HELP: Readonly<Record<ReferenceKind, string>> = {
  input: REFERENCE_DOCS.input.description,
  var: REFERENCE_DOCS.var.description,
  field: REFERENCE_DOCS.field.description,
};
