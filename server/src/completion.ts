// Completion: operations (as whole-step snippets in a steps list, as names at "op"), action
// types and their selectors, strategies, transforms and reducers, reference kinds, variables in
// scope at the cursor, and the host profile's inputs, tools and providers; in a host profile,
// capability strings. The cursor's place is jsonc-parser's getLocation's (from the cached tree
// where the text before the cursor is sound, see cursorLocation.ts), so half-typed text
// completes too.

import {
  CONTEXT_ACTIONS,
  formatCapability,
  MAP_TRANSFORMS,
  OPERATIONS,
  parseJsoncDocument,
  PARTITION_STRATEGIES,
  REDUCERS,
  requiredCapability,
  SELECTOR_TYPES,
  type JsonPath,
} from "@rlm-plan/shared-runtime";
import { getLocation } from "jsonc-parser";
import {
  CompletionItemKind,
  InsertTextFormat,
  type CompletionItem,
  type Position,
  type Range,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { AnalyzedPlan } from "./analyzedPlan";
import { bindingIndex } from "./bindingIndex";
import { cursorLocation } from "./cursorLocation";
import { OPERATION_HELP } from "./hover";
import type { HostEntry } from "./hostView";
import { argumentKeyCompletion } from "./toolSignature";
import { isStepPath, nodeAt, propertyValue, stringProperty } from "./planTree";

/** Whole-step snippets, one per operation. */
export const STEP_SNIPPETS: Readonly<Record<(typeof OPERATIONS)[number], string>> = {
  context: '{"op": "context", "handle": ${1}, "action": ${2}, "bind": "${3}"}',
  model: '{"op": "model", "provider": "${1}", "prompt": ${2}, "bind": "${3}"}',
  rlm: '{"op": "rlm", "plan": {"steps": [${1}]}, "bind": "${2}"}',
  tool: '{"op": "tool", "name": "${1}", "args": ${2}, "bind": "${3}"}',
  parallel: '{"op": "parallel", "plans": [{"steps": [${1}]}], "bind": "${2}"}',
  retry: '{"op": "retry", "attempts": ${1:3}, "plan": {"steps": [${2}]}, "bind": "${3}"}',
  checkpoint: '{"op": "checkpoint", "label": "${1}"}',
  final: '{"op": "final", "value": ${1}}',
};

export const ACTION_SNIPPETS: Readonly<Record<(typeof CONTEXT_ACTIONS)[number], string>> = {
  search: '{"type": "search", "pattern": "${1}"}',
  slice: '{"type": "slice", "start": ${1:0}, "length": ${2:1000}}',
  peek: '{"type": "peek", "selector": ${1:"metadata"}}',
  partition: '{"type": "partition", "strategy": {"type": "${1|fixed,lines|}", "size": ${2:1000}}}',
  map: '{"type": "map", "transform": "${1|identity,lowercase,uppercase,length|}"}',
  reduce: '{"type": "reduce", "reducer": "${1|count,byte_count|}"}',
};

const ACTION_HELP: Readonly<Record<(typeof CONTEXT_ACTIONS)[number], string>> = {
  search: "lines that contain a pattern",
  slice: "a range of characters or items",
  peek: "metadata, the first or last items, or one item",
  partition: "split into chunks of a fixed size or of lines",
  map: "transform every item",
  reduce: "count items or bytes",
};

const SELECTOR_SNIPPETS: Readonly<Record<(typeof SELECTOR_TYPES)[number], string>> = {
  head: '{"type": "head", "count": ${1:10}}',
  tail: '{"type": "tail", "count": ${1:10}}',
  item: '{"type": "item", "index": ${1:0}}',
};

const REF_KINDS = ["input", "var", "field"] as const;
const REF_SNIPPETS: Readonly<Record<(typeof REF_KINDS)[number], string>> = {
  input: '{"ref": "input", "name": "${1}"}',
  var: '{"ref": "var", "name": "${1}"}',
  field: '{"ref": "field", "value": ${1}, "key": "${2}"}',
};
const REF_HELP: Readonly<Record<(typeof REF_KINDS)[number], string>> = {
  input: "a named input of the host",
  var: "a variable bound by an earlier step",
  field: "a field of an object value",
};

/** Step fields that hold an expression. */
const EXPRESSION_FIELDS: ReadonlySet<string> = new Set(["handle", "prompt", "args", "value"]);

/** Where the completion goes: the literal under the cursor (replaced) or an empty range. */
interface Site {
  readonly range: Range;
  /** True when a literal under the cursor is replaced (not an insertion at the cursor). */
  readonly replacing: boolean;
}

export function completion(plan: AnalyzedPlan, position: Position): CompletionItem[] {
  const document = plan.document;
  const tree = plan.tree;
  // Text nested too deep to walk has no tree; getLocation would recurse as deep as the text.
  if (!tree) return [];
  const offset = document.offsetAt(position);
  const location = cursorLocation(document.getText(), tree, plan.analysis.document.syntaxErrors, offset);
  const path = location.path;
  if (location.isAtPropertyKey) return argumentKeyCompletion(plan, tree, path, location.previous, offset);
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
            value(site, "metadata", CompletionItemKind.EnumMember, "the context's metadata"),
            ...SELECTOR_TYPES.map((type) => snippet(site, type, SELECTOR_SNIPPETS[type], `selector: ${type}`)),
          ]
        : [];
    case "strategy":
      return inAction
        ? PARTITION_STRATEGIES.map((type) =>
            snippet(
              site,
              type,
              `{"type": "${type}", "size": \${1:1000}}`,
              `strategy: chunks of ${type === "fixed" ? "characters" : "lines"}`,
            ),
          )
        : [];
    case "transform":
      return inAction ? MAP_TRANSFORMS.map((name) => value(site, name, CompletionItemKind.EnumMember)) : [];
    case "reducer":
      return inAction ? REDUCERS.map((name) => value(site, name, CompletionItemKind.EnumMember)) : [];
    case "ref":
      return REF_KINDS.map((kind) => value(site, kind, CompletionItemKind.Keyword, REF_HELP[kind]));
    case "name": {
      const ref = stringProperty(owner, "ref");
      if (ref === "var") return variableItems(plan, site, path);
      if (ref === "input") return registryItems(site, plan.host?.inputs, CompletionItemKind.Constant);
      if (inStep && stringProperty(owner, "op") === "tool")
        return registryItems(site, plan.host?.tools, CompletionItemKind.Function);
      return [];
    }
    case "provider":
      return inStep ? registryItems(site, plan.host?.providers, CompletionItemKind.Module) : [];
    default:
      if (inStep && EXPRESSION_FIELDS.has(last)) return expressionItems(plan, site, path);
      if (last === "value" && stringProperty(owner, "ref") === "field") return expressionItems(plan, site, path);
      return [];
  }
}

