// The prompt that asks a model to propose one plan for a goal: the plan grammar, the host's
// granted capabilities, its providers, tools and inputs by name and description (never an
// input's contents or location), and the budget the plan must fit.

import {
  CONTEXT_ACTIONS,
  MAP_TRANSFORMS,
  OPERATIONS,
  PARTITION_STRATEGIES,
  REDUCERS,
  REFERENCE_KINDS,
  SELECTOR_CONSTANTS,
  SELECTOR_TYPES,
  type ContextActionType,
  type Operation,
  type ReferenceKind,
} from "../plan/ast";
import { BUDGET_FIELDS, type Budget } from "../plan/budget";
import { grantsCapability } from "../plan/capabilities";
import { ALLOWED_OPTIONS } from "../plan/modelOptions";

export interface PromptEntry {
  readonly name: string;
  readonly description?: string | undefined;
}

export interface PromptInput extends PromptEntry {
  /** A context (text or items) is read with context steps; a value is plain JSON. */
  readonly kind: "text context" | "items context" | "value";
}

/** What the prompt may tell the model about the host: names and descriptions only. */
export interface PlanPromptHost {
  readonly capabilities: readonly string[];
  readonly budget: Budget;
  readonly providers: readonly PromptEntry[];
  readonly tools: readonly PromptEntry[];
  readonly inputs: readonly PromptInput[];
}

const quoted = (values: readonly string[]): string => values.map((v) => JSON.stringify(v)).join("|");

/**
 * Each form of the vocabulary as the grammar writes it, keyed by the AST's tables: a step, an
 * action, a selector or a reference kind added there without its line here does not compile,
 * and the enumerations (transforms, reducers, strategies, selector constants) are the tables'
 * own. test/unit/providers.plan-prompt.test.ts checks the prompt offers every form.
 */
const STEP_FORMS: Readonly<Record<Operation, string>> = {
  context: `{"op":"context", "handle": Expr, "action": Action, "bind": Name}`,
  model: `{"op":"model", "provider": Name, "prompt": Expr, "options": {...}, "bind": Name}   ("options" may be left out)`,
  tool: `{"op":"tool", "name": Name, "args": Expr, "bind": Name}`,
  rlm: `{"op":"rlm", "plan": Plan, "bind": Name}                   a nested plan; binds its final value`,
  parallel: `{"op":"parallel", "plans": [Plan, ...], "bind": Name}       binds the list of the branches' final values`,
  retry: `{"op":"retry", "attempts": Integer, "plan": Plan, "bind": Name}   reruns the nested plan when it fails`,
  checkpoint: `{"op":"checkpoint", "label": Text}`,
  final: `{"op":"final", "value": Expr}`,
};

const SELECTOR_FORMS: Readonly<Record<(typeof SELECTOR_TYPES)[number], string>> = {
  head: `"count":Int`,
  tail: `"count":Int`,
  item: `"index":Int`,
};

/** Selector types with the same fields share one alternative: {"type":"head"|"tail","count":Int}. */
function selectorForms(): string {
  const byFields = new Map<string, string[]>();
  for (const type of SELECTOR_TYPES)
    byFields.set(SELECTOR_FORMS[type], [...(byFields.get(SELECTOR_FORMS[type]) ?? []), type]);
  const objects = [...byFields].map(([fields, types]) => `{"type":${quoted(types)},${fields}}`);
  return [...SELECTOR_CONSTANTS.map((c) => JSON.stringify(c)), ...objects].join(" | ");
}

const ACTION_FORMS: Readonly<Record<ContextActionType, string>> = {
  search: `"pattern":Text`,
  slice: `"start":Int,"length":Int`,
  peek: `"selector": ${selectorForms()}`,
  partition: `"strategy":{"type":${quoted(PARTITION_STRATEGIES)},"size":Int}`,
  map: `"transform":${quoted(MAP_TRANSFORMS)}`,
  reduce: `"reducer":${quoted(REDUCERS)}`,
};

