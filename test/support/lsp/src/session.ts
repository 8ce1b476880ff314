// A server on a temporary workspace of real files: the block protocol tests repeated (make the
// workspace, start the server, open a document, wait for its first diagnostics, stop the server,
// remove the folder) as one object, whose disposal ends the server even when the test failed.

import type { Diagnostic } from "vscode-languageserver-protocol";
import { LspClient, type ClientOptions } from "./client";
import { TempWorkspace } from "./workspace";

export interface ServerOptions extends Omit<ClientOptions, "root"> {
  /** The workspace's files: text by path relative to its root (`rlmplan.host.json`, tools...). */
  readonly files?: Record<string, string>;
}

export interface OpenOptions {
  /** Default `rlm-plan`; `jsonc` for a host profile. */
  readonly languageId?: string;
  /** Wait until the document's diagnostics satisfy this (default: the first published). */
  readonly accept?: (diagnostics: Diagnostic[]) => boolean;
}

/** A document opened in the session's workspace, with its first diagnostics. */
export interface OpenedDocument {
  readonly uri: string;
  /** Its path on disk (the file itself is not written: the client holds the text). */
  readonly path: string;
  readonly text: string;
  readonly diagnostics: Diagnostic[];
}

export class ServerSession {
  /** Made at once, so its paths can be named before the server starts. */
  readonly workspace: TempWorkspace;
  private started: LspClient | undefined;

  constructor(private readonly options: ServerOptions = {}) {
    const { files } = options;
    this.workspace = new TempWorkspace(files);
  }

  /** Starts the server on the workspace. */
  async start(): Promise<this> {
    if (this.started) throw new Error("the server is already started");
    const { files: _files, ...client } = this.options;
    this.started = await LspClient.start({ ...client, root: this.workspace.root });
    return this;
  }

  get client(): LspClient {
    if (!this.started) throw new Error("the server is not started yet (start() or the suite's before hook)");
    return this.started;
  }

  /** Opens `name` (relative to the workspace) with `text` and waits for its diagnostics. */
  async open(name: string, text: string, options: OpenOptions = {}): Promise<OpenedDocument> {
    const path = this.workspace.path(name);
    const uri = await this.client.open(path, text, options.languageId);
    const diagnostics = await this.client.waitForDiagnostics(uri, options.accept);
    return { uri, path, text, diagnostics };
  }

  /** Stops the server (killing it if it does not stop) and removes the workspace. */
  async dispose(): Promise<void> {
    try {
      await this.started?.stop();
    } finally {
      this.started?.kill();
      this.workspace.dispose();
    }
  }
}

/** Runs `body` with a started server, then disposes of it whether `body` succeeded or threw. */
export async function withServer<T>(options: ServerOptions, body: (server: ServerSession) => Promise<T>): Promise<T> {
  const server = new ServerSession(options);
  try {
    await server.start();
    return await body(server);
  } finally {
    await server.dispose();
  }
}
