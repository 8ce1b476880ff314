// What a host profile tells the plan's type rules (plan/types/): each input's type (a context
// handle of a text or a list, or a value's declared schema or its own literal type), which
// providers answer with the runtime's model reply, the tools' result schemas and the plan's
// result schema. check, the editor and the debugger build it here, from the same profile.

import type { ToolKnowledge } from "../plan/toolArgumentChecks";
import type { TypeHost } from "../plan/types/planTypes";
import { typeOfSchema, typeOfValue, type ValueType } from "../plan/types/valueType";
import type { HostProfile, InputSpec } from "./profile";

export function hostTypes(profile: HostProfile, tools: ToolKnowledge): TypeHost {
  const inputs = new Map<string, ValueType>();
  const inputType = (name: string): ValueType | undefined => {
    const spec = profile.inputs.get(name);
    if (!spec) return undefined;
    let type = inputs.get(name);
    if (!type) {
      type = typeOfInput(spec);
      inputs.set(name, type);
    }
    return type;
  };
  return {
    tools,
    // Every provider a profile declares is an OpenAI-compatible chat endpoint (providers/openaiChat.ts).
    chatProviders: new Set(profile.providers.keys()),
    inputType,
    ...(profile.result !== undefined ? { result: profile.result } : {}),
  };
}

function typeOfInput(spec: InputSpec): ValueType {
  switch (spec.type) {
    case "text":
    case "text-file":
      return { kind: "handle", context: "text" };
    case "items":
    case "items-file":
      return { kind: "handle", context: "terms" };
    case "value":
      return spec.schema !== undefined ? typeOfSchema(spec.schema) : typeOfValue(spec.value);
  }
}
