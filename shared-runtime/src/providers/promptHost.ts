// A host profile as the propose prompt may describe it: capabilities, the resolved budget, and
// providers, tools and inputs by name, kind and description; never an input's contents or path.

import { BUILTIN_TOOLS, isBuiltinToolName } from "../host/builtinTools";
import type { HostProfile, InputSpec, ToolSpec } from "../host/profile";
import type { Budget } from "../plan/budget";
import type { PlanPromptHost, PromptInput } from "./planPrompt";

/** What the prompt may say about the host: names, kinds and descriptions, never contents. */
export function promptHost(profile: HostProfile, budget: Budget): PlanPromptHost {
  const entries = <T extends { readonly description?: string }>(map: ReadonlyMap<string, T>) =>
    [...map].map(([name, spec]) => ({ name, description: spec.description }));
  return {
    capabilities: profile.capabilities,
    budget,
    providers: entries(profile.providers),
    tools: [...profile.tools].map(([name, spec]) => ({ name, description: toolDescription(spec) })),
    inputs: [...profile.inputs].map(([name, spec]): PromptInput => ({
      name,
      kind: inputKind(spec),
      description: spec.description,
    })),
  };
}

/** The profile's description, or for a built-in tool what it computes and takes. */
function toolDescription(spec: ToolSpec): string | undefined {
  if (spec.description !== undefined || spec.type !== "builtin" || !isBuiltinToolName(spec.builtin))
    return spec.description;
  const info = BUILTIN_TOOLS[spec.builtin];
  return `${info.description} Args: ${info.args}. Result: ${info.result}.`;
}

function inputKind(spec: InputSpec): PromptInput["kind"] {
  switch (spec.type) {
    case "text":
    case "text-file":
      return "text context";
    case "items":
    case "items-file":
      return "items context";
    case "value":
      return "value";
  }
}
