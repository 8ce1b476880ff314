// What a plan is checked against on the command line: the flags first, else the host profile
// found by walking up from the plan (or --host), else nothing host-dependent at all.

import { basename, relative } from "node:path";
import { discoverMcpTools, hostToolKnowledge, type McpDiscovery } from "@rlm-plan/core/host/mcp/discovery";
import { mcpRoute } from "@rlm-plan/core/host/mcp/spec";
import { hostTypes } from "@rlm-plan/core/host/typeHost";
import { dataLimitsOf } from "@rlm-plan/core/plan/dataLimits";
import {
  contextInputNames,
  findHostProfile,
  loadHostProfile,
  type HostProfileError,
} from "@rlm-plan/core/host/profile";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import { unregisteredNames } from "@rlm-plan/core/run/preflight";
import { MAX_PLAN_BYTES, readTextFileSync } from "@rlm-plan/core/text/boundedFile";
import { lineText, shownFile } from "./guardedOutput";
import type { Policy } from "./report";

export interface PolicyFlags {
  readonly capabilities: readonly string[] | undefined;
  readonly budget: unknown;
  readonly host: string | undefined;
}

export type ResolvedPolicy =
  | { readonly ok: true; readonly policy: Policy; readonly hostFile: string | undefined }
  | { readonly ok: false; readonly hostFile: string; readonly errors: readonly HostProfileError[] };

/** Host profile file -> what its MCP servers listed; without an entry their tools are trusted by name. */
export type Discoveries = ReadonlyMap<string, McpDiscovery>;

export function policyFor(planFile: string, flags: PolicyFlags, discoveries: Discoveries = new Map()): ResolvedPolicy {
  const hostFile = flags.host ?? findHostProfile(planFile);
  const overrides = {
    ...(flags.capabilities ? { capabilities: flags.capabilities } : {}),
    ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
  };
  if (!hostFile) return { ok: true, policy: overrides, hostFile: undefined };
  const loaded = loadHostProfile(hostFile);
  if (!loaded.ok) return { ok: false, hostFile, errors: loaded.errors };
  const profile = loaded.profile;
  const tools = hostToolKnowledge(profile, discoveries.get(hostFile));
  return {
    ok: true,
    hostFile,
    policy: {
      capabilities: [...profile.capabilities],
      budget: profile.budget ?? "default",
      registries: {
        tools,
        providers: new Set(profile.providers.keys()),
        inputs: new Set(profile.inputs.keys()),
        contextInputs: contextInputNames(profile),
      },
      tools,
      types: hostTypes(profile, tools),
      dataLimits: dataLimitsOf(profile, basename(hostFile)),
      ...overrides,
    },
  };
}

/** A host profile's problems, located like plan problems. */
export function hostErrorLines(errors: readonly HostProfileError[]): string {
  return errors
    .map(
      (e) =>
        `${shownFile(relative(process.cwd(), e.file) || e.file)}:${e.line}:${e.column}: error: ${lineText(e.message)}\n`,
    )
    .join("");
}

/**
 * Starts the MCP servers of the host profiles these plans use and lists their tools, so their
 * arguments are checked against the schemas they publish (each server within its startup
 * timeout). A profile none of whose MCP tools the plans call starts nothing.
 */
export async function discoverFor(planFiles: readonly string[], host: string | undefined): Promise<Discoveries> {
  const discoveries = new Map<string, McpDiscovery>();
  const plansOf = new Map<string, string[]>();
  for (const plan of planFiles) {
    const file = host ?? findHostProfile(plan);
    if (file !== undefined) plansOf.set(file, [...(plansOf.get(file) ?? []), plan]);
  }
  await Promise.all(
    [...plansOf].map(async ([file, plans]) => {
      const loaded = loadHostProfile(file);
      if (!loaded.ok || loaded.profile.mcpServers.size === 0) return;
      const servers = loaded.profile.mcpServers;
      if (!plans.some((plan) => toolNamesOf(plan).some((name) => mcpRoute(name, servers) !== undefined))) return;
      discoveries.set(file, await discoverMcpTools(loaded.profile));
    }),
  );
  return discoveries;
}

/** The tool names a plan file calls anywhere (none when it cannot be read or parsed). */
function toolNamesOf(planFile: string): string[] {
  let text: string;
  try {
    text = readTextFileSync(planFile, MAX_PLAN_BYTES);
  } catch {
    return [];
  }
  const plan = parsePlan({ kind: "document", text }, { collectAll: true }).plan;
  const names: string[] = [];
  if (plan) unregisteredNames(plan, { tool: (name) => (names.push(name), true), provider: () => true });
  return names;
}
