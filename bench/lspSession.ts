// A real LSP client for the language-server benchmark: starts the built server
// (`server/out/lsp/main.js --stdio`) as a child process and talks JSON-RPC to it over stdin/stdout
// with vscode-languageserver-protocol, as test/protocol/support/lspClient.ts does. Timing-aware:
// each publishDiagnostics is stamped when it arrives, so a didChange can be timed to the
// diagnostics of exactly the version it created. Also reads the server's memory from /proc.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  CompletionRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type Hover,
  type Position,
  type ProtocolConnection,
} from "vscode-languageserver-protocol/node";
import { now } from "./measure";

/** bench/out/lspSession.js -> server/out/lsp/main.js; RLM_PLAN_BENCH_SERVER measures another build (a "before"). */
export const SERVER_MAIN =
  process.env.RLM_PLAN_BENCH_SERVER ?? resolve(__dirname, "..", "..", "server", "out", "lsp", "main.js");
const WAIT_MS = 60_000;

export interface SessionOptions {
  /** The workspace folder sent in initialize. */
  readonly root: string;
  /** The `rlmPlan` settings: sent as initializationOptions and answered to workspace/configuration. */
  readonly settings: Record<string, unknown>;
  /** When set, the server runs under `node --cpu-prof --cpu-prof-dir=<dir>`. */
  readonly cpuProfileDir?: string;
  /** Preload serverMemoryHook.js (with --expose-gc), for collectGarbage(). */
  readonly memoryHook?: boolean;
}

/** What serverMemoryHook.ts writes on stderr, before the JSON of process.memoryUsage(). */
const MEMORY_LINE_PREFIX = "rlm-plan-bench-memory ";
const MEMORY_HOOK = resolve(__dirname, "serverMemoryHook.js");

