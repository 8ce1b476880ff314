// Completion of property names: in a plan, a step, an action, a selector, a strategy or a
// reference, the keys its form has and the object does not (its discriminator first, then the
// required ones, then the optional ones), each inserted with a snippet of its value. The keys
// and what they hold come from the AST's vocabulary tables.

import {
  ACTION_FIELDS,
  CONTEXT_ACTIONS,
  DISCRIMINATORS,
  OPERATIONS,
  PARTITION_STRATEGIES,
  PLAN_FIELDS,
  REFERENCE_FIELDS,
  REFERENCE_KINDS,
  SELECTOR_FIELDS,
  SELECTOR_TYPES,
  STEP_FIELDS,
  STRATEGY_FIELDS,
  type FieldTable,
  type JsonPath,
} from "@rlm-plan/core";
import { fieldValueSnippet, formChoiceSnippet } from "@rlm-plan/core/plan";
import type { Node } from "jsonc-parser";
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type Range } from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { isPlanPath, isStepPath, nodeAt, stringProperty } from "./planTree";

/** The keys an object may have: its discriminator (with the forms it names) and its fields. */
export interface KeySet {
  readonly discriminator?: { readonly key: string; readonly forms: readonly string[] };
  /** Undefined until the discriminator says which form the object is. */
  readonly fields: FieldTable | undefined;
}

function tableOf<K extends string>(tables: Readonly<Record<K, FieldTable>>, form: string | undefined) {
  return form !== undefined && Object.hasOwn(tables, form) ? tables[form as K] : undefined;
}

/** What kind of object the one at `path` is, by where it is and what it says it is. */
export function keySetAt(root: Node | undefined, path: JsonPath): KeySet | undefined {
  const object = nodeAt(root, path);
  const last = path[path.length - 1];
  const parent = path.slice(0, -1);
  const form = (key: string) => stringProperty(object, key);
  if (isStepPath(path)) {
    return {
      discriminator: { key: DISCRIMINATORS.step, forms: OPERATIONS },
      fields: tableOf(STEP_FIELDS, form(DISCRIMINATORS.step)),
    };
  }
  if (isPlanPath(path)) return { fields: PLAN_FIELDS };
  if (last === "action" && isStepPath(parent)) {
    return {
      discriminator: { key: DISCRIMINATORS.action, forms: CONTEXT_ACTIONS },
      fields: tableOf(ACTION_FIELDS, form(DISCRIMINATORS.action)),
    };
  }
  if (last === "selector" && parent[parent.length - 1] === "action") {
    return {
      discriminator: { key: DISCRIMINATORS.selector, forms: SELECTOR_TYPES },
      fields: tableOf(SELECTOR_FIELDS, form(DISCRIMINATORS.selector)),
    };
  }
  if (last === "strategy" && parent[parent.length - 1] === "action") {
    return { discriminator: { key: DISCRIMINATORS.strategy, forms: PARTITION_STRATEGIES }, fields: STRATEGY_FIELDS };
  }
  const ref = form(DISCRIMINATORS.reference);
  // An object without "ref" in an expression is data: its keys are the author's.
  if (ref !== undefined) {
    return {
      discriminator: { key: DISCRIMINATORS.reference, forms: REFERENCE_KINDS },
      fields: tableOf(REFERENCE_FIELDS, ref),
    };
  }
  return undefined;
}

/**
 * Key completions for the property at `path` (its last segment is the key being typed). `key`
 * is the key token under the cursor, replaced; without one, the key is inserted at `offset`.
 */
export function keyCompletion(
  document: TextDocument,
  root: Node | undefined,
  path: JsonPath,
  offset: number,
  key: { readonly offset: number; readonly length: number } | undefined,
): CompletionItem[] {
  const objectPath = path.slice(0, -1);
  const keys = keySetAt(root, objectPath);
  if (!keys) return [];
  const object = nodeAt(root, objectPath);
  const typed = key ? document.getText().slice(key.offset, key.offset + key.length) : undefined;
  const present = new Set(
    (object?.children ?? []).flatMap((property) => {
      const name = property.children?.[0];
      // The key being typed is not "present": it is what this completion replaces.
      return name && typeof name.value === "string" && name.offset !== key?.offset ? [name.value] : [];
    }),
  );
  const start = key ? key.offset : offset;
  const end = key ? key.offset + key.length : offset;
  const range: Range = { start: document.positionAt(start), end: document.positionAt(end) };
  // Renaming an existing key keeps its value: only the key is replaced.
  const hasValue = /^\s*:/.test(document.getText().slice(end));
  const candidates: { name: string; value: string; detail: string }[] = [];
  if (keys.discriminator) {
    const { key: name, forms } = keys.discriminator;
    candidates.push({ name, value: formChoiceSnippet(forms), detail: "which form this is" });
  }
  const fields = Object.entries(keys.fields ?? {});
  for (const required of [true, false]) {
    for (const [name, spec] of fields) {
      if (spec.required !== required) continue;
      candidates.push({ name, value: fieldValueSnippet(name, spec.kind), detail: required ? "required" : "optional" });
    }
  }
  return candidates
    .filter((candidate) => !present.has(candidate.name))
    .map((candidate, index) => ({
      label: candidate.name,
      kind: CompletionItemKind.Property,
      detail: candidate.detail,
      sortText: String(index).padStart(3, "0"),
      filterText: typed?.startsWith('"') ? JSON.stringify(candidate.name) : candidate.name,
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: {
        range,
        newText: hasValue ? JSON.stringify(candidate.name) : `${JSON.stringify(candidate.name)}: ${candidate.value}`,
      },
    }));
}
