// Quick fix: an unbound variable becomes the nearest name in scope at the reference.

import type { CodeAction } from "vscode-languageserver-protocol";
import { modelOf } from "../planNames";
import { tokenAt, type FixContext } from "./fixKit";
import { replaceName } from "./replaceName";

export function replaceUnboundVariable({ plan, problem, diagnostic }: FixContext): CodeAction | undefined {
  if (!problem.path) return undefined;
  const inScope = (modelOf(plan)?.inScopeAt(problem.path) ?? []).map((binding) => binding.name);
  const token = tokenAt(plan, problem);
  const written = typeof token?.value === "string" ? token.value : "";
  return replaceName(plan, problem, diagnostic, inScope, "variable", Math.max(2, Math.floor(written.length / 2)));
}
