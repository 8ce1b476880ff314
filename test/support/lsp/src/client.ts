// The one LSP client of the protocol tests and the language-server benchmarks: the built server
// as a child process, JSON-RPC over its stdin and stdout with vscode-languageserver-protocol (the
// library editors' clients are built on). It keeps what the server sends (diagnostics stamped
// when they arrive, log messages, stderr), waits for the diagnostics of a document's version,
// times an edit to its diagnostics, and reads the server's memory.

import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  CompletionRequest,
  ConfigurationRequest,
  createProtocolConnection,
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type FileEvent,
  type Hover,
  type InitializeResult,
  type LogMessageParams,
  type Position,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
} from "vscode-languageserver-protocol/node";
import { findMemoryLine, processMemory, type HeapUsage, type Memory } from "./memory";
import { spawnServer, type ServerProcessOptions } from "./serverProcess";

const DEFAULT_WAIT_MS = 10_000;
/** Initialize waits at least this long: a cold start on a loaded machine is slow. */
const INITIALIZE_MS = 30_000;
/** After this the server is killed if shutdown and exit have not ended it (a CPU profile takes a while). */
const STOP_MS = 10_000;

export interface ClientOptions extends ServerProcessOptions {
  /** The workspace folder sent in initialize. */
  readonly root: string;
  /** What the client answers for the `rlmPlan` configuration section. */
  readonly settings?: Record<string, unknown>;
  /** Extra `workspace` client capabilities (e.g. `codeLens: {refreshSupport: true}`). */
  readonly workspaceCapabilities?: Record<string, unknown>;
  /** Extra `textDocument` client capabilities (e.g. `semanticTokens: {serverCancelSupport: true}`). */
  readonly textDocumentCapabilities?: Record<string, unknown>;
  /** `window` client capabilities (e.g. `workDoneProgress: true`). */
  readonly windowCapabilities?: Record<string, unknown>;
  /** `initializationOptions` sent in initialize. */
  readonly initializationOptions?: Record<string, unknown>;
  /** The client's process id sent in initialize (the server exits when it is gone); default ours. */
  readonly processId?: number;
  /** How long a wait for diagnostics or a memory report may take before it fails; default 10 s. */
  readonly waitMs?: number;
  /**
   * Registers the caller's own handlers (server requests, notifications) on the connection
   * before initialize, so that none of the server's messages arrives before its handler.
   */
  readonly onConnection?: (connection: ProtocolConnection) => void;
}

/** A publishDiagnostics as it arrived. */
export interface PublishedDiagnostics extends PublishDiagnosticsParams {
  /** When it arrived, in milliseconds on performance.now()'s clock. */
  readonly at: number;
}

