// Quick fix: a missing required field inserted at the end of its object with a placeholder value,
// the one key completion would insert with its tab stops taken out (a choice's first option, an
// example number, an empty name, `null` for an expression): the object is whole, the value to
// fill in is plain to see.

import { fieldValueSnippet } from "@rlm-plan/core/plan";
import type { CodeAction } from "vscode-languageserver-protocol";
import { keySetAt } from "../keyCompletion";
import { nodeAt } from "../planTree";
import { quickFix, type FixContext } from "./fixKit";

export function insertMissingField({ plan, problem, diagnostic }: FixContext): CodeAction | undefined {
  const field = /^missing_field\(([^()]+)\)$/.exec(problem.detail ?? "")?.[1];
  const path = problem.path;
  const object = path ? nodeAt(plan.tree, path) : undefined;
  if (!field || !path || object?.type !== "object") return undefined;
  const keys = keySetAt(plan.tree, path);
  const spec = keys?.fields && Object.hasOwn(keys.fields, field) ? keys.fields[field] : undefined;
  if (!spec) return undefined;
  // An empty name would be a new problem: a binding gets "result", other text its field's name.
  const value = plainValue(fieldValueSnippet(field, spec.kind), spec.kind === "bind" ? "result" : field);
  const members = object.children ?? [];
  const last = members[members.length - 1];
  const at = last ? last.offset + last.length : object.offset + 1;
  const text = `${last ? ", " : ""}${JSON.stringify(field)}: ${value}`;
  const where = plan.document.positionAt(at);
  return quickFix(
    `Add the missing ${JSON.stringify(field)}`,
    diagnostic,
    { [plan.document.uri]: [{ range: { start: where, end: where }, newText: text }] },
    true,
  );
}

/** A snippet's text with its tab stops filled: a choice's first option, `text` in quotes, else `null`. */
function plainValue(snippet: string, text: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|]*)[^|]*\|\}/g, "$1")
    .replace(/\$\{\d+:([^}]*)\}/g, "$1")
    .replace(/"\$\{\d+\}"/g, JSON.stringify(text))
    .replace(/\$\{\d+\}/g, "null");
}
