// What a language feature is: a registration that gets the server's context (connection,
// documents, workspace, guard) and declares its capabilities and commands. The registry
// (features.ts) and each feature module import this; it imports neither, so no cycle closes here.

import type {
  CancellationToken,
  ClientCapabilities,
  Connection,
  ServerCapabilities,
  TextDocuments,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Guard } from "./guard";
import type { PlanWorkspace } from "./workspace";

/** A `workspace/executeCommand` handler; `args` are the command's arguments as sent. */
export type CommandHandler = (args: readonly unknown[], token: CancellationToken) => unknown;

export interface FeatureContext {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  /** Open plans and their analyses, host profiles, settings, and change events. */
  readonly workspace: PlanWorkspace;
  /** Wrap every handler: `ctx.connection.onX(ctx.guard.request("x", handler, emptyResult))`. */
  readonly guard: Guard;
  /** Adds to the capabilities announced in the initialize result (objects merge, lists join). */
  declare(capabilities: ServerCapabilities): void;
  /** A command for `workspace/executeCommand`; listed in `executeCommandProvider.commands`. */
  command(name: string, handler: CommandHandler): void;
  /** The client's capabilities; undefined until `initialize` has arrived. */
  clientCapabilities(): ClientCapabilities | undefined;
  /** Secrets a session learned (a client's keys for a run): every later output masks them too. */
  secretsLearned(values: readonly string[]): void;
}

export type Feature = (ctx: FeatureContext) => void;
