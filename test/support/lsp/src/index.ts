// The LSP harness shared by test/protocol/, the Neovim test and bench/: a real client of the
// built server over stdio (client.ts), a server on a temporary workspace (session.ts), and the
// helpers tests write fixtures with.

export { LspClient, type ClientOptions, type PublishedDiagnostics } from "./client";
export type { HeapUsage, Memory } from "./memory";
export { SERVER_MAIN, type ServerProcessOptions } from "./serverProcess";
export { ServerSession, withServer, type OpenedDocument, type OpenOptions, type ServerOptions } from "./session";
export { fixture, positionAt, rangeOf, type Fixture } from "./text";
export { hostProfile, TempWorkspace } from "./workspace";
