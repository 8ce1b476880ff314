// What changed between the lock and what a run finds, each change one line that says what and
// where: a new, removed or renamed tool, a tool's changed parts (which keys of its description,
// schemas or annotations), another program or script, a provider's URL or model, a server's
// command, URL, name or version. One comparison for preflight, the run's guard and `lock --update`.

import {
  LOCK_FILENAME,
  type CommandToolPin,
  type McpServerPin,
  type ProviderPin,
  type ToolLock,
  type ToolPin,
} from "./lockFormat";

export type PinSubject =
  | { readonly kind: "mcp"; readonly server: string; readonly tool?: string }
  | { readonly kind: "command"; readonly tool: string }
  | { readonly kind: "provider"; readonly provider: string };

export interface PinChange {
  readonly subject: PinSubject;
  readonly text: string;
}

const q = (text: string) => JSON.stringify(text);
const UNPINNED = `is not in ${LOCK_FILENAME}`;

/** How one tool's parts differ: "/description changed, /inputSchema/properties/q added". */
export function partsDiff(locked: ToolPin, found: ToolPin): string {
  const said: string[] = [];
  for (const [part, hash] of Object.entries(found.parts)) {
    const was = locked.parts[part];
    if (was === undefined) said.push(`${part} added`);
    else if (was !== hash) said.push(`${part} changed`);
  }
  for (const part of Object.keys(locked.parts)) if (found.parts[part] === undefined) said.push(`${part} removed`);
  return said.length === 0 ? "its definition changed" : said.join(", ");
}

/** Why a server's tool as listed now is not the one pinned, or undefined when it is (the run's guard). */
export function toolChange(
  server: string,
  tool: string,
  locked: McpServerPin | undefined,
  found: ToolPin,
): string | undefined {
  if (locked === undefined) return `MCP server ${q(server)} ${UNPINNED}`;
  const pinned = locked.tools[tool];
  if (pinned === undefined) return `MCP server ${q(server)}: tool ${q(tool)} ${UNPINNED}`;
  if (pinned.sha256 === found.sha256) return undefined;
  return `MCP server ${q(server)}: tool ${q(tool)} changed: ${partsDiff(pinned, found)}`;
}

export function mcpServerDrift(server: string, locked: McpServerPin | undefined, found: McpServerPin): PinChange[] {
  const at = (tool?: string): PinSubject => ({ kind: "mcp", server, ...(tool === undefined ? {} : { tool }) });
  const name = `MCP server ${q(server)}`;
  if (locked === undefined) return [{ subject: at(), text: `${name} ${UNPINNED}` }];
  const changes: PinChange[] = [];
  if (JSON.stringify(locked.command) !== JSON.stringify(found.command) || locked.url !== found.url)
    changes.push({
      subject: at(),
      text: `${name} is started as ${launchText(found)} (locked: ${launchText(locked)})`,
    });
  if (locked.server.name !== found.server.name || locked.server.version !== found.server.version)
    changes.push({
      subject: at(),
      text: `${name} reports ${q(found.server.name)} ${found.server.version} at initialize (locked: ${q(locked.server.name)} ${locked.server.version})`,
    });
  const removed = Object.keys(locked.tools).filter((tool) => found.tools[tool] === undefined);
  const added = Object.keys(found.tools).filter((tool) => locked.tools[tool] === undefined);
  // A removed and a new tool with the same parts is one tool renamed.
  const sameParts = (a: ToolPin, b: ToolPin) => JSON.stringify(a.parts) === JSON.stringify(b.parts);
  for (const old of [...removed]) {
    const renamed = added.find((tool) => sameParts(locked.tools[old]!, found.tools[tool]!));
    if (renamed === undefined) continue;
    removed.splice(removed.indexOf(old), 1);
    added.splice(added.indexOf(renamed), 1);
    changes.push({ subject: at(old), text: `${name}: tool ${q(old)} was renamed ${q(renamed)}` });
  }
  for (const tool of removed) changes.push({ subject: at(tool), text: `${name}: tool ${q(tool)} was removed` });
  for (const tool of added) changes.push({ subject: at(tool), text: `${name}: new tool ${q(tool)}` });
  for (const [tool, pin] of Object.entries(found.tools)) {
    const pinned = locked.tools[tool];
    if (pinned !== undefined && pinned.sha256 !== pin.sha256)
      changes.push({ subject: at(tool), text: `${name}: tool ${q(tool)} changed: ${partsDiff(pinned, pin)}` });
  }
  return changes;
}

