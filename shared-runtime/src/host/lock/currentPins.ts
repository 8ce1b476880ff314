// What a profile's tools, MCP servers and providers are now, in the lock's terms: the program a
// command resolves to and its hash (with the workspace scripts it names), what an MCP server
// reports at initialize and lists, a provider's URL and model. The lock command writes these;
// preflight compares them with the lock.

import { relative, resolve, sep } from "node:path";
import { statSync } from "node:fs";
import { findProgram, toolEnv } from "../commandTool";
import type { McpConnection } from "../mcp/connection";
import { mcpTransportOf, type McpServerSpec } from "../mcp/spec";
import type { CommandToolSpec, HostProfile, ProviderSpec } from "../profileTypes";
import { workspacePath } from "../workspaceBoundary";
import type { CommandToolPin, McpServerPin, ProviderPin, ToolPin } from "./lockFormat";
import { fileSha256, keysSorted, toolPin } from "./lockHash";

/** A path as the lock shows it: relative to the profile's folder when inside it (the same on every clone). */
function shownFrom(profile: Pick<HostProfile, "dir">, path: string): string {
  const inside = relative(profile.dir, path);
  return inside !== "" && !inside.startsWith("..") && !inside.startsWith(sep) ? inside.split(sep).join("/") : path;
}

/** A command tool's program and scripts now; throws (with a message to show) when the program cannot be read. */
export function commandToolPin(
  spec: CommandToolSpec,
  profile: Pick<HostProfile, "dir" | "file">,
  env: NodeJS.ProcessEnv,
): CommandToolPin {
  const cwd = resolve(profile.dir, spec.cwd ?? ".");
  const program = resolve(cwd, findProgram(spec.command[0] ?? "", cwd, toolEnv(spec, env).PATH ?? env.PATH ?? ""));
  const scripts: Record<string, string> = {};
  // An argument naming a file in the workspace is what an interpreter runs: its bytes are the tool.
  for (const argument of spec.command.slice(1)) {
    const inside = argument === "" ? undefined : workspacePath(profile.file, argument, cwd);
    if (!inside?.ok || !isFile(inside.path)) continue;
    scripts[shownFrom(profile, inside.path)] = fileSha256(inside.path);
  }
  return {
    program: shownFrom(profile, program),
    sha256: fileSha256(program),
    ...(Object.keys(scripts).length > 0 ? { scripts: keysSorted(scripts) as Record<string, string> } : {}),
  };
}

export function providerPin(spec: ProviderSpec): ProviderPin {
  return { baseUrl: endpoint(spec.baseUrl), model: spec.model };
}

/**
 * Where requests go, without what may be a secret (a query's key; a profile refuses credentials in a
 * provider's URL, not in an MCP server's): that is the endpoint's identity, and the lock and every
 * drift message show it.
 */
function endpoint(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return url;
  }
}

/** How a server is started, as the profile writes it. */
export function mcpLaunch(spec: McpServerSpec): Pick<McpServerPin, "command" | "url"> {
  return mcpTransportOf(spec) === "http"
    ? { url: endpoint(spec.url ?? "") }
    : { command: [spec.command ?? "", ...(spec.args ?? [])] };
}

/** An MCP server now: it is started (if it is not) and asked who it is and what it lists. */
export async function mcpServerPin(connection: McpConnection, spec: McpServerSpec): Promise<McpServerPin> {
  const listed = await connection.tools();
  const tools: Record<string, ToolPin> = {};
  for (const tool of listed) tools[tool.name] = toolPin(tool);
  return { ...mcpLaunch(spec), server: await connection.serverInfo(), tools };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
