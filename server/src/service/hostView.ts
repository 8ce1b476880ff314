// What the editor features know about the host profile in force for a plan: granted
// capabilities, the budget, and the names (with safe one-line summaries) of its inputs, tools
// and providers. Built from the runtime's host profile; never holds a key or a secret's value.

import { basename } from "node:path";
import type { AnalysisPolicy } from "@rlm-plan/core";
import type { DataLimits, ReachHost, ToolKnowledge, TypeHost } from "@rlm-plan/core/plan";
import { analysisPolicy, whatIfHost } from "@rlm-plan/core/session";
import type { ApprovalRule } from "@rlm-plan/core/session";
import {
  describeSandbox,
  type HostProfile,
  type HostProfileResult,
  type InputSpec,
  type McpDiscovery,
  type ProviderSpec,
  type ToolSpec,
} from "@rlm-plan/core/host";

export interface HostEntry {
  /** The profile's own description of the entry, if it has one. */
  readonly description?: string;
  /** What the host registered, as Markdown: "built-in tool `count_items`", "command `python3`". */
  readonly summary: string;
  /** For a command tool: what its sandbox lets it do (the core's description, from the profile alone). */
  readonly sandbox?: string;
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
  /** The inputs registered as contexts (texts, item lists): the only context handles. */
  readonly contextInputs: ReadonlySet<string>;
  /** The profile's own tools, then the MCP tools its servers listed (when they have been asked). */
  readonly tools: ReadonlyMap<string, HostEntry>;
  readonly providers: ReadonlyMap<string, HostEntry>;
  /** What the runtime knows of the tools: names MCP servers may offer, input schemas, unreachable servers. */
  readonly toolKnowledge: ToolKnowledge;
  /** Its context.max_results (or the default) and which tools run which built-in. */
  readonly dataLimits: DataLimits;
  /** What the type rules know of it: inputs, chat providers, tools' results, the plan's result schema. */
  readonly types: TypeHost;
  /** The analysis policy of plans under this profile: the core session's one builder. */
  readonly policy: AnalysisPolicy;
  /** What the what-if reads of the profile: where tools lead, the worst case in money, approval steps. */
  readonly whatIf: ReachHost;
  /** Its approval rules (docs/approvals.md): hover says which steps can need approval. */
  readonly approvals: readonly ApprovalRule[];
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

/** What the features know of a parsed profile: its first error, or the view they work from. */
export function hostStatusOf(file: string, result: HostProfileResult, listing: McpDiscovery | undefined): HostStatus {
  if (!result.ok) {
    const first = result.errors[0];
    return {
      kind: "invalid",
      file,
      fileName: basename(file),
      errorCount: result.errors.length,
      first: first && { line: first.line, column: first.column, message: first.message },
    };
  }
  return { kind: "ok", view: hostView(result.profile, listing) };
}

export function hostView(profile: HostProfile, listing?: McpDiscovery): HostView {
  const tools = new Map(entries(profile.tools, toolSummary));
  for (const [name, spec] of profile.tools)
    if (spec.type === "command") tools.set(name, { ...tools.get(name)!, sandbox: describeSandbox(profile, spec) });
  for (const [name, signature] of listing?.tools ?? []) {
    tools.set(name, {
      summary: `MCP tool of ${signature.source ?? "an MCP server"}`,
      ...(signature.description !== undefined ? { description: signature.description } : {}),
    });
  }
  const policy = analysisPolicy(profile, listing ? { discovery: listing } : {});
  return {
    policy,
    file: profile.file,
    fileName: basename(profile.file),
    capabilities: profile.capabilities,
    budget: profile.budget,
    inputs: entries(profile.inputs, inputSummary),
    contextInputs: policy.registries?.contextInputs as ReadonlySet<string>,
    tools,
    providers: entries(profile.providers, providerSummary),
    toolKnowledge: policy.tools as ToolKnowledge,
    dataLimits: policy.dataLimits as DataLimits,
    types: policy.types as TypeHost,
    whatIf: whatIfHost(profile, policy),
    approvals: profile.approvals ?? [],
  };
}

function entries<T extends { readonly description?: string }>(
  specs: ReadonlyMap<string, T>,
  summary: (spec: T) => string,
): ReadonlyMap<string, HostEntry> {
  const result = new Map<string, HostEntry>();
  for (const [name, spec] of specs) {
    result.set(name, {
      summary: summary(spec),
      ...(typeof spec.description === "string" ? { description: spec.description } : {}),
    });
  }
  return result;
}

function inputSummary(spec: InputSpec): string {
  switch (spec.type) {
    case "text-file":
      return `context: text from the file \`${spec.path}\``;
    case "text":
      return `context: inline text (${spec.text.length} characters)`;
    case "items-file":
      return `context: items from the file \`${spec.path}\` (${spec.format ?? "jsonl"})`;
    case "items":
      return `context: ${spec.items.length} inline items`;
    case "value":
      return `value: ${shapeOf(spec.value)}`;
  }
}

function shapeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** A command's program (argv[0]) only: its arguments may hold paths or options nobody asked to see. */
function toolSummary(spec: ToolSpec): string {
  if (spec.type === "builtin") return `built-in tool \`${spec.builtin}\``;
  return `command \`${spec.command[0] ?? ""}\` (run without a shell, JSON on stdin and stdout)`;
}

/** The endpoint's origin and the model: never the key, its variable, headers or a path. */
function providerSummary(spec: ProviderSpec): string {
  let origin: string;
  try {
    origin = new URL(spec.baseUrl).origin;
  } catch {
    origin = "an invalid base URL";
  }
  return `OpenAI-compatible chat endpoint \`${origin}\`, model \`${spec.model}\``;
}
