// A profile host's own preflight, before the first side effect of a run: what would otherwise
// fail only when a step runs. Synchronously: command tools whose program does not resolve,
// provider keys that are unset, inputs the plan reads that nobody declares or supplies, text
// files of inputs it reads that cannot be read. Then, asynchronously, every MCP server the
// plan names is started and its tool list read: a tool it does not list, and literal arguments
// its input schema refuses, are refusals too. Every error names its step by JSON path (the
// tool's "name", the model step's "provider", the input reference's "name"), never a value.
// With a lock beside the profile (lock/), whatever differs from it is a `tool_drift` refusal.

import type { JsonPath } from "../json";
import type { Plan, Step } from "../plan/ast";
import { planSteps } from "../plan/walk";
import { literalArgumentProblems, type ToolSignature } from "../plan/toolArgumentChecks";
import type { PlanError } from "../run/errors";
import type { HostPreflight, PlanNeeds } from "../run/startRun";
import { shownPath } from "../text/shownPath";
import { programProblem } from "./commandTool";
import type { McpServers } from "./mcp/servers";
import { mcpPlanName, mcpRoute, mcpTransportOf } from "./mcp/spec";
import { sandboxProblem } from "./sandbox/toolSandbox";
import { mcpServerPin } from "./lock/currentPins";
import { mcpServerDrift } from "./lock/lockDrift";
import type { ToolLock } from "./lock/lockFormat";
import { commandToolChanges, driftRefusal, providerChanges } from "./lock/pinRefusals";
import type { Mocks } from "./mocks";
import type { HostProfile, HostProfileError } from "./profile";
import { isJsonObject, type JsonObject } from "../json";

export interface HostPreflightOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly mocks?: Mocks;
  /** Inputs the run supplies itself (`--input NAME=PATH`): declared or not, they exist. */
  readonly inputFiles?: Readonly<Record<string, string>>;
  /** Inputs given as values for this run (a test case's, a job's): declared or not, they exist. */
  readonly inputValues?: ReadonlySet<string>;
  /** Declared text-file inputs whose file cannot be read, with the profile's located problem. */
  readonly unreadableInputs?: ReadonlyMap<string, HostProfileError>;
  /** The profile's lock (rlmplan.lock.json), when it has one: what the tools and providers must still be. */
  readonly lock?: ToolLock;
}

/**
 * The synchronous checks, in the order a plan names things: tools, providers, then inputs.
 * Mocked names are not checked (they answer from the mocks file).
 */
