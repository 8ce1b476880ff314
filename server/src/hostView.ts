// What the editor features know about the host profile in force for a plan: granted
// capabilities, the budget, and the names (with safe one-line summaries) of its inputs, tools
// and providers. Built from the runtime's host profile; never holds a key or a secret's value.

import type { ToolKnowledge } from "@rlm-plan/core/plan/toolArguments";
import type { DataLimits } from "@rlm-plan/core";

export interface HostEntry {
  /** The profile's own description of the entry, if it has one. */
  readonly description?: string;
  /** What the host registered, as Markdown: "built-in tool `count_items`", "command `python3`". */
  readonly summary: string;
}

export interface HostView {
  /** Absolute path of the host profile file. */
  readonly file: string;
  /** The file's base name, for messages. */
  readonly fileName: string;
  /** Granted capabilities as the profile lists them (checked by the runtime's validator). */
  readonly capabilities: readonly unknown[];
  /** The profile's budget ("default" or a partial object), undefined for the default budget. */
  readonly budget: unknown;
  readonly inputs: ReadonlyMap<string, HostEntry>;
  /** The profile's own tools, then the MCP tools its servers listed (when they have been asked). */
  readonly tools: ReadonlyMap<string, HostEntry>;
  readonly providers: ReadonlyMap<string, HostEntry>;
  /** What the runtime knows of the tools: names MCP servers may offer, input schemas, unreachable servers. */
  readonly toolKnowledge: ToolKnowledge;
  /** Its context.max_results (or the default) and which tools run which built-in. */
  readonly dataLimits: DataLimits;
}

/** What is known about the host of one plan: none found, a profile with errors, or a usable one. */
export type HostStatus =
  | { readonly kind: "none" }
  | {
      readonly kind: "invalid";
      readonly file: string;
      readonly fileName: string;
      readonly errorCount: number;
      /** The first problem: 1-based line and column in the profile, and the loader's message. */
      readonly first: { readonly line: number; readonly column: number; readonly message: string } | undefined;
    }
  | { readonly kind: "ok"; readonly view: HostView };
