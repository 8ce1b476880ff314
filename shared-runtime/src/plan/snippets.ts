// Snippet bodies (the LSP and TextMate snippet syntax) for each form of the plan vocabulary,
// built from the AST's tables: completion inserts the inline ones, the generated snippets file
// (`npm run generate`) holds the block ones. A form's required fields each get a tab stop;
// enumerations become choices.

import {
  DISCRIMINATORS,
  MAP_TRANSFORMS,
  PARTITION_STRATEGIES,
  REDUCERS,
  SELECTOR_CONSTANTS,
  STRATEGY_FIELDS,
  type FieldKind,
  type FieldTable,
} from "./ast";

/** "inline": one line, tab stops empty (completion); "block": one field a line, with hints. */
export type SnippetLayout = "inline" | "block";

/** Example numbers for integer fields: a sensible first value to type over. */
const EXAMPLE_NUMBERS: Readonly<Record<string, string>> = {
  attempts: "3",
  start: "0",
  length: "1000",
  count: "10",
  index: "0",
  size: "1000",
};

/** `{"op": "context", "handle": ${1}, ...}`: a form with its discriminator and required fields. */
export function formSnippet(
  discriminator: string,
  form: string,
  fields: FieldTable,
  layout: SnippetLayout = "inline",
): string {
  const stops = { next: 1 };
  const members: [string, string][] = [[discriminator, JSON.stringify(form)]];
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.required) members.push([key, fieldSnippet(key, spec.kind, layout, stops)]);
  }
  if (layout === "inline") return `{${members.map(([key, value]) => `"${key}": ${value}`).join(", ")}}`;
  return `{\n${members.map(([key, value]) => `\t"${key}": ${value}`).join(",\n")}\n}`;
}

/** The value of one field, as completion inserts it after the field's key. */
export function fieldValueSnippet(key: string, kind: FieldKind): string {
  return fieldSnippet(key, kind, "inline", { next: 1 });
}

/** A discriminator's value: a choice of the family's forms. */
export function formChoiceSnippet(forms: readonly string[]): string {
  return `"\${1|${forms.join(",")}|}"`;
}

function fieldSnippet(key: string, kind: FieldKind, layout: SnippetLayout, stops: { next: number }): string {
  // A tab stop; in block layout with a hint to type over (completion leaves it empty).
  const stop = (hint?: string): string =>
    hint === undefined || layout === "inline" ? `\${${stops.next++}}` : `\${${stops.next++}:${hint}}`;
  const value = (text: string): string => `\${${stops.next++}:${text}}`;
  const choice = (names: readonly string[]): string => `\${${stops.next++}|${names.join(",")}|}`;
  switch (kind) {
    case "expression":
    case "any":
      return stop("null");
    case "name":
    case "bind":
    case "text":
    case "label":
      return `"${stop(key)}"`;
    case "integer":
    case "positive":
      return value(EXAMPLE_NUMBERS[key] ?? "0");
    case "plan":
      return `{"steps": [${stop()}]}`;
    case "plans":
      return `[{"steps": [${stop()}]}]`;
    case "steps":
    case "list":
      return `[${stop()}]`;
    case "options":
    case "action":
      return stop();
    case "selector":
      return value(JSON.stringify(SELECTOR_CONSTANTS[0]));
    case "strategy": {
      const members = [`"${DISCRIMINATORS.strategy}": "${choice(PARTITION_STRATEGIES)}"`];
      for (const [field, spec] of Object.entries(STRATEGY_FIELDS)) {
        members.push(`"${field}": ${fieldSnippet(field, spec.kind, layout, stops)}`);
      }
      return `{${members.join(", ")}}`;
    }
    case "transform":
      return `"${choice(MAP_TRANSFORMS)}"`;
    case "reducer":
      return `"${choice(REDUCERS)}"`;
  }
}
