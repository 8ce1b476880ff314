// The MCP servers of one host profile, for one run: each started lazily on the first call of
// one of its tools and closed, with its process group, when the host closes. Plan names map
// to servers by the profile's rule (spec.ts); a name the rule routes is registered for
// preflight, and whether the server really has the tool is answered by the call itself. With a
// lock, each call first checks the tool is still the pinned one (lock/pinRefusals.ts).

import type { JsonValue } from "../../json";
import type { ToolContext, ToolHandler } from "../../run/host";
import type { ProcessTracker } from "../processGroup";
import type { SandboxHost } from "../sandbox/toolSandbox";
import type { ToolLock } from "../lock/lockFormat";
import { checkPinnedTool } from "../lock/pinRefusals";
import { McpConnection } from "./connection";
import { mcpRoute, type McpServerSpec } from "./spec";

export interface McpServersOptions {
  readonly hostEnv?: NodeJS.ProcessEnv;
  readonly tracker?: ProcessTracker;
  /** The profile whose `sandbox` setting confines the stdio servers. */
  readonly sandbox: SandboxHost;
  /** The profile's lock: a call of a tool that no longer matches it fails with the drift, unsent. */
  readonly lock?: ToolLock;
}

export class McpServers {
  private readonly connections = new Map<string, McpConnection>();

  constructor(
    private readonly specs: ReadonlyMap<string, McpServerSpec>,
    private readonly profileDir: string,
    private readonly options: McpServersOptions,
  ) {}

  /** The handler of a plan tool name some server offers, or undefined. */
  handler(name: string): ToolHandler | undefined {
    const route = mcpRoute(name, this.specs);
    if (route === undefined) return undefined;
    const lock = this.options.lock;
    return async (args: JsonValue, context: ToolContext) => {
      const connection = this.connection(route.server);
      if (lock !== undefined) await checkPinnedTool(lock, connection, route, name);
      return connection.call(route.tool, args, { signal: context.signal });
    };
  }

  /** The connection to a server, made (not yet started) on first use. */
  connection(server: string): McpConnection {
    let connection = this.connections.get(server);
    if (!connection) {
      const spec = this.specs.get(server);
      if (spec === undefined) throw new Error(`no MCP server ${JSON.stringify(server)}`);
      connection = new McpConnection(server, spec, this.profileDir, this.options);
      this.connections.set(server, connection);
    }
    return connection;
  }

  /** Closes every server started; resolves when none of their processes runs. */
  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }
}

/**
 * A host's tool registry: the profile's own tools, then the tools its MCP servers offer. It
 * iterates only the profile's own tools (an MCP server's set is open until it is asked).
 */
export class HostToolRegistry implements ReadonlyMap<string, ToolHandler> {
  constructor(
    private readonly own: ReadonlyMap<string, ToolHandler>,
    private readonly servers: McpServers,
  ) {}

  get(name: string): ToolHandler | undefined {
    return this.own.get(name) ?? this.servers.handler(name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  get size(): number {
    return this.own.size;
  }

  forEach(callback: (value: ToolHandler, key: string, map: ReadonlyMap<string, ToolHandler>) => void): void {
    for (const [key, value] of this.own) callback(value, key, this);
  }

  entries(): MapIterator<[string, ToolHandler]> {
    return this.own.entries();
  }

  keys(): MapIterator<string> {
    return this.own.keys();
  }

  values(): MapIterator<ToolHandler> {
    return this.own.values();
  }

  [Symbol.iterator](): MapIterator<[string, ToolHandler]> {
    return this.own.entries();
  }
}
