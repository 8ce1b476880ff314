// The quick fixes of each diagnostic code, in the order they are offered: one module per fix
// (in the manner of actions/languageservices), this table the one place that says which applies.

import {
  CONTEXT_ACTIONS,
  MAP_TRANSFORMS,
  OPERATIONS,
  PARTITION_STRATEGIES,
  REDUCERS,
  REFERENCE_KINDS,
  SELECTOR_TYPES,
} from "@rlm-plan/core";
import type { CodeAction } from "vscode-languageserver-protocol";
import { addBindingStep } from "./addBindingStep";
import { addFinal } from "./addFinal";
import type { FixContext, QuickFix } from "./fixKit";
import { grantCapability } from "./grantCapability";
import { insertMissingField } from "./insertMissingField";
import { moveFinal } from "./moveFinal";
import { raiseBudget } from "./raiseBudget";
import { removeKey } from "./removeKey";
import { renameDuplicate } from "./renameDuplicate";
import { renameKey } from "./renameKey";
import { replaceName } from "./replaceName";
import { replaceUnboundVariable } from "./unboundVariable";
import { openHostProfileSection, replaceUnregistered } from "./unknownRegistered";

/** Codes whose token is a name from a fixed list, and that list. */
const VALID_NAMES: Readonly<Record<string, readonly string[]>> = {
  unknown_operator: OPERATIONS,
  unknown_context_action: CONTEXT_ACTIONS,
  invalid_map_transform: MAP_TRANSFORMS,
  invalid_reducer: REDUCERS,
  unknown_selector: SELECTOR_TYPES,
  unknown_partition_strategy: PARTITION_STRATEGIES,
  unknown_reference: REFERENCE_KINDS,
};

/** The first of `fixes` that applies (alternatives of which only one makes sense). */
const firstOf =
  (...fixes: QuickFix[]): QuickFix =>
  (context) => {
    for (const fix of fixes) {
      const action = fix(context);
      if (action) return action;
    }
    return undefined;
  };

const FIXES: Readonly<Record<string, readonly QuickFix[]>> = {
  unbound_variable: [replaceUnboundVariable, addBindingStep],
  final_must_be_unique_and_last: [firstOf(moveFinal, addFinal)],
  missing_field: [insertMissingField],
  budget_exceeded: [raiseBudget],
  duplicate_binding: [renameDuplicate],
  unknown_key: [renameKey, removeKey],
  unknown_model_option: [renameKey, removeKey],
  // A field the value's type does not have: read the nearest one it has.
  unknown_field: [renameKey],
  capability_denied: [grantCapability],
  unknown_tool: [replaceUnregistered, openHostProfileSection],
  unknown_provider: [replaceUnregistered, openHostProfileSection],
};

/** The quick fixes for one diagnostic and the problem it stands for. */
export function fixesFor(context: FixContext): CodeAction[] {
  const code = context.problem.reason ?? context.problem.kind;
  const names = Object.hasOwn(VALID_NAMES, code) ? VALID_NAMES[code] : undefined;
  const fixes: readonly QuickFix[] = names
    ? [({ plan, problem, diagnostic }) => replaceName(plan, problem, diagnostic, names)]
    : Object.hasOwn(FIXES, code)
      ? (FIXES[code] ?? [])
      : [];
  return fixes.flatMap((fix) => fix(context) ?? []);
}
