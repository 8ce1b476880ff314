// Completion: operations (as whole-step snippets in a steps list, as names at "op"), action
// types and their selectors, strategies, transforms and reducers, reference kinds, variables in
// scope at the cursor, and the host profile's inputs, tools and providers; in a host profile,
// capability strings. The cursor's place is jsonc-parser's getLocation's (from the cached tree
// where the text before the cursor is sound, see cursorLocation.ts), so half-typed text
// completes too.

import {
  ACTION_FIELDS,
  ACTION_HELP,
  CONTEXT_ACTIONS,
  DISCRIMINATORS,
  type FieldTable,
  FIXED_CAPABILITIES,
  type JsonPath,
  MAP_TRANSFORMS,
  OPERATION_HELP,
  OPERATIONS,
  PARTITION_STRATEGIES,
  REDUCERS,
  REFERENCE_FIELDS,
  REFERENCE_HELP,
  REFERENCE_KINDS,
  SELECTOR_CONSTANTS,
  SELECTOR_FIELDS,
  SELECTOR_TYPES,
  STEP_FIELDS,
  STRATEGY_FIELDS,
} from "@rlm-plan/core";
import {
  compactType,
  expressionFields,
  formatCapability,
  formSnippet,
  grantsCapability,
  knownFields,
  type ModelBinding,
} from "@rlm-plan/core/plan";
import { parseJsoncDocument } from "@rlm-plan/core/text";
import { findNodeAtLocation, getLocation, getNodeValue, type Node } from "jsonc-parser";
import {
  CompletionItemKind,
  InsertTextFormat,
  type CompletionItem,
  type CompletionList,
  type Position,
  type Range,
} from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { AnalyzedPlan } from "./analyzedPlan";
import { cursorLocation } from "./cursorLocation";
import { keyCompletion } from "./keyCompletion";
import type { HostEntry } from "./hostView";
import { bindingLines, modelOf } from "./planNames";
import { isStepPath, nodeAt, propertyValue, stringProperty } from "./planTree";
import { argumentKeyCompletion } from "./toolSignature";

// Every list and snippet below comes from the AST's vocabulary tables (as do the generated
// snippets file, grammar and schema).
const STEP_SNIPPETS = snippetsOf(DISCRIMINATORS.step, OPERATIONS, (op) => STEP_FIELDS[op]);
const ACTION_SNIPPETS = snippetsOf(DISCRIMINATORS.action, CONTEXT_ACTIONS, (type) => ACTION_FIELDS[type]);
const SELECTOR_SNIPPETS = snippetsOf(DISCRIMINATORS.selector, SELECTOR_TYPES, (type) => SELECTOR_FIELDS[type]);
const REF_SNIPPETS = snippetsOf(DISCRIMINATORS.reference, REFERENCE_KINDS, (kind) => REFERENCE_FIELDS[kind]);
const STRATEGY_SNIPPETS = snippetsOf(DISCRIMINATORS.strategy, PARTITION_STRATEGIES, () => STRATEGY_FIELDS);

function snippetsOf<K extends string>(
  discriminator: string,
  forms: readonly K[],
  fieldsOf: (form: K) => FieldTable,
): Readonly<Record<K, string>> {
  const entries = forms.map((form) => [form, formSnippet(discriminator, form, fieldsOf(form))] as const);
  return Object.fromEntries(entries) as Record<K, string>;
}

/** Where the completion goes: the literal under the cursor (replaced) or an empty range. */
interface Site {
  readonly range: Range;
  /** True when a literal under the cursor is replaced (not an insertion at the cursor). */
  readonly replacing: boolean;
  /**
   * Between the quotes of a closed string literal under the cursor. A value is written there,
   * not over the quotes: a snippet's placeholder (`"name": "${1}"`) lies between them, and an
   * edit that reaches past a placeholder ends the editor's snippet session and its tab stops.
   */
  readonly inner?: Range;
  /** What is typed of the literal before the cursor (without its opening quote). */
  readonly typed: string;
}

/**
 * At most this many variables per answer. Beyond it the names are narrowed to what is typed,
 * the nearest bindings first, and the list is marked incomplete so the client asks again as the
 * user types (as clangd and rust-analyzer do): thousands of items cost more to send and filter
 * than to find.
 */
export const MAX_VARIABLE_ITEMS = 200;

