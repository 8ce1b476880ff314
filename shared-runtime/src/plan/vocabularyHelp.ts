// One line on what each form of the vocabulary does: what hover, completion and the generated
// snippets say about operations, context actions and reference kinds. Keyed by the AST's tables,
// so a form added there without its line here does not compile.

import type { ContextActionType, Operation, ReferenceKind } from "./ast";

export const OPERATION_HELP: Readonly<Record<Operation, string>> = {
  context: "Runs a context action on an opaque context handle and binds what it returns.",
  model: "Calls a model provider the host registers with the prompt and binds its reply.",
  rlm: "Runs a nested plan that sees the variables bound so far and binds its final value.",
  tool: "Calls a trusted tool the host registers with JSON arguments and binds its result.",
  parallel:
    "Runs its branch plans, concurrently by default (up to max_parallel at once; the host profile's `parallel` may say sequential), and binds the list of their final values in the branches' order.",
  retry: "Runs its plan again after an execution error, up to the given attempts, and binds its final value.",
  checkpoint: "Records a label in the run's state; it does no I/O.",
  final: "Ends the plan: its value is the plan's result.",
};

export const ACTION_HELP: Readonly<Record<ContextActionType, string>> = {
  search: "lines that contain a pattern",
  slice: "a range of characters or items",
  peek: "metadata, the first or last items, or one item",
  partition: "split into chunks of a fixed size or of lines",
  map: "transform every item",
  reduce: "count items or bytes",
};

export const REFERENCE_HELP: Readonly<Record<ReferenceKind, string>> = {
  input: "a named input of the host",
  var: "a variable bound by an earlier step",
  field: "a field of an object value",
};
