// The stdio transport of an MCP server we start ourselves: the program is spawned detached, so
// it leads its own process group and closing the transport ends everything it started (the
// SDK's own stdio transport kills only the direct child). Anything on stdout that is not one
// JSON-RPC message a line breaks the protocol, so it ends the connection with a clear reason
// instead of leaving calls to wait for an answer that cannot come.

import { spawn, type ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { lastLine, shownProgram, spawnErrorText } from "../commandTool";
import { ProcessGroup, type ProcessTracker } from "../processGroup";
import { mcpSdk } from "./lazySdk";

export interface StdioServerLaunch {
  /** The program, already resolved to a path. */
  readonly program: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly tracker?: ProcessTracker;
}

const STDERR_TAIL_BYTES = 8 * 1024;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private group: ProcessGroup | undefined;
  private readonly buffer = new (mcpSdk().ReadBuffer)();
  private stderrTail = Buffer.alloc(0);
  private closed = false;
  /** Why the connection ended, once it has: safe to show (no message content). */
  endReason: string | undefined;

  constructor(private readonly launch: StdioServerLaunch) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const { program, args, cwd, env } = this.launch;
      let child: ChildProcess;
      try {
        child = spawn(program, [...args], { shell: false, cwd, env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
      } catch (error) {
        reject(new Error(spawnErrorText(shownProgram(program), error)));
        return;
      }
      this.child = child;
      if (child.pid !== undefined) {
        this.group = new ProcessGroup(child.pid);
        this.launch.tracker?.add(this.group);
      }
      child.once("error", (error) => {
        if (child.pid === undefined) reject(new Error(spawnErrorText(shownProgram(program), error)));
        else this.end(spawnErrorText(shownProgram(program), error));
      });
      child.once("spawn", () => resolve());
      child.stdin?.on("error", () => {
        // EPIPE: the server is gone; its exit tells why.
      });
      child.stdout?.on("data", (chunk: Buffer) => this.read(chunk));
      child.stderr?.on("data", (chunk: Buffer) => {
        this.stderrTail = Buffer.concat([this.stderrTail, chunk]);
        if (this.stderrTail.length > STDERR_TAIL_BYTES)
          this.stderrTail = this.stderrTail.subarray(this.stderrTail.length - STDERR_TAIL_BYTES);
      });
      child.once("exit", (code, signal) => {
        const detail = lastLine(this.stderrTail.toString("utf8"));
        const status = signal ? `was killed by signal ${signal}` : `exited with status ${String(code)}`;
        this.end(`the server ${status}${detail ? `: ${detail}` : ""}`);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.closed || !stdin || stdin.destroyed) return Promise.reject(new Error(this.endReason ?? "not connected"));
    return new Promise((resolve) => {
      if (stdin.write(mcpSdk().serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the connection and the server's whole process group; resolves when nothing of it runs. */
  async close(): Promise<void> {
    this.end(this.endReason ?? "the connection was closed");
    await this.group?.terminate();
    if (this.group) this.launch.tracker?.delete(this.group);
  }

  private read(chunk: Buffer): void {
    if (this.closed) return;
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch {
        this.end("the server wrote something that is not a JSON-RPC message on stdout");
        void this.group?.terminate();
        return;
      }
      if (message === null) return;
      this.onmessage?.(message);
      if (this.closed) return;
    }
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.endReason = reason;
    this.buffer.clear();
    this.child?.stdin?.end();
    this.child?.stdout?.destroy();
    this.onclose?.();
  }
}
