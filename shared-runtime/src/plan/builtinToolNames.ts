// The names of the runtime's built-in tools, in the plan layer so that the static analysis
// (dataLimits.ts, silentCaps.ts) knows them without loading the host; host/builtinTools.ts
// implements and documents one tool per name (its table is typed by these names, so the two
// lists cannot drift).

export const BUILTIN_TOOL_NAMES = ["count_items", "sum", "join", "unique", "sort", "pick", "length"] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}