export function completion(plan: AnalyzedPlan, position: Position): CompletionItem[] | CompletionList {
  const document = plan.document;
  const tree = plan.tree;
  // Text nested too deep to walk has no tree; getLocation would recurse as deep as the text.
  if (!tree) return [];
  const offset = document.offsetAt(position);
  const location = cursorLocation(document.getText(), tree, plan.analysis.document.syntaxErrors, offset);
  const path = location.path;
  if (location.isAtPropertyKey) {
    const previous = location.previous;
    const inKey =
      previous?.type === "property" && offset >= previous.offset && offset <= previous.offset + previous.length;
    const key = inKey ? previous : undefined;
    // Inside a tool step's "args": the keys of the tool's input schema.
    const argumentKeys = argumentKeyCompletion(plan, tree, path, offset, key);
    return argumentKeys ?? keyCompletion(document, tree, path, offset, key);
  }
  const site = siteOf(document, offset, location.previous);
  const last = path[path.length - 1];
  const parentPath = path.slice(0, -1);
  const owner = nodeAt(tree, parentPath);

  if (isStepPath(path))
    return OPERATIONS.map((op) => snippet(site, op, STEP_SNIPPETS[op], `step: ${OPERATION_HELP[op]}`));
  if (typeof last !== "string") return expressionItems(plan, site, path);

  const inStep = isStepPath(parentPath);
  const inAction = parentPath[parentPath.length - 1] === "action" && isStepPath(parentPath.slice(0, -1));
  const grandKey = parentPath[parentPath.length - 1];
  switch (last) {
    case "op":
      return inStep ? OPERATIONS.map((op) => value(site, op, CompletionItemKind.Keyword, OPERATION_HELP[op])) : [];
    case "action":
      return inStep
        ? CONTEXT_ACTIONS.map((type) => snippet(site, type, ACTION_SNIPPETS[type], `action: ${ACTION_HELP[type]}`))
        : [];
    case "type":
      if (inAction)
        return CONTEXT_ACTIONS.map((type) => value(site, type, CompletionItemKind.EnumMember, ACTION_HELP[type]));
      if (grandKey === "selector")
        return SELECTOR_TYPES.map((type) => value(site, type, CompletionItemKind.EnumMember));
      if (grandKey === "strategy")
        return PARTITION_STRATEGIES.map((type) => value(site, type, CompletionItemKind.EnumMember));
      return [];
    case "selector":
      return inAction
        ? [
            ...SELECTOR_CONSTANTS.map((name) =>
              value(site, name, CompletionItemKind.EnumMember, "the context's metadata"),
            ),
            ...SELECTOR_TYPES.map((type) => snippet(site, type, SELECTOR_SNIPPETS[type], `selector: ${type}`)),
          ]
        : [];
    case "strategy":
      return inAction
        ? PARTITION_STRATEGIES.map((type) =>
            snippet(
              site,
              type,
              STRATEGY_SNIPPETS[type],
              `strategy: chunks of ${type === "fixed" ? "characters" : "lines"}`,
            ),
          )
        : [];
    case "transform":
      return inAction ? MAP_TRANSFORMS.map((name) => value(site, name, CompletionItemKind.EnumMember)) : [];
    case "reducer":
      return inAction ? REDUCERS.map((name) => value(site, name, CompletionItemKind.EnumMember)) : [];
    case "ref":
      return REFERENCE_KINDS.map((kind) => value(site, kind, CompletionItemKind.Keyword, REFERENCE_HELP[kind]));
    case "name": {
      const ref = stringProperty(owner, "ref");
      if (ref === "var") return variableItems(plan, site, path);
      if (ref === "input") return registryItems(site, plan.host?.inputs, CompletionItemKind.Constant);
      if (inStep && stringProperty(owner, "op") === "tool")
        return registryItems(site, plan.host?.tools, CompletionItemKind.Function, grantCheck(plan, "tool"));
      return [];
    }
    case "provider":
      return inStep
        ? registryItems(site, plan.host?.providers, CompletionItemKind.Module, grantCheck(plan, "model"))
        : [];
    case "key":
      return stringProperty(owner, "ref") === "field" ? fieldItems(plan, site, owner, path.slice(0, -1)) : [];
    default:
      if (inStep && expressionFields(stringProperty(owner, "op")).includes(last))
        return expressionItems(plan, site, path);
      if (last === "value" && stringProperty(owner, "ref") === "field") return expressionItems(plan, site, path);
      return [];
  }
}

