// Drift as a run meets it: each change from the lock a `tool_drift` refusal of preflight, located
// at the step that calls the tool or provider, or, during a run, the failure of a call of a tool
// whose server re-listed it changed (after tools/list_changed). Nothing drifted is ever called.

import type { JsonPath } from "../../json";
import { RunFailure, type PlanError } from "../../run/errors";
import type { McpConnection } from "../mcp/connection";
import type { McpToolRoute } from "../mcp/spec";
import type { CommandToolSpec, HostProfile, ProviderSpec } from "../profileTypes";
import { commandToolPin, providerPin } from "./currentPins";
import { commandToolDrift, providerDrift, toolChange, type PinChange } from "./lockDrift";
import { LOCK_FILENAME, type ToolLock } from "./lockFormat";
import { toolPin } from "./lockHash";

/** What a refusal tells the user to do, after the changes. */
export function acceptHint(count: number): string {
  return `${count === 1 ? "review it" : "review them"}, then accept with rlm-plan lock --update`;
}

/**
 * Changes found at one step as one refusal (a check reports one problem of a kind per place, and
 * a run its first refusal: each must say every change); `detail` names the step's tool or provider.
 */
export function driftRefusal(
  changes: readonly string[],
  detail: { readonly tool: string } | { readonly provider: string },
  path: JsonPath | undefined,
  phase: "preflight" | "execute" = "preflight",
): PlanError {
  return {
    phase,
    kind: "tool_drift",
    ...detail,
    changes: [...changes],
    message: `drift from ${LOCK_FILENAME}: ${changes.join("; ")}; ${acceptHint(changes.length)}`,
    ...(path ? { path: [...path] } : {}),
  };
}

/** How a command tool whose program resolves differs from its pin (nothing without a lock); unreadable is a change too. */
export function commandToolChanges(
  lock: ToolLock | undefined,
  name: string,
  spec: CommandToolSpec,
  profile: Pick<HostProfile, "dir" | "file">,
  env: NodeJS.ProcessEnv,
): PinChange[] {
  if (lock === undefined) return [];
  let found;
  try {
    found = commandToolPin(spec, profile, env);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return [
      {
        subject: { kind: "command", tool: name },
        text: `command tool ${JSON.stringify(name)} cannot be compared with the lock (${why})`,
      },
    ];
  }
  return commandToolDrift(name, lock.commandTools[name], found);
}

export function providerChanges(lock: ToolLock | undefined, name: string, spec: ProviderSpec): PinChange[] {
  return lock === undefined ? [] : providerDrift(name, lock.providers[name], providerPin(spec));
}

/**
 * Before each call of an MCP tool: the tool as its server lists it now (again, after it announced
 * tools/list_changed) must be the pinned one, or the call fails with the drift and is never sent.
 */
export async function checkPinnedTool(
  lock: ToolLock,
  connection: McpConnection,
  route: McpToolRoute,
  planName: string,
): Promise<void> {
  const tool = (await connection.tools()).find((listed) => listed.name === route.tool);
  // A tool no longer listed: the call itself says so, naming what the server lists.
  if (tool === undefined) return;
  const change = toolChange(route.server, route.tool, lock.mcpServers[route.server], toolPin(tool));
  if (change !== undefined) throw new RunFailure(driftRefusal([change], { tool: planName }, undefined, "execute"));
}
