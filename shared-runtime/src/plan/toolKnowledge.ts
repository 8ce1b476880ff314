// What a host knows of its tools beyond their names (descriptions, input and output schemas):
// the interface the type rules, the argument checks, hover and completion ask. A leaf, so the
// type rules need not import the argument checks that use them.

import type { JsonObject } from "../json";

/** What a host knows of one tool beyond its name: for checking, hover and completion. */
export interface ToolSignature {
  readonly description?: string;
  readonly inputSchema?: JsonObject;
  readonly outputSchema?: JsonObject;
  /** Where the tool comes from, for people: `MCP server "everything"`, `command tool`. */
  readonly source?: string;
}

/** What a host knows of its tools, for checking plans, hover and completion. */
export interface ToolKnowledge {
  /** Whether the host offers a tool by this name. */
  has(name: string): boolean;
  signature(name: string): ToolSignature | undefined;
  /** Why the tool's source could not be asked (an MCP server that did not start), if it could not. */
  unavailable(name: string): string | undefined;
}