/** A field reference's key: the fields the type of its value is known to have, with their types. */
function fieldItems(plan: AnalyzedPlan, site: Site, owner: Node | undefined, ownerPath: JsonPath): CompletionItem[] {
  const types = plan.analysis.types;
  const base = owner && findNodeAtLocation(owner, ["value"]);
  if (!types || !base) return [];
  const type = types.ofWritten(getNodeValue(base), [...ownerPath, "value"]);
  return knownFields(type).map((field) =>
    value(site, field.name, CompletionItemKind.Field, compactType(field.type, 120)),
  );
}

/** At an expression: the three reference shapes, then each variable in scope as a reference. */
function expressionItems(plan: AnalyzedPlan, site: Site, path: JsonPath): CompletionItem[] | CompletionList {
  if (site.replacing) return [];
  const refs = REFERENCE_KINDS.map((kind) =>
    snippet(site, `${kind} reference`, REF_SNIPPETS[kind], REFERENCE_HELP[kind]),
  );
  const reference = (label: string, kind: CompletionItemKind, detail: string, ref: string): CompletionItem => ({
    label,
    kind,
    detail,
    textEdit: { range: site.range, newText: `{"ref": "${ref}", "name": ${JSON.stringify(label)}}` },
    filterText: label,
  });
  const { bindings, incomplete } = variablesFor(plan, site, path);
  const variables = bindings.map((binding) =>
    reference(binding.name, CompletionItemKind.Variable, `variable bound by a ${binding.op ?? "step"} step`, "var"),
  );
  const inputs = [...(plan.host?.inputs ?? new Map<string, HostEntry>())].map(([name, entry]) =>
    reference(name, CompletionItemKind.Constant, `input: ${stripMarkdown(entry.summary)}`, "input"),
  );
  const items = [...refs, ...variables, ...inputs];
  return incomplete ? { isIncomplete: true, items } : items;
}

function variableItems(plan: AnalyzedPlan, site: Site, path: JsonPath): CompletionItem[] | CompletionList {
  const { bindings, incomplete } = variablesFor(plan, site, path);
  const lines = bindingLines(plan, bindings);
  const items = bindings.map((binding, i) => {
    const line = lines[i] ?? 0;
    return value(
      site,
      binding.name,
      CompletionItemKind.Variable,
      `bound on line ${line} by a ${binding.op ?? "step"} step`,
    );
  });
  return incomplete ? { isIncomplete: true, items } : items;
}

/** The variables to offer: all of them, or (past MAX_VARIABLE_ITEMS) the nearest that match what is typed. */
function variablesFor(
  plan: AnalyzedPlan,
  site: Site,
  path: JsonPath,
): { bindings: readonly ModelBinding[]; incomplete: boolean } {
  const all = modelOf(plan)?.inScopeAt(path) ?? [];
  if (all.length <= MAX_VARIABLE_ITEMS) return { bindings: all, incomplete: false };
  const typed = site.typed.toLowerCase();
  const matching = typed ? all.filter((binding) => binding.name.toLowerCase().startsWith(typed)) : all;
  // inScopeAt lists outermost and earliest first: the nearest bindings are the last ones.
  return { bindings: matching.slice(-MAX_VARIABLE_ITEMS), incomplete: true };
}

/** For a tool's or provider's name: whether the host grants tool(NAME) or model(NAME), and where. */
interface GrantCheck {
  readonly kind: "tool" | "model";
  readonly granted: readonly unknown[];
  readonly fileName: string;
}

function grantCheck(plan: AnalyzedPlan, kind: "tool" | "model"): GrantCheck | undefined {
  return plan.host && { kind, granted: plan.host.capabilities, fileName: plan.host.fileName };
}

/**
 * The host's entries of one registry. A tool or provider whose capability the host does not
 * grant is still offered (the plan may be meant for another profile, or the grant is next), but
 * says so and sorts after the granted ones: picking it would be flagged at once.
 */
function registryItems(
  site: Site,
  registry: ReadonlyMap<string, HostEntry> | undefined,
  kind: CompletionItemKind,
  grants?: GrantCheck,
): CompletionItem[] {
  return [...(registry ?? new Map<string, HostEntry>())].map(([name, entry]) => {
    const needed = grants && { kind: grants.kind, name };
    const denied = grants && needed && !grantsCapability(grants.granted, needed) ? needed : undefined;
    const detail = stripMarkdown(entry.summary);
    return {
      ...value(
        site,
        name,
        kind,
        denied
          ? `${detail}; not granted by ${grants?.fileName}: add ${formatCapability(denied)} to "capabilities"`
          : detail,
      ),
      ...(denied ? { labelDetails: { description: "not granted" }, sortText: `1 ${name}` } : {}),
      ...(grants && !denied ? { sortText: `0 ${name}` } : {}),
      ...(entry.description ? { documentation: entry.description } : {}),
    };
  });
}