const REFERENCE_FORMS: Readonly<Record<ReferenceKind, string>> = {
  input: `"name":Name`,
  var: `"name":Name`,
  field: `"value":Expr,"key":Name`,
};

/** The plan grammar the prompt gives, generated from the AST's tables (above). */
export function planGrammar(): string {
  const steps = OPERATIONS.map((op, i) => `${i === 0 ? "Step   := " : "        | "}${STEP_FORMS[op]}`);
  const actions = CONTEXT_ACTIONS.map(
    (type, i) => `${i === 0 ? "Action := " : "        | "}{"type":"${type}",${ACTION_FORMS[type]}}`,
  );
  const references = REFERENCE_KINDS.map((kind) => `{"ref":"${kind}",${REFERENCE_FORMS[kind]}}`).join(" | ");
  return [
    `Plan   := {"steps": [Step, ...]}        non-empty; the last step, and only it, is a "final" step`,
    ...steps,
    ...actions,
    `Expr   := ${references}`,
    `        | [Expr, ...] | an object without "ref" (its values are Exprs) | any other JSON value (a literal)`,
  ].join("\n");
}

const GRAMMAR = planGrammar();

const RULES = [
  "An expression may only name variables bound by earlier steps; nested plans see the enclosing variables, and their own bindings are not visible after them.",
  "Every bind name is new: never bind a name twice in the same scope.",
  "Every step except final needs its capability to be granted: context(ACTION), model(PROVIDER), tool(NAME), rlm, parallel, retry, checkpoint.",
  'A model step\'s prompt must resolve to text. It binds {"text", "model", "usage", "finish_reason"}: use {"ref":"field","value":{"ref":"var","name":"reply"},"key":"text"} for the answer.',
  `A model step's options may only be: ${ALLOWED_OPTIONS.join(", ")}.`,
  'A context step\'s handle is a context input, {"ref":"input","name":NAME} of a text or items input. A context step binds a plain JSON value (a list of matches, a slice of text, a number, ...), never a new context: never use one as a handle.',
  "The worst case must fit the budget: each step counts 1; retry multiplies its plan by its attempts; rlm, parallel and retry add one level of depth.",
];

export function buildPlanPrompt(goal: string, host: PlanPromptHost): string {
  const isGranted = (kind: "tool" | "model", name: string): boolean =>
    grantsCapability(host.capabilities, { kind, name });
  const providers = host.providers.filter((p) => isGranted("model", p.name));
  const tools = host.tools.filter((t) => isGranted("tool", t.name));
  const sections = [
    "You write plans for the rlm-plan runtime. A plan is a JSON program that is checked against the host's grants and budget, then run step by step.",
    `Goal:\n${goal.trim()}`,
    `Plan grammar:\n${GRAMMAR}`,
    `Rules:\n${RULES.map((rule) => `- ${rule}`).join("\n")}`,
    `Granted capabilities: ${host.capabilities.length > 0 ? host.capabilities.join(", ") : "(none)"}`,
    `Model providers (for "provider" in model steps):\n${entryLines(providers)}`,
    `Tools (for "name" in tool steps; "args" is any JSON expression):\n${entryLines(tools)}`,
    `Inputs (read with {"ref":"input","name":NAME}):\n${entryLines(host.inputs.map((i) => ({ ...i, description: joined(i.kind, i.description) })))}`,
    `Budget: ${BUDGET_FIELDS.map((field) => `${field} ${host.budget[field]}`).join(", ")}`,
    'Answer with exactly one JSON object, the plan, in a ```json fence, and nothing else. For example:\n```json\n{"steps": [{"op": "final", "value": "done"}]}\n```',
  ];
  return `${sections.join("\n\n")}\n`;
}

function entryLines(entries: readonly PromptEntry[]): string {
  if (entries.length === 0) return "(none)";
  return entries
    .map((entry) => `- ${entry.name}${entry.description ? `: ${oneLine(entry.description)}` : ""}`)
    .join("\n");
}

function joined(kind: string, description: string | undefined): string {
  return description ? `(${kind}) ${description}` : `(${kind})`;
}

/** Descriptions come from the host profile: one line each, and not too long. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