export function hostPreflight(profile: HostProfile, needs: PlanNeeds, options: HostPreflightOptions): PlanError[] {
  const { env, mocks } = options;
  const problems: PlanError[] = [];
  const at = (map: ReadonlyMap<string, JsonPath> | undefined, name: string) => {
    const path = map?.get(name);
    return path ? { path: [...path] } : {};
  };
  for (const name of needs.tools) {
    if (mocks?.tools.has(name)) continue;
    const spec = profile.tools.get(name);
    const route = spec === undefined ? mcpRoute(name, profile.mcpServers) : undefined;
    const server = route === undefined ? undefined : profile.mcpServers.get(route.server);
    const refuse = (problem: string, fix: string) =>
      problems.push({
        phase: "preflight",
        kind: "tool_unavailable",
        tool: name,
        message: `tool ${JSON.stringify(name)} cannot run: ${problem}; ${fix} in ${profile.file}`,
        ...at(needs.paths?.tools, name),
      });
    if (spec?.type === "command") {
      const problem = programProblem(spec, profile.dir, env);
      if (problem !== undefined) refuse(problem, `fix its "command"`);
      else {
        const changes = commandToolChanges(options.lock, name, spec, profile, env);
        if (changes.length > 0)
          problems.push(
            driftRefusal(
              changes.map((c) => c.text),
              { tool: name },
              needs.paths?.tools.get(name),
            ),
          );
      }
    }
    // Before the first side effect: a sandbox the profile requires and this machine cannot make,
    // or a declared `writes` path that is missing (bubblewrap binds only what exists).
    const declared =
      spec?.type === "command" ? spec : server && mcpTransportOf(server) === "stdio" ? server : undefined;
    const sandboxed = declared && sandboxProblem(profile, declared);
    if (sandboxed) refuse(sandboxed.problem, sandboxed.fix);
  }
  for (const name of needs.providers) {
    const spec = profile.providers.get(name);
    if (spec === undefined || mocks?.providers.has(name)) continue;
    const changes = providerChanges(options.lock, name, spec);
    if (changes.length > 0)
      problems.push(
        driftRefusal(
          changes.map((c) => c.text),
          { provider: name },
          needs.paths?.providers.get(name),
        ),
      );
    const variable = spec.apiKeyEnv;
    if (variable === undefined) continue;
    const value = Object.prototype.hasOwnProperty.call(env, variable) ? env[variable] : undefined;
    if ((value ?? "").trim() === "")
      problems.push({
        phase: "preflight",
        kind: "provider_key_missing",
        provider: name,
        variable,
        message: `provider ${JSON.stringify(name)} needs its key in the environment variable ${variable}, which is not set`,
        ...at(needs.paths?.providers, name),
      });
  }
  const supplied = options.inputFiles ?? {};
  for (const name of needs.inputs) {
    const path = needs.paths?.inputs.get(name);
    // Only inputs the plan itself reads are refused (a debugger asks for every declared one).
    if (path === undefined || Object.prototype.hasOwnProperty.call(supplied, name) || options.inputValues?.has(name))
      continue;
    if (!profile.inputs.has(name)) {
      problems.push({
        phase: "preflight",
        kind: "undeclared_input",
        input: name,
        message: `the plan reads input ${JSON.stringify(name)}, which the host profile does not declare under "inputs" and the run does not supply (--input ${name}=PATH, or a value: --input-text ${name}=VALUE)`,
        path: [...path],
      });
      continue;
    }
    const unreadable = options.unreadableInputs?.get(name);
    if (unreadable !== undefined)
      problems.push({
        phase: "preflight",
        kind: "input_unavailable",
        input: name,
        message: `${unreadable.message} (declared at ${shownPath(unreadable.file)}:${unreadable.line}:${unreadable.column})`,
        path: [...path],
        problems: [
          { file: unreadable.file, line: unreadable.line, column: unreadable.column, message: unreadable.message },
        ],
      });
  }
  return problems;
}

/**
 * Starts every MCP server the plan calls (through `servers`, the run's own, so a run keeps the
 * servers its preflight started) and reads its tool list: a call of a tool the server does not
 * list, a server that cannot be started, and literal arguments the tool's input schema refuses
 * are refusals, in the plan's step order.
 */
