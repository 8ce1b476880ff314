// What editors and `rlm-plan check` know of a profile's tools before any run: the profile's own
// tools with their input schemas, and each MCP server's tools as it lists them (the server is
// started, asked within its startup timeout, and stopped). A server that cannot be asked is a
// reason, shown on the plan's calls of its tools; those calls are then trusted by name, as
// preflight trusts them.

import type { ToolKnowledge, ToolSignature } from "../../plan/toolArgumentChecks";
import { isJsonObject, type JsonObject } from "../../json";
import type { HostProfile } from "../profile";
import { ProcessTracker } from "../processGroup";
import type { McpConnection } from "./connection";
import { mcpPlanName, mcpRoute } from "./spec";

export interface McpDiscovery {
  /** Plan name -> what the server published about the tool. */
  readonly tools: ReadonlyMap<string, ToolSignature>;
  /** Server -> why its tools could not be listed. */
  readonly failures: ReadonlyMap<string, string>;
}

/** Lists the tools of every MCP server of the profile, in parallel; never rejects. */
export async function discoverMcpTools(
  profile: HostProfile,
  options: { readonly hostEnv?: NodeJS.ProcessEnv } = {},
): Promise<McpDiscovery> {
  const tools = new Map<string, ToolSignature>();
  const failures = new Map<string, string>();
  const tracker = new ProcessTracker();
  // The connection (processes, the SDK's transport) on the first listing: the analysis policy
  // imports this module for hostToolKnowledge, and a static check starts no server.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { McpConnection: Connection } = require("./connection") as { McpConnection: typeof McpConnection };
  await Promise.all(
    [...profile.mcpServers].map(async ([server, spec]) => {
      const connection = new Connection(server, spec, profile.dir, { ...options, tracker, sandbox: profile });
      try {
        for (const tool of await connection.tools()) {
          const name = mcpPlanName(server, tool.name, spec);
          if (name === undefined) continue;
          tools.set(name, {
            source: `MCP server ${JSON.stringify(server)}`,
            ...(tool.description !== undefined ? { description: tool.description } : {}),
            ...(isJsonObject(tool.inputSchema) ? { inputSchema: tool.inputSchema as JsonObject } : {}),
            ...(isJsonObject(tool.outputSchema) ? { outputSchema: tool.outputSchema as JsonObject } : {}),
          });
        }
      } catch (error) {
        failures.set(server, error instanceof Error ? error.message : String(error));
      } finally {
        await connection.close();
      }
    }),
  );
  await tracker.closeAll();
  return { tools, failures };
}

/**
 * The profile's tools as the checker sees them. Tools of a listed server are known exactly;
 * tools of a server not (yet) asked, or that failed, are known by the naming rule alone.
 */
export function hostToolKnowledge(profile: HostProfile, discovery: McpDiscovery | undefined): ToolKnowledge {
  return {
    has(name) {
      if (profile.tools.has(name)) return true;
      const route = mcpRoute(name, profile.mcpServers);
      if (route === undefined) return false;
      if (discovery === undefined || discovery.failures.has(route.server)) return true;
      return discovery.tools.has(name);
    },
    signature(name) {
      const spec = profile.tools.get(name);
      if (spec !== undefined) {
        return {
          source: spec.type === "builtin" ? "built-in tool" : "command tool",
          ...(spec.description !== undefined ? { description: spec.description } : {}),
          ...(spec.inputSchema !== undefined ? { inputSchema: spec.inputSchema } : {}),
          ...(spec.returns !== undefined ? { outputSchema: spec.returns } : {}),
        };
      }
      return discovery?.tools.get(name);
    },
    unavailable(name) {
      const route = mcpRoute(name, profile.mcpServers);
      return route === undefined ? undefined : discovery?.failures.get(route.server);
    },
  };
}
