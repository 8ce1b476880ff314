// The stdio transport of an MCP server we start ourselves. The server runs exactly as a command
// tool does (host/supervisedSpawn.ts): under the supervisor, in a process group and, where one
// can be made, a cgroup of its own, so closing the transport, a signal, or this process's death
// (even by SIGKILL) ends everything the server started, helpers that called setsid included (the
// SDK's own stdio transport kills only the direct child). Anything on stdout that is not one
// JSON-RPC message a line breaks the protocol, so it ends the connection with a clear reason
// instead of leaving calls to wait for an answer that cannot come.

import type { ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { lastLine, shownProgram, spawnErrorText } from "../commandTool";
import type { ProcessGroup, ProcessTracker } from "../processGroup";
import { spawnSupervised, type SupervisedProcess } from "../supervisedSpawn";
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
      const shown = shownProgram(program);
      let supervised: SupervisedProcess;
      try {
        supervised = spawnSupervised({ program, argv: args, cwd, env });
      } catch (error) {
        reject(new Error(spawnErrorText(shown, error)));
        return;
      }
      const { child, group } = supervised;
      this.child = child;
      this.group = group;
      if (group) this.launch.tracker?.add(group);
      child.once("error", (error) => {
        if (child.pid === undefined) reject(new Error(spawnErrorText(shown, error)));
        else this.end(spawnErrorText(shown, error));
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
        // Helpers the server left in its group go now (the supervisor has emptied its cgroup).
        group?.killNow();
        // The supervisor's pipe closes as it exits; by then it has said whether the program
        // could not start at all.
        void supervised.supervisorGone.then(() => {
          const startError = supervised.startError();
          if (startError !== undefined) return this.end(spawnErrorText(shown, { code: startError }));
          const detail = lastLine(this.stderrTail.toString("utf8"));
          const status = signal ? `was killed by signal ${signal}` : `exited with status ${String(code)}`;
          this.end(`the server ${status}${detail ? `: ${detail}` : ""}`);
        });
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
    const group = this.group;
    if (group === undefined) return;
    await group.terminate();
    this.launch.tracker?.delete(group);
    group.release();
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
