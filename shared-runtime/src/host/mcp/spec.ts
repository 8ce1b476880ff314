// MCP server entries of a host profile (the mcp.json shape) and the one rule that names their
// tools for plans: SERVER.TOOL, or the names the entry's "tools" mapping gives.

export interface McpServerSpec {
  /** "stdio" (the default with "command") or "http" (the default with "url"). */
  readonly type?: "stdio" | "http";
  readonly command?: string;
  readonly args?: readonly string[];
  /** Relative to the profile's folder, which is also the default. */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly inheritEnv?: readonly string[];
  /** Paths a stdio server may write in the sandbox (relative to the profile's folder, in the workspace). */
  readonly writes?: readonly string[];
  /** Whether a stdio server may use the network in the sandbox (default false). */
  readonly network?: boolean;
  readonly url?: string;
  readonly timeoutMs?: number;
  readonly startupTimeoutMs?: number;
  /** The most bytes one message from a stdio server may hold; a bigger one ends the connection. */
  readonly maxMessageBytes?: number;
  /** Plan name -> the server's tool name; when given, only these tools are offered. */
  readonly tools?: Readonly<Record<string, string>>;
  readonly description?: string;
}

export const MCP_DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  startupTimeoutMs: 10_000,
  /** The SDK's own limit (10 MiB), now a failed call instead of a crash. */
  maxMessageBytes: 10 * 1024 * 1024,
  /** What launchers such as npx need to work; an entry's inheritEnv replaces the list. */
  inheritEnv: Object.freeze(["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"]),
});

export function mcpTransportOf(spec: McpServerSpec): "stdio" | "http" {
  return spec.type ?? (spec.url !== undefined && spec.command === undefined ? "http" : "stdio");
}

/** Where a plan's tool name leads: which server, and the tool's name on that server. */
export interface McpToolRoute {
  readonly server: string;
  readonly tool: string;
}

/**
 * The server tool a plan name stands for, or undefined when no MCP server of the profile offers
 * it by name. Mapped servers offer exactly their mapping; the others every `SERVER.TOOL`, whatever
 * tools the server lists at run time (the list itself is checked when the call is made).
 */
export function mcpRoute(name: string, servers: ReadonlyMap<string, McpServerSpec>): McpToolRoute | undefined {
  for (const [server, spec] of servers) {
    if (spec.tools !== undefined && Object.prototype.hasOwnProperty.call(spec.tools, name)) {
      return { server, tool: spec.tools[name]! };
    }
  }
  const dot = name.indexOf(".");
  if (dot <= 0 || dot === name.length - 1) return undefined;
  const server = name.slice(0, dot);
  const spec = servers.get(server);
  if (spec === undefined || spec.tools !== undefined) return undefined;
  return { server, tool: name.slice(dot + 1) };
}

/** The plan name of a server's tool, or undefined when the entry's mapping hides it. */
export function mcpPlanName(server: string, tool: string, spec: McpServerSpec): string | undefined {
  if (spec.tools === undefined) return `${server}.${tool}`;
  for (const [planName, serverTool] of Object.entries(spec.tools)) if (serverTool === tool) return planName;
  return undefined;
}

/** Where a plan's tool leads under a profile: its MCP server, or undefined for the profile's own tools. */
export function toolServerOf(profile: {
  readonly tools: ReadonlyMap<string, unknown>;
  readonly mcpServers: ReadonlyMap<string, McpServerSpec>;
}): (tool: string) => string | undefined {
  return (tool) => (profile.tools.has(tool) ? undefined : mcpRoute(tool, profile.mcpServers)?.server);
}
