// The stdio transport of an MCP server we start ourselves. The server runs exactly as a command
// tool does (host/supervisedSpawn.ts): under the supervisor (or bubblewrap), in a process group and, where one
// can be made, a cgroup of its own, so closing the transport, a signal, or this process's death
// (even by SIGKILL) ends everything the server started, helpers that called setsid included (the
// SDK's own stdio transport kills only the direct child). Anything on stdout that is not one
// JSON-RPC message a line breaks the protocol, and so does a message over the server's size
// limit: either ends the connection (and the server) with a clear reason instead of leaving
// calls to wait for an answer that cannot come, or the whole process to crash.

import type { ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { lastLine, shownCommand, spawnErrorText } from "../commandTool";
import type { ProcessGroup, ProcessTracker } from "../processGroup";
import { sandboxHint, type ToolSandbox } from "../sandbox/toolSandbox";
import { spawnSupervised, type SupervisedProcess } from "../supervisedSpawn";
import { mcpSdk } from "./lazySdk";
import { LineFramer } from "./lineFramer";

export interface StdioServerLaunch {
  /** The program, already resolved to a path. */
  readonly program: string;
  /** The program as the profile writes it, which messages name. */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  /** The most bytes one message from the server may hold. */
  readonly maxMessageBytes: number;
  readonly tracker?: ProcessTracker;
  /** The server's sandbox; undefined when the profile turns it off. */
  readonly sandbox: ToolSandbox | undefined;
}

const STDERR_TAIL_BYTES = 8 * 1024;

/** What a server did that passed its message size limit (after its name). */
export function tooBigText(limit: number): string {
  return `sent a message of more than ${limit} bytes (its limit: maxMessageBytes in the host profile)`;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private group: ProcessGroup | undefined;
  private readonly framer: LineFramer;
  private stderrTail = Buffer.alloc(0);
  private closed = false;
  /** Why the connection ended, once it has: safe to show (no message content). */
  endReason: string | undefined;
  /** Set when the connection ended because a message passed the limit: the limit, in bytes. */
  messageLimitExceeded: number | undefined;

  constructor(private readonly launch: StdioServerLaunch) {
    this.framer = new LineFramer(launch.maxMessageBytes);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const { program, command, args, cwd, env, sandbox } = this.launch;
      const shown = shownCommand(command);
      let supervised: SupervisedProcess;
      try {
        supervised = spawnSupervised({ program, argv: args, cwd, env, sandbox });
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
        // Helpers the server left in its group go now.
        group?.killNow();
        // Once the supervisor (or bubblewrap) is gone, it has said whether the program could
        // not start at all.
        void supervised.supervisorGone.then(() => {
          const startError = supervised.startError();
          if (startError !== undefined) return this.end(spawnErrorText(shown, { code: startError }));
          const stderr = this.stderrTail.toString("utf8");
          const detail = lastLine(stderr);
          const exit = supervised.status(code, signal);
          const status = exit.signal
            ? `was killed by signal ${exit.signal}`
            : `exited with status ${String(exit.code)}`;
          this.end(`the server ${status}${detail ? `: ${detail}` : ""}${sandboxHint(stderr, sandbox)}`);
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
    void group.release();
  }

  private read(chunk: Buffer): void {
    if (this.closed) return;
    const { lines, tooLong } = this.framer.push(chunk);
    for (const line of lines) {
      let message: JSONRPCMessage;
      try {
        message = mcpSdk().deserializeMessage(line.toString("utf8"));
      } catch {
        return this.stop("the server wrote something that is not a JSON-RPC message on stdout");
      }
      this.onmessage?.(message);
      if (this.closed) return;
    }
    if (tooLong) {
      this.messageLimitExceeded = this.framer.limit;
      this.stop(`the server ${tooBigText(this.framer.limit)}`);
    }
  }

  /** Ends the connection for `reason` and the server with it. */
  private stop(reason: string): void {
    this.end(reason);
    void this.group?.terminate();
  }

  private end(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.endReason = reason;
    this.framer.clear();
    this.child?.stdin?.end();
    this.child?.stdout?.destroy();
    this.onclose?.();
  }
}