function stripMarkdown(text: string): string {
  return text.replace(/`/g, "");
}

/** The key or literal token the cursor is in or after (getLocation's previousNode). */
interface PreviousToken {
  readonly offset: number;
  readonly length: number;
  readonly type: string;
}

function siteOf(document: TextDocument, offset: number, previous: PreviousToken | undefined): Site {
  const literal =
    previous && previous.type !== "property" && offset >= previous.offset && offset <= previous.offset + previous.length
      ? previous
      : undefined;
  const start = literal ? literal.offset : offset;
  const end = literal ? literal.offset + literal.length : offset;
  const text = literal ? document.getText().slice(start, end) : "";
  const closedString =
    literal?.type === "string" && text.length >= 2 && text.endsWith('"') && offset > start && offset < end;
  return {
    range: { start: document.positionAt(start), end: document.positionAt(end) },
    replacing: literal !== undefined,
    ...(closedString ? { inner: { start: document.positionAt(start + 1), end: document.positionAt(end - 1) } } : {}),
    typed: literal ? document.getText().slice(start, offset).replace(/^"/, "") : "",
  };
}

/** A JSON string value: replaces the literal under the cursor, or inserts a quoted string. */
function value(site: Site, label: string, kind: CompletionItemKind, detail?: string): CompletionItem {
  const quoted = JSON.stringify(label);
  const newText = site.inner ? quoted.slice(1, -1) : quoted;
  return {
    label,
    kind,
    ...(detail ? { detail } : {}),
    textEdit: { range: site.inner ?? site.range, newText },
    filterText: newText,
  };
}

function snippet(site: Site, label: string, body: string, detail: string): CompletionItem {
  return {
    label,
    kind: CompletionItemKind.Snippet,
    detail,
    insertTextFormat: InsertTextFormat.Snippet,
    textEdit: { range: site.range, newText: body },
    filterText: label,
  };
}

// ---- host profiles ----------------------------------------------------------------------------

/**
 * In a host profile's "capabilities" list: the fixed capabilities, tool(NAME) and model(NAME)
 * for what the profile registers, and what the open plans use; minus what the list has.
 */
export function hostProfileCompletion(
  document: TextDocument,
  position: Position,
  usedByPlans: readonly string[],
): CompletionItem[] {
  const text = document.getText();
  const root = parseJsoncDocument(text).tree();
  if (!root) return [];
  const offset = document.offsetAt(position);
  const location = getLocation(text, offset);
  const path = location.path;
  if (location.isAtPropertyKey || path.length !== 2 || path[0] !== "capabilities" || typeof path[1] !== "number")
    return [];
  const site = siteOf(document, offset, location.previousNode);
  const keys = (section: string): string[] =>
    (propertyValue(root, section)?.children ?? []).flatMap((property) => {
      const key = property.children?.[0]?.value;
      return typeof key === "string" ? [key] : [];
    });
  const listed = new Set(
    (propertyValue(root, "capabilities")?.children ?? []).flatMap((item, i) =>
      i !== path[1] && item.type === "string" && typeof item.value === "string" ? [item.value] : [],
    ),
  );
  const registered = [
    ...keys("tools").map((name) => formatCapability({ kind: "tool", name })),
    ...keys("providers").map((name) => formatCapability({ kind: "model", name })),
  ];
  const extra = [...new Set([...registered, ...usedByPlans])].filter((c) => !FIXED_CAPABILITIES.includes(c)).sort();
  return [...FIXED_CAPABILITIES, ...extra]
    .filter((capability) => !listed.has(capability))
    .map((capability) =>
      value(site, capability, CompletionItemKind.EnumMember, capabilityHelp(capability, usedByPlans)),
    );
}

/** The capabilities a plan's steps need, as the reference writes them (the model's needs). */
export function capabilitiesUsedBy(plan: AnalyzedPlan): readonly string[] {
  return modelOf(plan)?.needs().capabilities ?? [];
}

function capabilityHelp(capability: string, usedByPlans: readonly string[]): string | undefined {
  return usedByPlans.includes(capability) ? "used by an open plan" : undefined;
}
