// A host profile made real: the registries (built-in and command tools, model providers), the
// inputs registered in a fresh context store, the context limits, and the policy (capabilities
// and budget) that plans are validated against. Every problem found here is a located error,
// and all of them are reported together.

import { accessSync, constants, statSync } from "node:fs";
import { resolve } from "node:path";
import { ContextStore } from "../context/store";
import { newJsonObject, setOwn, type JsonObject, type JsonValue } from "../json";
import { createOpenAIChatProvider, definedCosting, openAIChatSpecProblem } from "../providers/openaiChat";
import type { PlanError } from "../run/errors";
import type { ParallelMode } from "../run/events";
import type { InputOpener, ModelProvider, RunHost, ToolHandler } from "../run/host";
import type { HostFactory, HostPreflight, PlanNeeds } from "../run/startRun";
import type { Plan } from "../plan/ast";
import { hostPreflight, mcpPreflight } from "./hostPreflight";
import { builtinTool, BUILTIN_TOOL_NAMES, isBuiltinToolName } from "./builtinTools";
import { createCommandTool } from "./commandTool";
import { inputFileOverride, loadInput, textFileInput } from "./inputs";
import { givenInputValue } from "./inputValues";
import { HostToolRegistry, McpServers } from "./mcp/servers";
import { mockProvider, mockTool, type Mocks } from "./mocks";
import { ProcessTracker } from "./processGroup";
import { pointer, profileError, readErrorText, type HostProfile, type HostProfileError } from "./profile";
import { readLockFile } from "./lock/lockFile";
import { lockFileOf } from "./lock/lockFormat";

import { hostPolicy, type HostPolicy } from "./hostPolicy";

export { hostPolicy, type HostPolicy } from "./hostPolicy";

export interface CreatedHost {
  readonly host: RunHost;
  readonly policy: HostPolicy;
  /** The context store holding the inputs (for hosts that register more contexts). */
  readonly store: ContextStore;
  /** Closes MCP servers and kills every tool process still running; resolves when they are gone. */
  close(): Promise<void>;
  /** SIGKILL to every command tool process still running, without waiting (a process about to exit). */
  kill(): void;
  /** Preflight problems of what the plan needs (given `needs`): programs not found, keys unset. */
  readonly problems: readonly PlanError[];
  /** MCP servers the plan names started and their tool lists checked against its calls. */
  preflight(plan: Plan): Promise<HostPreflight>;
  /** Whether some tools or providers answer from mocks. */
  readonly mocked: boolean;
  /** The profile's setting for parallel branches. */
  readonly parallel?: ParallelMode;
}

export interface CreateHostOptions {
  /** The environment tools inherit from (inheritEnv) and providers read keys from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Input name -> text file (relative to the current folder) replacing the profile's input. */
  readonly inputFiles?: Readonly<Record<string, string>>;
  /**
   * What the plan to run names. Given, only those inputs are built (text files checked now,
   * indexed when a step first reads them) and the tools and providers it names are preflighted.
   */
  readonly needs?: PlanNeeds;
  /** Tools and providers that answer from a mocks file instead. */
  readonly mocks?: Mocks;
  /**
   * Input values of this run (a test case's, a queued job's) over the profile's, by the one rule
   * of inputValues.ts: the profile's input of that name is not built.
   */
  readonly inputValues?: Readonly<Record<string, JsonValue>>;
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
    tools.set(name, createCommandTool(spec, profile, { hostEnv: env, tracker }));
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

  const mocks = options.mocks;
  for (const [name, answers] of mocks?.tools ?? []) tools.set(name, mockTool(name, answers));
  for (const [name, answers] of mocks?.providers ?? []) {
    const spec = profile.providers.get(name);
    providers.set(name, mockProvider(name, answers, spec?.model, spec ? definedCosting(spec).costing : undefined));
  }

