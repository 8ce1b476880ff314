// Push or pull: a client that declares `textDocument.diagnostic` pulls diagnostics
// (pullDiagnostics.ts) and gets none pushed, so it never shows a file's problems twice; any other
// client keeps `textDocument/publishDiagnostics`, sent as documents are checked.

import type { PublishDiagnosticsParams } from "vscode-languageserver";
import type { FeatureContext } from "./feature";

/** True when the client pulls diagnostics: then the server pushes none. */
export function clientPulls(ctx: FeatureContext): boolean {
  return ctx.clientCapabilities()?.textDocument?.diagnostic !== undefined;
}

/** Publishes diagnostics unless the client pulls them. */
export function pushDiagnostics(ctx: FeatureContext, params: PublishDiagnosticsParams): void {
  if (!clientPulls(ctx)) void ctx.connection.sendDiagnostics(params);
}
