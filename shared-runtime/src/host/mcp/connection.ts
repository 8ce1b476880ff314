// One MCP server as a run (or the editor) uses it: started on first use, initialized within its
// startup timeout, its tool list cached and refreshed when it announces tools/list_changed,
// tools called with a timeout and the caller's cancellation (the SDK sends
// notifications/cancelled), and closed with its whole process group. The client declares no
// capabilities, so the server cannot ask for sampling, elicitation or roots: the SDK answers
// such requests with "method not found". Every failure is an Error whose message is safe to show.

import { resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { isJsonObject, type JsonValue } from "../../json";
import { findProgram, toolEnv } from "../commandTool";
import type { ProcessTracker } from "../processGroup";
import { toolAnswer } from "./results";
import { MCP_DEFAULTS, mcpTransportOf, type McpServerSpec } from "./spec";
import { mcpSdk } from "./lazySdk";
import { mcpOutputValidator } from "./outputSchemas";
import { GroupStdioTransport, tooBigText } from "./stdioTransport";
import { toolSandbox, type SandboxHost } from "../sandbox/toolSandbox";

export interface McpConnectionOptions {
  /** Where inheritEnv names are copied from, and PATH for finding the program; default process.env. */
  readonly hostEnv?: NodeJS.ProcessEnv;
  /** Records the server's process group so a host can kill it when it closes. */
  readonly tracker?: ProcessTracker;
  /** The profile whose `sandbox` setting, with the server's own declarations, confines a stdio server. */
  readonly sandbox: SandboxHost;
}

export interface McpCallOptions {
  readonly signal: AbortSignal;
}

const CLIENT_INFO = { name: "rlm-plan", version: "0.1.0" };

export class McpConnection {
  private started: Promise<{ client: Client; transport: Transport }> | undefined;
  private toolList: Promise<readonly Tool[]> | undefined;
  private closed = false;
  private transportInUse: Transport | undefined;

  constructor(
    readonly server: string,
    private readonly spec: McpServerSpec,
    private readonly profileDir: string,
    private readonly options: McpConnectionOptions,
  ) {}

  get timeoutMs(): number {
    return this.spec.timeoutMs ?? MCP_DEFAULTS.timeoutMs;
  }

  /** The server's tools, listed once and again after it says the list changed. */
  tools(): Promise<readonly Tool[]> {
    this.toolList ??= this.listTools();
    const listing = this.toolList;
    // A failed listing is not cached: the next question asks again.
    listing.catch(() => {
      if (this.toolList === listing) this.toolList = undefined;
    });
    return listing;
  }

  /** The name and version the server reported at initialize (empty when it reported none). */
  async serverInfo(): Promise<{ name: string; version: string }> {
    const { client } = await this.connect();
    const info = client.getServerVersion();
    // The server's own words, shown in drift messages and written to the lock: cut to a line's length.
    return { name: cut(String(info?.name ?? "")), version: cut(String(info?.version ?? "")) };
  }

  /** Calls one of the server's tools; rejects with a message fit for a tool_error. */
  async call(tool: string, args: JsonValue, options: McpCallOptions): Promise<JsonValue> {
    if (options.signal.aborted) throw new Error("was cancelled before it started");
    if (!isJsonObject(args)) throw new Error("the arguments of an MCP tool must be an object");
    const { client } = await this.connect();
    const tools = await this.tools();
    if (!tools.some((t) => t.name === tool)) {
      const names = tools.map((t) => JSON.stringify(t.name));
      const listed =
        names.length === 0
          ? "it lists none"
          : `it lists ${names.slice(0, 12).join(", ")}${names.length > 12 ? ", ..." : ""}`;
      throw new Error(`MCP server ${JSON.stringify(this.server)} has no tool ${JSON.stringify(tool)} (${listed})`);
    }
    // The SDK leaves its abort listener on the signal after the request settles: a signal of the
    // call's own, let go of afterwards, keeps a later end of the run from cancelling it twice.
    const call = new AbortController();
    const forward = () => call.abort();
    options.signal.addEventListener("abort", forward, { once: true });
    let result;
    try {
      result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: call.signal,
        timeout: this.timeoutMs,
      });
    } catch (error) {
      const limit = this.messageLimitExceeded();
      // The call's own failure names the tool; this one is the server's doing: name it.
      if (limit !== undefined) throw new Error(`MCP server ${JSON.stringify(this.server)} ${tooBigText(limit)}`);
      throw new Error(this.failureText(error, options.signal));
    } finally {
      options.signal.removeEventListener("abort", forward);
    }
    const answer = toolAnswer(result as { content?: unknown; structuredContent?: unknown; isError?: unknown });
    if (!answer.ok) throw new Error(answer.message);
    return answer.value;
  }

  /**
   * Ends the connection and, for a server we started, everything it started: at once, even while
   * the server is still starting (a start in progress then fails as closed).
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.transportInUse?.close().catch(() => undefined);
  }

  private connect(): Promise<{ client: Client; transport: Transport }> {
    if (this.closed) return Promise.reject(new Error(`MCP server ${JSON.stringify(this.server)} was closed`));
    this.started ??= this.start();
    return this.started;
  }

  private async start(): Promise<{ client: Client; transport: Transport }> {
    const transport = this.transport();
    this.transportInUse = transport;
    const { Client, ToolListChangedNotificationSchema } = mcpSdk();
    // Structured results are checked against their outputSchema by the core's bounded engine.
    const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: mcpOutputValidator });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.toolList = undefined;
    });
    const startupMs = this.spec.startupTimeoutMs ?? MCP_DEFAULTS.startupTimeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), startupMs);
    try {
      await client.connect(transport, { signal: controller.signal, timeout: startupMs });
    } catch (error) {
      await transport.close().catch(() => undefined);
      const why = controller.signal.aborted
        ? `did not answer initialize within ${startupMs} ms (raise startupTimeoutMs if it starts slowly)`
        : this.failureText(error, controller.signal);
      throw new Error(`MCP server ${JSON.stringify(this.server)} could not be started: ${why}`);
    } finally {
      clearTimeout(timer);
    }
    return { client, transport };
  }

  private transport(): Transport {
    if (mcpTransportOf(this.spec) === "http")
      return new (mcpSdk().StreamableHTTPClientTransport)(new URL(this.spec.url ?? ""));
    const hostEnv = this.options.hostEnv ?? process.env;
    const env = toolEnv({ env: this.spec.env, inheritEnv: this.spec.inheritEnv ?? MCP_DEFAULTS.inheritEnv }, hostEnv);
    const cwd = resolve(this.profileDir, this.spec.cwd ?? ".");
    const program = findProgram(this.spec.command ?? "", cwd, env.PATH ?? hostEnv.PATH ?? "");
    return new GroupStdioTransport({
      program,
      command: this.spec.command ?? "",
      args: this.spec.args ?? [],
      cwd,
      env,
      maxMessageBytes: this.spec.maxMessageBytes ?? MCP_DEFAULTS.maxMessageBytes,
      sandbox: toolSandbox(this.options.sandbox, this.spec),
      ...(this.options.tracker ? { tracker: this.options.tracker } : {}),
    });
  }

  private async listTools(): Promise<readonly Tool[]> {
    const { client } = await this.connect();
    const tools: Tool[] = [];
    let cursor: string | undefined;
    const timeout = this.spec.startupTimeoutMs ?? MCP_DEFAULTS.startupTimeoutMs;
    try {
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
        for (const item of page.tools) tools.push(item);
        cursor = page.nextCursor;
      } while (cursor !== undefined && tools.length < 10_000);
    } catch (error) {
      throw new Error(`MCP server ${JSON.stringify(this.server)} did not list its tools: ${this.failureText(error)}`);
    }
    return tools;
  }

  /** A short, safe reason for a failed request. */
  private failureText(error: unknown, signal?: AbortSignal): string {
    if (signal?.aborted) return "was cancelled";
    const ended = this.endReason();
    const { ErrorCode, McpError } = mcpSdk();
    if (error instanceof McpError) {
      if (error.code === ErrorCode.RequestTimeout) return `timed out after ${this.timeoutMs} ms`;
      if (error.code === ErrorCode.ConnectionClosed) return ended ?? "the server closed the connection";
      return `the server answered with error ${error.code}: ${cut(error.message.replace(/^MCP error -?\d+: /, ""))}`;
    }
    if (error instanceof Error && error.message !== "") return cut(error.message);
    return ended ?? cut(String(error));
  }

  /** The size limit a message of the server passed, ending the connection, if one did. */
  private messageLimitExceeded(): number | undefined {
    return this.transportInUse instanceof GroupStdioTransport ? this.transportInUse.messageLimitExceeded : undefined;
  }

  /** Why a server we started is gone (its exit status and last stderr line), if it is. */
  private endReason(): string | undefined {
    return this.transportInUse instanceof GroupStdioTransport ? this.transportInUse.endReason : undefined;
  }
}

function cut(text: string): string {
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
