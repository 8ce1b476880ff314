// The snippets file (snippets/rlm-plan.code-snippets): a plan, one snippet per operation,
// context action and reference kind, each built by the runtime's formSnippet from the AST's
// tables (the bodies completion inserts, laid out one field a line) with the runtime's help.

import {
  ACTION_FIELDS,
  ACTION_HELP,
  CONTEXT_ACTIONS,
  DISCRIMINATORS,
  OPERATION_HELP,
  OPERATIONS,
  REFERENCE_FIELDS,
  REFERENCE_HELP,
  REFERENCE_KINDS,
  STEP_FIELDS,
} from "@rlm-plan/core";
import { formSnippet } from "@rlm-plan/core/plan/snippets";
import { PLAN_DOCS } from "@rlm-plan/core/plan/vocabularyHelp";

interface Snippet {
  readonly scope: string;
  readonly prefix: string;
  readonly description: string;
  readonly body: readonly string[];
}

const HEADER = [
  "// Generated from the runtime's vocabulary (npm run generate): do not edit. A plan, one snippet",
  '// per operation (prefix "step-OPERATION"), context action ("action-TYPE") and reference kind',
  '// ("ref-KIND"). The language server also completes steps and names in context.',
];

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function snippet(prefix: string, description: string, body: string): Snippet {
  return { scope: "rlm-plan", prefix, description, body: body.split("\n") };
}

export function snippetsFile(): string {
  const final = formSnippet(DISCRIMINATORS.step, "final", STEP_FIELDS.final);
  const entries: Record<string, Snippet> = {
    Plan: snippet("plan", PLAN_DOCS.description, `{\n\t"steps": [\n\t\t$0\n\t\t${final}\n\t]\n}`),
  };
  for (const op of OPERATIONS) {
    entries[`${capitalized(op)} step`] = snippet(
      `step-${op}`,
      OPERATION_HELP[op],
      formSnippet(DISCRIMINATORS.step, op, STEP_FIELDS[op], "block"),
    );
  }
  for (const type of CONTEXT_ACTIONS) {
    entries[`${capitalized(type)} action`] = snippet(
      `action-${type}`,
      `Context action: ${ACTION_HELP[type]}`,
      formSnippet(DISCRIMINATORS.action, type, ACTION_FIELDS[type]),
    );
  }
  for (const kind of REFERENCE_KINDS) {
    entries[`${capitalized(kind)} reference`] = snippet(
      `ref-${kind}`,
      capitalized(REFERENCE_HELP[kind]),
      formSnippet(DISCRIMINATORS.reference, kind, REFERENCE_FIELDS[kind]),
    );
  }
  return `${HEADER.join("\n")}\n${JSON.stringify(entries)}\n`;
}
