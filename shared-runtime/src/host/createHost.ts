// A host profile made real: the registries (built-in and command tools, model providers), the
// inputs registered in a fresh context store, the context limits, and the policy (capabilities
// and budget) that plans are validated against. Every problem found here is a located error,
// and all of them are reported together.

import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ContextStore } from "../context/store";
import { newJsonObject, setOwn, type JsonObject, type JsonValue } from "../json";
import { createOpenAIChatProvider, openAIChatSpecProblem } from "../providers/openaiChat";
import type { ModelProvider, RunHost, ToolHandler } from "../run/host";
import { builtinTool, BUILTIN_TOOL_NAMES, isBuiltinToolName } from "./builtinTools";
import { createCommandTool } from "./commandTool";
import { inputFileOverride, loadInput } from "./inputs";
import { HostToolRegistry, McpServers } from "./mcp/servers";
import { ProcessTracker } from "./processGroup";
import { pointer, profileError, type HostProfile, type HostProfileError } from "./profile";

export interface HostPolicy {
  readonly capabilities: string[];
  /** "default" or the profile's partial budget object. */
  readonly budget: unknown;
}

export interface CreatedHost {
  readonly host: RunHost;
  readonly policy: HostPolicy;
  /** The context store holding the inputs (for hosts that register more contexts). */
  readonly store: ContextStore;
  /** Closes MCP servers and kills every tool process still running; resolves when they are gone. */
  close(): Promise<void>;
  /** SIGKILL to every command tool process still running, without waiting (a process about to exit). */
  kill(): void;
}

export interface CreateHostOptions {
  /** The environment tools inherit from (inheritEnv) and providers read keys from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Input name -> text file (relative to the current folder) replacing the profile's input. */
  readonly inputFiles?: Readonly<Record<string, string>>;
}

/** Every problem of a profile that only shows when the host is built (unreadable data files, ...). */
export class HostSetupError extends Error {
  constructor(readonly errors: readonly HostProfileError[]) {
    super(errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`).join("\n"));
    this.name = "HostSetupError";
  }
}

/** Builds the run host a profile describes; rejects with HostSetupError listing every problem. */
export async function createRunHost(profile: HostProfile, options: CreateHostOptions = {}): Promise<CreatedHost> {
  const env = options.env ?? process.env;
  const errors: HostProfileError[] = [];
  const tracker = new ProcessTracker();

  const tools = new Map<string, ToolHandler>();
  for (const [name, spec] of profile.tools) {
    const at = pointer(["tools", name]);
    if (spec.type === "builtin") {
      if (isBuiltinToolName(spec.builtin)) tools.set(name, builtinTool(spec.builtin));
      else
        errors.push(
          profileError(
            profile,
            `${at}/builtin`,
            `unknown built-in tool ${JSON.stringify(spec.builtin)}: use ${BUILTIN_TOOL_NAMES.join(", ")}`,
          ),
        );
      continue;
    }
    const cwd = resolve(profile.dir, spec.cwd ?? ".");
    if (!isFolder(cwd)) {
      errors.push(
        profileError(
          profile,
          `${at}/cwd`,
          `the working folder ${JSON.stringify(spec.cwd)} of tool ${JSON.stringify(name)} does not exist`,
        ),
      );
      continue;
    }
    tools.set(name, createCommandTool(spec, profile.dir, { hostEnv: env, tracker }));
  }

  const providers = new Map<string, ModelProvider>();
  for (const [name, spec] of profile.providers) {
    const problem = openAIChatSpecProblem(spec);
    if (problem !== undefined) {
      errors.push(
        profileError(profile, pointer(["providers", name]), `provider ${JSON.stringify(name)}: ${problem}`, "key"),
      );
      continue;
    }
    providers.set(name, createOpenAIChatProvider(spec, env));
  }

  const store = new ContextStore();
  const inputs: JsonObject = newJsonObject();
  const overrides = options.inputFiles ?? {};
  for (const [name, spec] of profile.inputs) {
    if (Object.prototype.hasOwnProperty.call(overrides, name)) continue;
    const loaded = await loadInput(profile, name, spec, store);
    if (loaded.ok) setOwn(inputs, name, loaded.value as JsonValue);
    else errors.push(loaded.error);
  }
  for (const [name, path] of Object.entries(overrides)) {
    const loaded = await inputFileOverride(name, path, store);
    if (loaded.ok) setOwn(inputs, name, loaded.value as JsonValue);
    else errors.push(loaded.error);
  }

  if (errors.length > 0) throw new HostSetupError(errors);
  // MCP servers start on the first call of one of their tools, once per host (one run).
  const mcp = new McpServers(profile.mcpServers, profile.dir, { hostEnv: env, tracker });
  const host: RunHost = {
    tools: new HostToolRegistry(tools, mcp),
    providers,
    inputs,
    contexts: store,
    contextLimits: { maxResults: profile.context?.max_results, maxBytes: profile.context?.max_bytes },
  };
  return {
    host,
    policy: hostPolicy(profile),
    store,
    close: async () => {
      await mcp.close();
      await tracker.closeAll();
    },
    kill: () => tracker.killAllNow(),
  };
}

/** What plans are validated against: the profile's capabilities and its budget ("default" when it has none). */
export function hostPolicy(profile: HostProfile): HostPolicy {
  return { capabilities: [...profile.capabilities], budget: profile.budget ?? "default" };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
