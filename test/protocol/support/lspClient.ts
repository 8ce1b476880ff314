// A real LSP client for protocol tests: starts the built server (`server/out/lsp/main.js --stdio`)
// as a child process and talks JSON-RPC to it over its stdin and stdout with
// vscode-languageserver-protocol, the library editors' clients are built on. Also: temporary
// workspaces with real files, and fixtures that mark the cursor inline with `|`.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
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
} from "vscode-languageserver-protocol/node";

export const SERVER_MAIN = resolve(__dirname, "..", "..", "..", "..", "server", "out", "lsp", "main.js");
const WAIT_MS = 10_000;

export interface ClientOptions {
  /** The workspace folder sent in initialize. */
  readonly root: string;
  /** What the client answers for the `rlmPlan` configuration section. */
  readonly settings?: Record<string, unknown>;
  /** Extra `workspace` client capabilities (e.g. `codeLens: {refreshSupport: true}`). */
  readonly workspaceCapabilities?: Record<string, unknown>;
  /** `window` client capabilities (e.g. `workDoneProgress: true`). */
  readonly windowCapabilities?: Record<string, unknown>;
  /** `initializationOptions` sent in initialize. */
  readonly initializationOptions?: Record<string, unknown>;
  /** The server's entry point; default the built server, SERVER_MAIN (a bundle, say). */
  readonly server?: string;
  /** The client's process id sent in initialize (the server exits when it is gone); default ours. */
  readonly processId?: number;
}

export class LspClient {
  readonly diagnostics = new Map<string, PublishDiagnosticsParams[]>();
  readonly logMessages: LogMessageParams[] = [];
  private stderrText = "";
  private exited = false;
  private readonly versions = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private settings: Record<string, unknown>;
  initializeResult: InitializeResult | undefined;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly connection: ProtocolConnection,
    options: ClientOptions,
  ) {
    this.settings = { ...(options.settings ?? {}) };
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (this.stderrText += chunk));
    child.on("exit", () => {
      this.exited = true;
      this.wake();
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      const list = this.diagnostics.get(params.uri) ?? [];
      list.push(params);
      this.diagnostics.set(params.uri, list);
      this.wake();
    });
    connection.onNotification(LogMessageNotification.type, (params) => {
      this.logMessages.push(params);
    });
    connection.onRequest(ConfigurationRequest.type, (params) =>
      params.items.map((item) => (item.section === "rlmPlan" ? this.settings : null)),
    );
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.listen();
  }

  /** Starts the server, initializes it with `root` as the workspace folder. */
  static async start(options: ClientOptions): Promise<LspClient> {
    const main = options.server ?? SERVER_MAIN;
    if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
    const child = spawn(process.execPath, [main, "--stdio"], { stdio: "pipe" });
    const exited = new Promise<never>((_, reject) =>
      child.once("exit", (code) => reject(new Error(`the server exited with ${code} before it initialized`))),
    );
    exited.catch(() => undefined);
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const client = new LspClient(child, connection, options);
    const rootUri = pathToFileURL(options.root).href;
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
        },
      },
    });
    client.initializeResult = await Promise.race([initialize, exited]);
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** Closes the server's stdin, as a client that went away does. */
  closeInput(): void {
    this.child.stdin.end();
  }

  /** Resolves when the server process has exited. */
  whenExited(): Promise<void> {
    if (this.hasExited()) return Promise.resolve();
    return new Promise((done) => this.child.once("exit", () => done()));
  }

  private hasExited(): boolean {
    return this.exited || this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** The server's process id (for signal tests). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True while the server process runs. */
  get alive(): boolean {
    return !this.exited && this.child.exitCode === null;
  }

  async open(file: string, text: string, languageId = "rlm-plan"): Promise<string> {
    const uri = pathToFileURL(file).href;
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version: 1, text },
    });
    return uri;
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

  async close(uri: string): Promise<void> {
    this.versions.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

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
  latest(uri: string): PublishDiagnosticsParams | undefined {
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
    return this.until(current, () => `diagnostics for ${uri}; last: ${JSON.stringify(this.latest(uri), null, 1)}`);
  }

  /** The next diagnostics for `uri` published after this call. */
  async nextDiagnostics(uri: string): Promise<Diagnostic[]> {
    const seen = this.diagnostics.get(uri)?.length ?? 0;
    return this.until(
      () => {
        const list = this.diagnostics.get(uri) ?? [];
        return list.length > seen ? list[list.length - 1]?.diagnostics : undefined;
      },
      () => `new diagnostics for ${uri}`,
    );
  }

  private until<T>(check: () => T | undefined, what: () => string): Promise<T> {
    return new Promise<T>((resolvePromise, reject) => {
      const attempt = (): void => {
        const value = check();
        if (value !== undefined) {
          done();
          resolvePromise(value);
        } else if (this.exited) {
          done();
          reject(new Error(`the server exited while waiting for ${what()}\n${this.stderrText}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${what()}`));
      }, WAIT_MS);
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(attempt);
      };
      this.waiters.add(attempt);
      attempt();
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Shuts the server down as an editor does and waits for the process to end. */
  async stop(): Promise<void> {
    if (this.alive) {
      const exited = new Promise<void>((resolvePromise) => this.child.once("exit", () => resolvePromise()));
      try {
        await this.connection.sendRequest(ShutdownRequest.type);
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        this.child.kill();
      }
      const timer = setTimeout(() => this.child.kill(), 5_000);
      await exited;
      clearTimeout(timer);
    }
    this.connection.dispose();
  }
}

/** A workspace folder under the system's temporary folder, with real files. */
export class TempWorkspace {
  readonly root: string;

  constructor(files: Record<string, string> = {}) {
    this.root = mkdtempSync(join(tmpdir(), "rlm-plan-lsp-"));
    for (const [name, text] of Object.entries(files)) this.write(name, text);
  }

  path(name: string): string {
    return join(this.root, name);
  }

  uri(name: string): string {
    return pathToFileURL(this.path(name)).href;
  }

  write(name: string, text: string): string {
    const file = this.path(name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return file;
  }

  remove(name: string): void {
    rmSync(this.path(name), { force: true });
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

export interface Fixture {
  readonly text: string;
  readonly offset: number;
  readonly position: Position;
}

/** Text with the cursor marked by the one `|` in it: `"name": "hi|ts"`. */
export function fixture(marked: string): Fixture {
  const offset = marked.indexOf("|");
  if (offset < 0 || marked.indexOf("|", offset + 1) >= 0) throw new Error("mark the cursor with exactly one |");
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  return { text, offset, position: positionAt(text, offset) };
}

/** 0-based line and UTF-16 character of an offset, as LSP counts. */
export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

/** The range of the first occurrence of `needle` (after `from`, when given) in `text`. */
export function rangeOf(text: string, needle: string, from?: string): { start: Position; end: Position } {
  const base = from === undefined ? 0 : text.indexOf(from);
  const offset = text.indexOf(needle, Math.max(base, 0));
  if (base < 0 || offset < 0) throw new Error(`${JSON.stringify(needle)} is not in the text`);
  return { start: positionAt(text, offset), end: positionAt(text, offset + needle.length) };
}

/** A host profile's text. */
export function hostProfile(profile: Record<string, unknown>): string {
  return `${JSON.stringify(profile, null, 2)}\n`;
}
