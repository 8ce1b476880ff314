// Wiring only: the connection, the open documents, the workspace and the guard; every feature
// in FEATURES registers itself; initialize answers with what they declared.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ErrorCodes,
  ResponseError,
  TextDocuments,
  type ClientCapabilities,
  type Connection,
  type InitializeResult,
  type ServerCapabilities,
} from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { CommandHandler, FeatureContext } from "./feature";
import { FEATURES } from "./features";
import { addSessionSecrets, sessionMask } from "@rlm-plan/core/session";
import { createGuard } from "./guard";
import { maskedConnection } from "./maskedConnection";
import { PlanWorkspace } from "./workspace";

export const SERVER_NAME = "rlm-plan-language-server";

export function startServer(unmasked: Connection): void {
  // Every answer and message goes out through the sessions' mask; it learns each host profile's
  // key variables as the workspace reads them, and the keys a client passes for a run.
  const mask = sessionMask({ env: process.env });
  const connection = maskedConnection(unmasked, mask);
  const documents = new TextDocuments(TextDocument);
  const guard = createGuard(connection.console);
  const workspace = new PlanWorkspace(connection, documents, guard);
  workspace.hosts.onProfileRead = (profile) => addSessionSecrets(mask, { env: process.env, profile });
  let capabilities: ServerCapabilities = {};
  const commands = new Map<string, CommandHandler>();
  let client: ClientCapabilities | undefined;

  const context: FeatureContext = {
    connection,
    documents,
    workspace,
    guard,
    declare: (more) => {
      capabilities = mergeCapabilities(capabilities, more);
    },
    command: (name, handler) => {
      commands.set(name, handler);
    },
    clientCapabilities: () => client,
    secretsLearned: (values) => void mask.add(values),
  };
  for (const feature of FEATURES) feature(context);

  connection.onInitialize((params): InitializeResult => {
    client = params.capabilities;
    guard.run("initialize", () => workspace.initialize(params));
    return {
      capabilities: {
        ...capabilities,
        ...(commands.size > 0 ? { executeCommandProvider: { commands: [...commands.keys()] } } : {}),
      },
      serverInfo: { name: SERVER_NAME, version: serverVersion() },
    };
  });
  connection.onInitialized(guard.notification("initialized", () => workspace.initialized()));
  connection.onExecuteCommand(
    guard.request(
      "executeCommand",
      (params, token) => {
        const handler = commands.get(params.command);
        if (!handler)
          return new ResponseError(ErrorCodes.InvalidParams, `unknown command ${JSON.stringify(params.command)}`);
        return handler(params.arguments ?? [], token);
      },
      null,
    ),
  );
  documents.listen(connection);
  connection.listen();
}

/** Objects merge key by key, lists join, anything else is replaced. */
function mergeCapabilities(base: ServerCapabilities, more: ServerCapabilities): ServerCapabilities {
  return merge(base, more) as ServerCapabilities;
}

function merge(a: unknown, b: unknown): unknown {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (isObject(a) && isObject(b)) {
    const result: Record<string, unknown> = { ...a };
    for (const [key, value] of Object.entries(b)) result[key] = key in result ? merge(result[key], value) : value;
    return result;
  }
  return b;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The version of the package this file ships in: `server/package.json` beside `out/lsp/`, or,
 * bundled into the extension's `dist/server.js`, the extension's own manifest one folder up.
 */
export function serverVersion(): string {
  for (const manifestFile of [join(__dirname, "..", "..", "package.json"), join(__dirname, "..", "package.json")]) {
    try {
      const manifest: unknown = JSON.parse(readFileSync(manifestFile, "utf8"));
      const ours =
        isObject(manifest) && (manifest.name === "@rlm-plan/language-server" || manifest.name === "rlm-plan");
      if (ours && typeof manifest.version === "string") return manifest.version;
    } catch {
      // Not there: the other layout.
    }
  }
  return "0.0.0";
}