export class LspClient {
  /** Every publishDiagnostics by document URI, in the order they arrived. */
  readonly diagnostics = new Map<string, PublishedDiagnostics[]>();
  readonly logMessages: LogMessageParams[] = [];
  initializeResult: InitializeResult | undefined;
  private stderrText = "";
  private exited = false;
  private readonly versions = new Map<string, number>();
  /** Waits by the URI whose diagnostics they wait for; all are woken when the server exits. */
  private readonly waiters = new Map<string, Set<() => void>>();
  private settings: Record<string, unknown>;
  private readonly waitMs: number;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    /** For the requests and notifications the client has no method for. */
    readonly connection: ProtocolConnection,
    options: ClientOptions,
  ) {
    this.settings = { ...(options.settings ?? {}) };
    this.waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (this.stderrText += chunk));
    child.on("exit", () => {
      this.exited = true;
      for (const waiting of [...this.waiters.values()]) for (const wake of [...waiting]) wake();
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = this.diagnostics.get(params.uri) ?? [];
      list.push({ ...params, at: performance.now() });
      this.diagnostics.set(params.uri, list);
      for (const wake of [...(this.waiters.get(params.uri) ?? [])]) wake();
    });
    connection.onNotification(LogMessageNotification.type, (params) => {
      this.logMessages.push(params);
    });
    connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => (item.section === "rlmPlan" ? this.settings : null)),
    );
    connection.onRequest(RegistrationRequest.type, () => undefined);
    options.onConnection?.(connection);
    connection.listen();
  }

  /** Starts the server, initializes it with `root` as the workspace folder. */
  static async start(options: ClientOptions): Promise<LspClient> {
    const child = spawnServer(options);
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const client = new LspClient(child, connection, options);
    let timer: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      child.once("exit", (code) =>
        reject(new Error(`the server exited with ${code} before it initialized\n${client.stderrText}`)),
      );
      timer = setTimeout(
        () => reject(new Error(`the server did not answer initialize\n${client.stderrText}`)),
        Math.max(client.waitMs, INITIALIZE_MS),
      );
    });
    failed.catch(() => undefined);
    const rootUri = pathToFileURL(options.root).href;
    try {
      const initialize = connection.sendRequest(InitializeRequest.type, {
        processId: options.processId ?? process.pid,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "test" }],
        ...(options.initializationOptions ? { initializationOptions: options.initializationOptions } : {}),
        capabilities: {
          ...(options.windowCapabilities ? { window: options.windowCapabilities } : {}),
          workspace: {
            configuration: true,
            didChangeConfiguration: {},
            didChangeWatchedFiles: {},
            ...options.workspaceCapabilities,
          },
          textDocument: {
            publishDiagnostics: { relatedInformation: true, versionSupport: true },
            hover: { contentFormat: ["markdown", "plaintext"] },
            completion: { completionItem: { snippetSupport: true } },
            ...options.textDocumentCapabilities,
          },
        },
      });
      client.initializeResult = await Promise.race([initialize, failed]);
      await connection.sendNotification(InitializedNotification.type, {});
      return client;
    } catch (error) {
      client.kill();
      connection.dispose();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Closes the server's stdin, as a client that went away does. */
  closeInput(): void {
    this.child.stdin.end();
  }

  /** Ends the server at once (SIGKILL): no shutdown, no CPU profile. */
  kill(): void {
    if (this.alive) this.child.kill("SIGKILL");
  }

  /** Resolves when the server process has exited. */
  whenExited(): Promise<void> {
    if (!this.alive) return Promise.resolve();
    return new Promise((done) => this.child.once("exit", () => done()));
  }

  /** The server's process id (for signal tests and its memory). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True while the server process runs. */
  get alive(): boolean {
    return !this.exited && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Opens a document (version 1); answers its URI. */
  async open(file: string, text: string, languageId = "rlm-plan"): Promise<string> {
    const uri = pathToFileURL(file).href;
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
    return uri;
  }

  /** Opens a document and resolves with the diagnostics published for its first version. */
  async openChecked(
    file: string,
    text: string,
    languageId = "rlm-plan",
  ): Promise<{ uri: string; published: PublishedDiagnostics }> {
    const uri = await this.open(file, text, languageId);
    return { uri, published: await this.diagnosticsOf(uri, 1) };
  }

  /** Replaces the whole text; returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    return version;
  }

  /** Replaces `range` with `text` (one incremental change, as an editor sends typing); returns the new version. */
  async edit(uri: string, range: Range, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
    return version;
  }

  /**
   * Replaces the whole text (one full-text content change) and resolves with the diagnostics of
   * the new version and the milliseconds from just before the notification was serialized and
   * written to the server's stdin to the moment those diagnostics arrived.
   */
  async changeTimed(
    uri: string,
    text: string,
  ): Promise<{ version: number; ms: number; published: PublishedDiagnostics }> {
    const start = performance.now();
    const version = await this.change(uri, text);
    const published = await this.diagnosticsOf(uri, version);
    return { version, ms: published.at - start, published };
  }

  /**
   * `edit`, then waits for the diagnostics of that version; the same timing as `changeTimed`,
   * for an incremental change (what an editor sends as someone types).
   */
  async editTimed(
    uri: string,
    range: Range,
    text: string,
  ): Promise<{ version: number; ms: number; published: PublishedDiagnostics }> {
    const start = performance.now();
    const version = await this.edit(uri, range, text);
    const published = await this.diagnosticsOf(uri, version);
    return { version, ms: published.at - start, published };
  }

  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /** The version of an open document (0 when it is not open). */
  version(uri: string): number {
    return this.versions.get(uri) ?? 0;
  }

  /** Changes what the client answers for `rlmPlan` and tells the server. */
  async configure(settings: Record<string, unknown>): Promise<void> {
    this.settings = { ...settings };
    await this.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { rlmPlan: settings },
    });
  }

  async filesChanged(changes: FileEvent[]): Promise<void> {
    await this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes });
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

  /** The latest diagnostics published for `uri`, if any. */
  latest(uri: string): PublishedDiagnostics | undefined {
    const list = this.diagnostics.get(uri);
    return list?.[list.length - 1];
  }

  /**
   * Waits until the latest diagnostics for `uri` are of the document's current version (or of
   * any version for files the client has not opened) and satisfy `accept`.
   */
  async waitForDiagnostics(
    uri: string,
    accept: (diagnostics: Diagnostic[]) => boolean = () => true,
  ): Promise<Diagnostic[]> {
    const current = (): Diagnostic[] | undefined => {
      const latest = this.latest(uri);
      if (!latest) return undefined;
      const version = this.versions.get(uri);
      if (version !== undefined && latest.version !== version) return undefined;
      return accept(latest.diagnostics) ? latest.diagnostics : undefined;
    };
    return this.until(uri, current, () => `diagnostics for ${uri}; last: ${JSON.stringify(this.latest(uri), null, 1)}`);
  }

  /** The diagnostics published for `version` of `uri`: already arrived, or when they arrive. */
  diagnosticsOf(uri: string, version: number): Promise<PublishedDiagnostics> {
    return this.until(
      uri,
      () => {
        const list = this.diagnostics.get(uri) ?? [];
        for (let i = list.length - 1; i >= 0; i--) if (list[i]?.version === version) return list[i];
        return undefined;
      },
      () => `diagnostics of ${uri} version ${version}`,
    );
  }

  /** The next diagnostics for `uri` published after this call. */
  async nextDiagnostics(uri: string): Promise<Diagnostic[]> {
    const seen = this.diagnostics.get(uri)?.length ?? 0;
    return this.until(
      uri,
      () => {
        const list = this.diagnostics.get(uri) ?? [];
        return list.length > seen ? list[list.length - 1]?.diagnostics : undefined;
      },
      () => `new diagnostics for ${uri}`,
    );
  }

  /** Checks again whenever diagnostics for `uri` arrive; fails when the server exits or after waitMs. */
  private until<T>(uri: string, check: () => T | undefined, what: () => string): Promise<T> {
    return new Promise<T>((resolvePromise, reject) => {
      const waiting = this.waiters.get(uri) ?? new Set<() => void>();
      this.waiters.set(uri, waiting);
      const attempt = (): void => {
        const value = check();
        if (value !== undefined) {
          done();
          resolvePromise(value);
        } else if (!this.alive) {
          done();
          reject(new Error(`the server exited while waiting for ${what()}\n${this.stderrText}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${what()}\n${this.stderrText}`));
      }, this.waitMs);
      const done = (): void => {
        clearTimeout(timer);
        waiting.delete(attempt);
        if (waiting.size === 0) this.waiters.delete(uri);
      };
      waiting.add(attempt);
      attempt();
    });
  }

  /** VmRSS and VmHWM of the server process (Linux). */
  memory(): Memory {
    if (this.pid === undefined) throw new Error("the server has no process id");
    return processMemory(this.pid);
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
      }, this.waitMs);
      // Registered after the listener that appends to stderrText, so it sees the chunk appended.
      const look = (): void => {
        const found = findMemoryLine(this.stderrText.slice(from));
        if (!found) return;
        clearTimeout(timer);
        this.child.stderr.off("data", look);
        // The line is ours: remove it so stderr shows only what the server wrote.
        this.stderrText = this.stderrText.slice(0, from + found.start) + this.stderrText.slice(from + found.end + 1);
        resolvePromise(found.usage);
      };
      this.child.stderr.on("data", look);
      this.child.kill("SIGUSR2");
    });
  }

  /**
   * Shuts the server down as an editor does (shutdown, exit) and waits for the process to end
   * (and write its CPU profile); kills it if that takes longer than 10 s or the connection fails.
   */
  async stop(): Promise<void> {
    if (this.alive) {
      const exited = this.whenExited();
      const timer = setTimeout(() => this.kill(), STOP_MS);
      try {
        await Promise.race([this.connection.sendRequest(ShutdownRequest.type), exited]);
        if (this.alive) await this.connection.sendNotification(ExitNotification.type);
      } catch {
        this.kill();
      }
      await exited;
      clearTimeout(timer);
    }
    this.connection.dispose();
  }
}
