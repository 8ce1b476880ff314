// The host profile's shapes (what a parsed rlmplan.host.json holds) and its located errors,
// shared by the profile's reader, its rules, the mocks file and every consumer.

import type { JsonObject, JsonPath, JsonValue } from "../json";
import type { ProblemTarget } from "../plan/problems";
import type { OpenAIChatSpec } from "../providers/openaiChat";
import type { ParallelMode } from "../run/events";
import type { HostProfileError, SourceLocation } from "../run/runContract";
import type { ApprovalRule } from "./approvalRules";
import type { McpServerSpec } from "./mcp/spec";

export type { HostProfileError, SourceLocation };

/** Whether tool processes run in the operating-system sandbox (host/sandbox/, docs/security.md). */
export type SandboxMode = "preferred" | "required" | "off";

export type InputSpec =
  | { readonly type: "text-file"; readonly path: string; readonly description?: string }
  | { readonly type: "text"; readonly text: string; readonly description?: string }
  | {
      readonly type: "items-file";
      readonly path: string;
      readonly format?: "jsonl" | "json";
      readonly description?: string;
    }
  | { readonly type: "items"; readonly items: readonly JsonValue[]; readonly description?: string }
  | {
      readonly type: "value";
      readonly value: JsonValue;
      /** A JSON Schema of the value, for the type rules (plan/types/). */
      readonly schema?: JsonObject;
      readonly description?: string;
    };

/** Inputs registered in the context store (texts and item lists): the only context handles. */
export function contextInputNames(profile: Pick<HostProfile, "inputs">): Set<string> {
  const names = new Set<string>();
  for (const [name, spec] of profile.inputs) if (spec.type !== "value") names.add(name);
  return names;
}

export interface BuiltinToolSpec {
  readonly type: "builtin";
  /** One of BUILTIN_TOOL_NAMES (host/builtinTools.ts); the schema holds the same list. */
  readonly builtin: string;
  /** A JSON Schema of the arguments, checked against plans' literal arguments. */
  readonly inputSchema?: JsonObject;
  /** A JSON Schema of the tool's result, for the type rules (plan/types/). */
  readonly returns?: JsonObject;
  readonly description?: string;
}

export interface CommandToolSpec {
  readonly type: "command";
  /** argv: the program and its arguments; never passed to a shell. */
  readonly command: readonly string[];
  /** Relative to the profile's folder, which is also the default. */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly inheritEnv?: readonly string[];
  /** Paths the program may write in the sandbox (relative to the profile's folder, in the workspace). */
  readonly writes?: readonly string[];
  /** Whether the program may use the network in the sandbox (default false). */
  readonly network?: boolean;
  readonly timeoutMs?: number;
  readonly maxStdoutBytes?: number;
  readonly maxStderrBytes?: number;
  /** A JSON Schema of the arguments, checked against plans' literal arguments. */
  readonly inputSchema?: JsonObject;
  /** A JSON Schema of the tool's result, for the type rules (plan/types/). */
  readonly returns?: JsonObject;
  readonly description?: string;
}

export type ToolSpec = BuiltinToolSpec | CommandToolSpec;

/** A provider entry: the one provider kind there is, defined where it is implemented. */
export type ProviderSpec = OpenAIChatSpec;

export interface ContextOptions {
  readonly max_results?: number;
  readonly max_bytes?: number;
}

export interface HostProfile {
  /** Absolute path of the profile. */
  readonly file: string;
  /** Its folder: relative paths in the profile are relative to it. */
  readonly dir: string;
  readonly description?: string;
  readonly capabilities: readonly string[];
  /** The partial budget as written (already known to resolve), without max_cost; undefined for the default. */
  readonly budget: JsonObject | undefined;
  /** budget.max_cost: money a run's model calls may spend, in `currency`. */
  readonly maxCost?: number;
  /** The currency of prices and max_cost ("USD" unless the profile says). */
  readonly currency: string;
  readonly context: ContextOptions | undefined;
  /** How parallel branches run; undefined means the runtime's default (concurrent). */
  readonly parallel: ParallelMode | undefined;
  /** The run journal's folder (relative to `dir`) and whether runs are recorded (docs/journal.md). */
  readonly journal?: { readonly dir?: string; readonly enabled?: boolean };
  /** Where runs are exported as OpenTelemetry traces. */
  readonly telemetry?: { readonly otlp?: string };
  /** Whether tool processes run in the sandbox (host/sandbox/); undefined means "preferred". */
  readonly sandbox?: SandboxMode;
  readonly inputs: ReadonlyMap<string, InputSpec>;
  readonly tools: ReadonlyMap<string, ToolSpec>;
  readonly providers: ReadonlyMap<string, ProviderSpec>;
  /** MCP servers whose tools plans may call (host/mcp/). */
  readonly mcpServers: ReadonlyMap<string, McpServerSpec>;
  /** A JSON Schema every plan's final value must meet (the type rules check it). */
  readonly result?: JsonObject;
  /** Calls that wait for people before they are made (approvalRules.ts, docs/approvals.md). */
  readonly approvals?: readonly ApprovalRule[];
  /** Where the node at a JSON Pointer is in the profile's text (line 1, column 1 when unknown). */
  locate(jsonPath: string, target?: ProblemTarget): SourceLocation;
}

export type HostProfileResult =
  | { readonly ok: true; readonly profile: HostProfile }
  | { readonly ok: false; readonly errors: readonly HostProfileError[] };

export interface Locator {
  /** How messages name the file's root: "the host profile", "the mocks file". */
  readonly what: string;
  offset(offset: number, length: number): Omit<HostProfileError, "jsonPath" | "message">;
  path(path: JsonPath, target?: ProblemTarget): Omit<HostProfileError, "jsonPath" | "message">;
}
