// Arguments piped to a command tool are bounded: a plan can build a huge value out of references
// (20,000 copies of a 30 KB text) and would otherwise pipe hundreds of megabytes to a program.
// They are measured without building their text (outputMeasure.ts) and refused above the limit,
// before the program starts. Built-in tools work on the values in place and need no limit; no
// arguments are charged to the output budget, as in the reference runtime, so budgets agree.

import { jsonByteLength } from "./outputMeasure";

/** The largest arguments a command tool is given, in bytes of JSON text. */
export const MAX_TOOL_ARGUMENT_BYTES = 8 * 1024 * 1024;

/** Why the arguments are refused, or undefined when they fit. */
export function hugeArgumentsReason(args: unknown): string | undefined {
  const bytes = jsonByteLength(args) ?? 0;
  if (bytes <= MAX_TOOL_ARGUMENT_BYTES) return undefined;
  return `was not started: its arguments are ${bytes} bytes of JSON, over the limit of ${MAX_TOOL_ARGUMENT_BYTES}; pass a context handle or a smaller value`;
}