  const store = new ContextStore();
  const inputs: JsonObject = newJsonObject();
  const lazyInputs = new Map<string, InputOpener>();
  const unreadableInputs = new Map<string, HostProfileError>();
  const overrides = options.inputFiles ?? {};
  const given = options.inputValues ?? {};
  const isGiven = (name: string) => Object.prototype.hasOwnProperty.call(given, name);
  const needs = options.needs;
  const wanted = (name: string) => needs === undefined || needs.inputs.has(name);
  for (const [name, spec] of profile.inputs) {
    if (Object.prototype.hasOwnProperty.call(overrides, name) || isGiven(name) || !wanted(name)) continue;
    if (needs && spec.type === "text-file") {
      // Checked now (a plan that reads a missing file is refused by preflight, before any side
      // effect), indexed on first use.
      const file = resolve(profile.dir, spec.path);
      const unreadable = fileProblem(file);
      if (unreadable !== undefined)
        unreadableInputs.set(
          name,
          profileError(
            profile,
            `${pointer(["inputs", name])}/path`,
            `cannot read ${JSON.stringify(spec.path)} for input ${JSON.stringify(name)}: ${unreadable}`,
          ),
        );
      else lazyInputs.set(name, () => textFileInput(file, store));
      continue;
    }
    const loaded = await loadInput(profile, name, spec, store);
    if (loaded.ok) setOwn(inputs, name, loaded.value as JsonValue);
    else errors.push(loaded.error);
  }
  for (const [name, path] of Object.entries(overrides)) {
    if (!wanted(name) || isGiven(name)) continue;
    const loaded = await inputFileOverride(name, path, store);
    if (loaded.ok) setOwn(inputs, name, loaded.value as JsonValue);
    else errors.push(loaded.error);
  }
  for (const name of Object.keys(given))
    setOwn(inputs, name, givenInputValue(profile.inputs.get(name), given[name] as JsonValue, store) as JsonValue);

  // The lock beside the profile, if there is one: what its tools must still be (lock/).
  const pinned = readLockFile(lockFileOf(profile));
  if (!pinned.ok) errors.push(...pinned.errors);
  const lock = pinned.ok ? pinned.lock : undefined;

  if (errors.length > 0) throw new HostSetupError(errors);
  // MCP servers start on the first call of one of their tools, once per host (one run).
  const mcp = new McpServers(profile.mcpServers, profile.dir, {
    hostEnv: env,
    tracker,
    sandbox: profile,
    ...(lock ? { lock } : {}),
  });
  const host: RunHost = {
    tools: new HostToolRegistry(tools, mcp),
    providers,
    inputs,
    ...(lazyInputs.size > 0 ? { lazyInputs } : {}),
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
    problems: needs
      ? hostPreflight(profile, needs, {
          env,
          inputFiles: overrides,
          inputValues: new Set(Object.keys(given)),
          unreadableInputs,
          ...(mocks ? { mocks } : {}),
          ...(lock ? { lock } : {}),
        })
      : [],
    preflight: (plan) => mcpPreflight(plan, profile, mcp, mocks, lock),
    mocked: mocks !== undefined,
    ...(profile.parallel ? { parallel: profile.parallel } : {}),
    ...(profile.maxCost !== undefined ? { maxCost: profile.maxCost } : {}),
  };
}

/** The host for startRun: built for what the plan needs; setup problems are values. */
export function profileHost(profile: HostProfile, options: Omit<CreateHostOptions, "needs"> = {}): HostFactory {
  return async (needs) => {
    try {
      const created = await createRunHost(profile, { ...options, needs });
      return { ok: true, built: created };
    } catch (error) {
      if (error instanceof HostSetupError) return { ok: false, errors: error.errors };
      throw error;
    }
  };
}

/** Why a file cannot be read, or undefined: a cheap check, the file is not opened. */
function fileProblem(file: string): string | undefined {
  try {
    if (statSync(file).isDirectory()) return "it is a folder, not a file";
    accessSync(file, constants.R_OK);
    return undefined;
  } catch (error) {
    return readErrorText(error);
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