/** At an expression: the three reference shapes, then each variable in scope as a reference. */
function expressionItems(plan: AnalyzedPlan, site: Site, path: JsonPath): CompletionItem[] {
  if (site.replacing) return [];
  const refs = REF_KINDS.map((kind) => snippet(site, `${kind} reference`, REF_SNIPPETS[kind], REF_HELP[kind]));
  const reference = (label: string, kind: CompletionItemKind, detail: string, ref: string): CompletionItem => ({
    label,
    kind,
    detail,
    textEdit: { range: site.range, newText: `{"ref": "${ref}", "name": ${JSON.stringify(label)}}` },
    filterText: label,
  });
  const variables = bindingIndex(plan)
    .inScopeAt(path)
    .map((binding) =>
      reference(binding.name, CompletionItemKind.Variable, `variable bound by a ${binding.op ?? "step"} step`, "var"),
    );
  const inputs = [...(plan.host?.inputs ?? new Map<string, HostEntry>())].map(([name, entry]) =>
    reference(name, CompletionItemKind.Constant, `input: ${stripMarkdown(entry.summary)}`, "input"),
  );
  return [...refs, ...variables, ...inputs];
}

function variableItems(plan: AnalyzedPlan, site: Site, path: JsonPath): CompletionItem[] {
  return bindingIndex(plan)
    .inScopeAt(path)
    .map((binding) => {
      const line = plan.document.positionAt(binding.nameNode.offset).line + 1;
      return value(
        site,
        binding.name,
        CompletionItemKind.Variable,
        `bound on line ${line} by a ${binding.op ?? "step"} step`,
      );
    });
}

function registryItems(
  site: Site,
  registry: ReadonlyMap<string, HostEntry> | undefined,
  kind: CompletionItemKind,
): CompletionItem[] {
  return [...(registry ?? new Map<string, HostEntry>())].map(([name, entry]) => ({
    ...value(site, name, kind, stripMarkdown(entry.summary)),
    ...(entry.description ? { documentation: entry.description } : {}),
  }));
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
  return {
    range: { start: document.positionAt(start), end: document.positionAt(end) },
    replacing: literal !== undefined,
  };
}

/** A JSON string value: replaces the literal under the cursor, or inserts a quoted string. */
function value(site: Site, label: string, kind: CompletionItemKind, detail?: string): CompletionItem {
  const newText = JSON.stringify(label);
  return {
    label,
    kind,
    ...(detail ? { detail } : {}),
    textEdit: { range: site.range, newText },
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

/** Capabilities every host may grant, in the reference's order. */
export const FIXED_CAPABILITIES: readonly string[] = [
  ...CONTEXT_ACTIONS.map((action) => `context(${action})`),
  "rlm",
  "parallel",
  "retry",
  "checkpoint",
];

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

/** The capabilities a plan's steps need, as the reference writes them. */
export function capabilitiesUsedBy(plan: AnalyzedPlan): string[] {
  const used: string[] = [];
  for (const step of plan.analysis.estimates?.steps.keys() ?? []) {
    const capability = requiredCapability(step);
    if (capability) used.push(formatCapability(capability));
  }
  return used;
}

function capabilityHelp(capability: string, usedByPlans: readonly string[]): string | undefined {
  return usedByPlans.includes(capability) ? "used by an open plan" : undefined;
}
