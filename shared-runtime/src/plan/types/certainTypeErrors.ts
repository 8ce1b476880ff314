// The type problems a run refuses before its first step: tool arguments a tool's input schema
// certainly refuses (literal or computed, the type known) and model prompts that are certainly
// not text. The same rules `check` and the editor report (toolArgumentChecks.ts, typeProblems.ts),
// asked of a plan a run is about to execute; an unknown type is never judged.

import type { Plan } from "../ast";
import type { PlanProblem } from "../problems";
import { toolArgumentProblems, type ToolKnowledge } from "../toolArgumentChecks";
import { validatePlan } from "../validate";
import type { TypeHost } from "./planTypes";
import { promptProblems } from "./typeProblems";

/** What a run types its plan by: the host's tool knowledge and type host (MCP tools as the preflight listed them). */
export interface RunTyping {
  readonly tools: ToolKnowledge;
  readonly host: TypeHost;
}

/** Every certain type problem of `plan` (valid already), in step order: tool arguments, then prompts. */
export function certainTypeErrors(plan: Plan, typing: RunTyping): PlanProblem[] {
  // Capabilities and budget were checked; only the semantic model (its references) is wanted here.
  const model = validatePlan(plan, { collectAll: true, model: true }).model;
  if (!model) return [];
  const types = model.types({ ...typing.host, tools: typing.tools });
  const problems = toolArgumentProblems(model, typing.tools, types).filter((p) => p.kind === "invalid_tool_arguments");
  return [...problems, ...promptProblems(model, types)];
}