export async function mcpPreflight(
  plan: Plan,
  profile: HostProfile,
  servers: McpServers,
  mocks: Mocks | undefined,
  lock?: ToolLock,
): Promise<HostPreflight> {
  const calls = mcpCalls(plan, profile, mocks);
  if (calls.length === 0) return { errors: [], mcpServers: [] };
  const asked = [...new Set(calls.map((call) => call.server))];
  const listed = new Map<string, ReadonlyMap<string, ToolSignature> | { failure: string }>();
  // The same listing by plan name, whole (descriptions, output schemas): what `check --preflight`
  // types the plan by, so it starts no server a second time.
  const byPlanName = new Map<string, ToolSignature>();
  const failures = new Map<string, string>();
  const drift: PlanError[] = [];
  await Promise.all(
    asked.map(async (server) => {
      try {
        const tools = new Map<string, ToolSignature>();
        const spec = profile.mcpServers.get(server);
        for (const tool of await servers.connection(server).tools()) {
          const source = `MCP server ${JSON.stringify(server)}`;
          tools.set(tool.name, {
            source,
            ...(isJsonObject(tool.inputSchema) ? { inputSchema: tool.inputSchema as JsonObject } : {}),
          });
          const name = spec ? mcpPlanName(server, tool.name, spec) : undefined;
          if (name !== undefined)
            byPlanName.set(name, {
              source,
              ...(tool.description !== undefined ? { description: tool.description } : {}),
              ...(isJsonObject(tool.inputSchema) ? { inputSchema: tool.inputSchema as JsonObject } : {}),
              ...(isJsonObject(tool.outputSchema) ? { outputSchema: tool.outputSchema as JsonObject } : {}),
            });
        }
        listed.set(server, tools);
        if (lock !== undefined && spec !== undefined)
          drift.push(...serverDrift(server, lock, await mcpServerPin(servers.connection(server), spec), calls));
      } catch (error) {
        const failure = error instanceof Error ? error.message : String(error);
        listed.set(server, { failure });
        failures.set(server, failure);
      }
    }),
  );
  // Drift first: a server that changed is refused whatever its tools now say of the calls.
  const errors: PlanError[] = [...drift];
  for (const { step, server, tool } of calls) {
    const tools = listed.get(server);
    const path = [...step.path, "name"];
    if (tools === undefined) continue;
    if ("failure" in tools) {
      errors.push({ phase: "preflight", kind: "tool_unavailable", tool: step.name, message: tools.failure, path });
      continue;
    }
    const signature = tools.get(tool);
    if (signature === undefined) {
      const names = [...tools.keys()].map((name) => JSON.stringify(name));
      const list =
        names.length === 0
          ? "it lists none"
          : `it lists ${names.slice(0, 12).join(", ")}${names.length > 12 ? ", ..." : ""}`;
      errors.push({
        phase: "preflight",
        kind: "unknown_tool",
        value: step.name,
        message: `the plan calls tool ${JSON.stringify(step.name)}, but MCP server ${JSON.stringify(server)} has no tool ${JSON.stringify(tool)} (${list})`,
        path,
      });
      continue;
    }
    for (const problem of literalArgumentProblems(step, signature)) {
      errors.push({
        phase: "preflight",
        kind: "invalid_tool_arguments",
        tool: step.name,
        message: problem.message,
        ...(problem.path ? { path: [...problem.path] } : { path }),
        ...(problem.target === "key" ? { target: "key" } : {}),
      });
    }
  }
  return { errors, mcpServers: asked, listed: { tools: byPlanName, failures } };
}

/**
 * A server's changes from the lock: those of a tool the plan calls at that call, the server's own
 * (and its other tools') at its first call; one refusal per call, listing them all.
 */
function serverDrift(
  server: string,
  lock: ToolLock,
  found: Parameters<typeof mcpServerDrift>[2],
  calls: readonly McpCall[],
): PlanError[] {
  const ofServer = calls.filter((call) => call.server === server);
  const at = new Map<McpCall, string[]>();
  for (const change of mcpServerDrift(server, lock.mcpServers[server], found)) {
    const tool = change.subject.kind === "mcp" ? change.subject.tool : undefined;
    const call = ofServer.find((c) => c.tool === tool) ?? ofServer[0]!;
    at.set(call, [...(at.get(call) ?? []), change.text]);
  }
  // In the plan's order: a run names only its first refusal.
  return ofServer
    .filter((call) => at.has(call))
    .map((call) => driftRefusal(at.get(call)!, { tool: call.step.name }, [...call.step.path, "name"]));
}

interface McpCall {
  readonly step: Extract<Step, { op: "tool" }>;
  readonly server: string;
  readonly tool: string;
}

/** The plan's calls of MCP tools (not the profile's own, not mocked), in the order the runtime visits steps. */
function mcpCalls(plan: Plan, profile: HostProfile, mocks: Mocks | undefined): McpCall[] {
  const calls: McpCall[] = [];
  for (const { step } of planSteps(plan)) {
    if (step.op === "tool" && !profile.tools.has(step.name) && !mocks?.tools.has(step.name)) {
      const route = mcpRoute(step.name, profile.mcpServers);
      if (route !== undefined) calls.push({ step, server: route.server, tool: route.tool });
    }
  }
  return calls;
}