/** process.memoryUsage() of the server after a full garbage collection, in bytes. */
export interface HeapUsage {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

export interface PublishedDiagnostics {
  readonly version: number | undefined;
  readonly diagnostics: Diagnostic[];
  /** When the notification arrived, on the clock of `now()`. */
  readonly at: number;
}

export interface Memory {
  /** Resident set size now, in KiB (VmRSS). */
  readonly rssKiB: number;
  /** Peak resident set size, in KiB (VmHWM). */
  readonly peakKiB: number;
}

export class LspSession {
  private readonly latestByUri = new Map<string, PublishedDiagnostics>();
  private readonly waiters = new Map<string, (published: PublishedDiagnostics) => void>();
  private readonly versions = new Map<string, number>();
  private stderrText = "";
  private exited = false;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    /** For requests the session has no method for (formatting, symbols). */
    readonly connection: ProtocolConnection,
    private readonly settings: Record<string, unknown>,
  ) {
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (this.stderrText += chunk));
    child.on("exit", () => {
      this.exited = true;
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const published: PublishedDiagnostics = { version: params.version, diagnostics: params.diagnostics, at: now() };
      this.latestByUri.set(params.uri, published);
      const key = waiterKey(params.uri, params.version);
      const waiter = this.waiters.get(key);
      if (waiter) {
        this.waiters.delete(key);
        waiter(published);
      }
    });
    connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => (item.section === "rlmPlan" ? this.settings : null)),
    );
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.listen();
  }

  static async start(options: SessionOptions): Promise<LspSession> {
    if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run npx tsc -b first`);
    const nodeArgs = [
      ...(options.cpuProfileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`]),
      ...(options.memoryHook === true ? ["--expose-gc", "--require", MEMORY_HOOK] : []),
    ];
    const child = spawn(process.execPath, [...nodeArgs, SERVER_MAIN, "--stdio"], { stdio: "pipe" });
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const session = new LspSession(child, connection, { ...options.settings });
    const rootUri = pathToFileURL(options.root).href;
    const exited = new Promise<never>((_, reject) =>
      child.once("exit", (code) => reject(new Error(`the server exited with ${code}: ${session.stderrText}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([
      connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "bench" }],
        initializationOptions: { rlmPlan: options.settings },
        capabilities: {
          workspace: { configuration: true, didChangeConfiguration: {}, didChangeWatchedFiles: {} },
          textDocument: {
            publishDiagnostics: { relatedInformation: true, versionSupport: true },
            hover: { contentFormat: ["markdown", "plaintext"] },
            completion: { completionItem: { snippetSupport: true } },
          },
        },
      }),
      exited,
    ]);
    await connection.sendNotification(InitializedNotification.type, {});
    return session;
  }

  /** The server's process id. */
  get pid(): number {
    const pid = this.child.pid;
    if (pid === undefined) throw new Error("the server has no process id");
    return pid;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Opens a document and resolves with the diagnostics published for its first version. */
  async open(file: string, text: string): Promise<{ uri: string; published: PublishedDiagnostics }> {
    const uri = pathToFileURL(file).href;
    this.versions.set(uri, 1);
    const published = this.diagnosticsOf(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "rlm-plan", version: 1, text },
    });
    return { uri, published: await published };
  }

  /**
   * Replaces the whole text (one full-text content change) and resolves with the diagnostics of
   * the new version and the milliseconds from just before the notification was serialized and
   * written to the server's stdin to the moment those diagnostics arrived.
   */
  async change(uri: string, text: string): Promise<{ ms: number; published: PublishedDiagnostics }> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    const published = this.diagnosticsOf(uri, version);
    const start = now();
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    const result = await published;
    return { ms: result.at - start, published: result };
  }

  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  async completion(uri: string, position: Position): Promise<CompletionItem[]> {
    const result: CompletionItem[] | CompletionList | null = await this.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position,
    });
    if (!result) return [];
    return Array.isArray(result) ? result : result.items;
  }

  /** VmRSS and VmHWM of the server process, from /proc/<pid>/status (Linux). */
  memory(): Memory {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const field = (name: string): number => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
      if (!match?.[1]) throw new Error(`no ${name} in /proc/${this.pid}/status`);
      return Number(match[1]);
    };
    return { rssKiB: field("VmRSS"), peakKiB: field("VmHWM") };
  }

  /**
   * Asks the server (started with memoryHook) for a full garbage collection and its
   * process.memoryUsage() afterwards.
   */
  collectGarbage(): Promise<HeapUsage> {
    return new Promise<HeapUsage>((resolvePromise, reject) => {
      const from = this.stderrText.length;
      const timer = setTimeout(() => {
        this.child.stderr.off("data", look);
        reject(new Error("the server did not report its memory: was it started with memoryHook?"));
      }, WAIT_MS);
      const look = (): void => {
        const fresh = this.stderrText.slice(from);
        const start = fresh.indexOf(MEMORY_LINE_PREFIX);
        const end = start < 0 ? -1 : fresh.indexOf("\n", start);
        if (end < 0) return;
        clearTimeout(timer);
        this.child.stderr.off("data", look);
        const line = fresh.slice(start + MEMORY_LINE_PREFIX.length, end);
        // The line is ours: remove it so stderr shows only what the server wrote.
        this.stderrText = this.stderrText.slice(0, from + start) + this.stderrText.slice(from + end + 1);
        resolvePromise(JSON.parse(line) as HeapUsage);
      };
      this.child.stderr.on("data", look);
      this.child.kill("SIGUSR2");
    });
  }

  /** The diagnostics of `version` of `uri`: already arrived, or the next to arrive. */
  private diagnosticsOf(uri: string, version: number): Promise<PublishedDiagnostics> {
    const latest = this.latestByUri.get(uri);
    if (latest && latest.version === version) return Promise.resolve(latest);
    return new Promise<PublishedDiagnostics>((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiterKey(uri, version));
        reject(new Error(`timed out waiting for diagnostics of ${uri} version ${version}\n${this.stderrText}`));
      }, WAIT_MS);
      this.waiters.set(waiterKey(uri, version), (published) => {
        clearTimeout(timer);
        resolvePromise(published);
      });
    });
  }

  /** Shuts the server down as an editor does and waits for it to exit (and write a CPU profile). */
  async stop(): Promise<void> {
    if (!this.exited) {
      const exited = new Promise<void>((resolvePromise) => this.child.once("exit", () => resolvePromise()));
      try {
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        this.child.kill();
      }
      const timer = setTimeout(() => this.child.kill(), 10_000);
      await exited;
      clearTimeout(timer);
    }
    this.connection.dispose();
  }
}

function waiterKey(uri: string, version: number | undefined): string {
  return `${version ?? "?"} ${uri}`;
}