export function commandToolDrift(tool: string, locked: CommandToolPin | undefined, found: CommandToolPin): PinChange[] {
  const subject: PinSubject = { kind: "command", tool };
  const name = `command tool ${q(tool)}`;
  if (locked === undefined) return [{ subject, text: `${name} ${UNPINNED}` }];
  const changes: PinChange[] = [];
  if (locked.program !== found.program)
    changes.push({ subject, text: `${name} runs ${found.program} (locked: ${locked.program})` });
  else if (locked.sha256 !== found.sha256)
    changes.push({
      subject,
      text: `${name}: its program ${found.program} changed (its SHA-256 is not the locked one)`,
    });
  const was = locked.scripts ?? {};
  const now = found.scripts ?? {};
  for (const [script, hash] of Object.entries(now)) {
    if (was[script] === undefined) changes.push({ subject, text: `${name}: new script ${script}` });
    else if (was[script] !== hash)
      changes.push({ subject, text: `${name}: its script ${script} changed (its SHA-256 is not the locked one)` });
  }
  for (const script of Object.keys(was))
    if (now[script] === undefined) changes.push({ subject, text: `${name}: script ${script} is no longer named` });
  return changes;
}

export function providerDrift(provider: string, locked: ProviderPin | undefined, found: ProviderPin): PinChange[] {
  const subject: PinSubject = { kind: "provider", provider };
  const name = `provider ${q(provider)}`;
  if (locked === undefined) return [{ subject, text: `${name} ${UNPINNED}` }];
  const changes: PinChange[] = [];
  if (locked.baseUrl !== found.baseUrl)
    changes.push({ subject, text: `${name} sends to ${found.baseUrl} (locked: ${locked.baseUrl})` });
  if (locked.model !== found.model)
    changes.push({ subject, text: `${name} asks model ${q(found.model)} (locked: ${q(locked.model)})` });
  return changes;
}

/** Every change from one whole lock to another (what `lock --update` accepts), in the lock's order. */
export function lockDrift(locked: ToolLock, found: ToolLock): PinChange[] {
  const has = (record: Readonly<Record<string, unknown>>) => (name: string) => record[name] !== undefined;
  const gone = goneFromProfile(locked, {
    commandTool: has(found.commandTools),
    mcpServer: has(found.mcpServers),
    provider: has(found.providers),
  });
  return [
    ...Object.entries(found.commandTools).flatMap(([tool, pin]) =>
      commandToolDrift(tool, locked.commandTools[tool], pin),
    ),
    ...gone.commandTools,
    ...Object.entries(found.mcpServers).flatMap(([server, pin]) =>
      mcpServerDrift(server, locked.mcpServers[server], pin),
    ),
    ...gone.mcpServers,
    ...Object.entries(found.providers).flatMap(([name, pin]) => providerDrift(name, locked.providers[name], pin)),
    ...gone.providers,
  ];
}

/** What the lock pins that the profile no longer names, by kind, in the lock's order. */
export function goneFromProfile(
  locked: ToolLock,
  has: { commandTool(name: string): boolean; mcpServer(name: string): boolean; provider(name: string): boolean },
): { commandTools: PinChange[]; mcpServers: PinChange[]; providers: PinChange[] } {
  const gone = (what: string, subject: PinSubject): PinChange => ({
    subject,
    text: `${what} is in ${LOCK_FILENAME} but no longer in the host profile`,
  });
  return {
    commandTools: Object.keys(locked.commandTools)
      .filter((tool) => !has.commandTool(tool))
      .map((tool) => gone(`command tool ${q(tool)}`, { kind: "command", tool })),
    mcpServers: Object.keys(locked.mcpServers)
      .filter((server) => !has.mcpServer(server))
      .map((server) => gone(`MCP server ${q(server)}`, { kind: "mcp", server })),
    providers: Object.keys(locked.providers)
      .filter((provider) => !has.provider(provider))
      .map((provider) => gone(`provider ${q(provider)}`, { kind: "provider", provider })),
  };
}

/** How a server is started, as changes show it: its URL, or its command line as JSON. */
export function launchText(pin: Pick<McpServerPin, "command" | "url">): string {
  return pin.url !== undefined ? pin.url : JSON.stringify(pin.command ?? []);
}
