// Starts the rlm-plan language server (dist/server.js, bundled with the runtime) over Node IPC
// and connects it to plan files and host profiles. The server does every plan-related thing the
// editor shows: diagnostics, hovers, completion, code lenses, runs.

import * as path from "node:path";
import * as vscode from "vscode";
import { HOST_PROFILE_FILENAME, maskedMethods, sessionMask } from "@rlm-plan/core/editor";
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import { CodeCacheEnvironment } from "@rlm-plan/language-server/protocol";
import { HeldOpens } from "./heldOpens";

export const PLAN_LANGUAGE_ID = "rlm-plan";
/** The client's id: VS Code reads `rlmPlan.trace.server` because of it. */
const CLIENT_ID = "rlmPlan";
const CLIENT_NAME = "RLM Plan Language Server";

/**
 * The secrets the client knows (keys from its secret storage, added when a run reads them, and
 * keys in the environment VS Code started with): masked in the client's output and trace channel,
 * which logs every request's parameters, a run's `env` included, when tracing is verbose.
 */
export const CLIENT_SECRETS = sessionMask({ env: process.env });

/** Documents opened empty to be filled at once (a proposal): the server hears of them filled. */
export const HELD_OPENS = new HeldOpens();

export function createLanguageClient(context: vscode.ExtensionContext): LanguageClient {
  const module = context.asAbsolutePath(path.join("dist", "server.js"));
  // The server's bundle is loaded with V8's code cache, kept in the extension's storage: a start
  // after the first skips most of compiling it (shared-runtime/src/codeCache.ts, bench/README.md).
  const cached = context.asAbsolutePath(path.join("dist", "serverStart.js"));
  const cacheDir = path.join(context.globalStorageUri.fsPath, "code-cache");
  const serverOptions: ServerOptions = {
    // The bundle is minified but keeps its names; its linked source map ships beside it. Only
    // the debug launch maps stack traces with it: --enable-source-maps costs every start about a
    // tenth more (bench/README.md).
    run: {
      module: cached,
      transport: TransportKind.ipc,
      options: { env: { ...process.env, [CodeCacheEnvironment.variable]: cacheDir } },
    },
    debug: {
      module,
      transport: TransportKind.ipc,
      options: { execArgv: ["--enable-source-maps", "--nolazy", "--inspect=6011"] },
    },
  };
  const documentSelector: LanguageClientOptions["documentSelector"] = [
    { language: PLAN_LANGUAGE_ID, scheme: "file" },
    { language: PLAN_LANGUAGE_ID, scheme: "untitled" },
    { scheme: "file", pattern: `**/${HOST_PROFILE_FILENAME}` },
    // Mocks files: what `run --mocks` would refuse, and mocks that name nothing (never used).
    { scheme: "file", pattern: "**/*.mocks.json" },
    // Test files: diagnostics, hover, completion and a Run/Debug lens on each case.
    { scheme: "file", pattern: "**/*.rlmplan.test.json" },
  ];
  // A host profile named by the setting gets the server's diagnostics too.
  const configured = configuredHostProfile();
  if (configured) documentSelector.push({ scheme: "file", pattern: configured.split(path.sep).join("/") });
  // One channel for the server's messages and the protocol trace, masked (see CLIENT_SECRETS).
  const channel = maskedMethods(vscode.window.createOutputChannel(CLIENT_NAME, { log: true }), CLIENT_SECRETS);
  context.subscriptions.push(channel);
  let firstPlanDiagnostics = false;
  const firstDiagnostics = (uri: vscode.Uri): void => {
    if (firstPlanDiagnostics || !uri.path.endsWith(".rlmplan.json")) return;
    firstPlanDiagnostics = true;
    const at = new Date();
    setTimeout(() => {
      const turn = Date.now() - at.getTime();
      channel.appendLine(
        `First plan diagnostics: ${path.basename(uri.path)} at ${at.toISOString()} (the extension host's next turn ${turn} ms later)`,
      );
    }, 0);
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    // The extension has its own run UI (progress, Plan Runs view): the lens names its command.
    initializationOptions: { rlmPlan: settingsSection(), clientRunsPlans: true },
    synchronize: { configurationSection: "rlmPlan" },
    outputChannel: channel,
    traceOutputChannel: channel,
    middleware: {
      didOpen: (document, next) => HELD_OPENS.didOpen(document, next),
      didChange: (event, next) => HELD_OPENS.didChange(event, next),
      didClose: (document, next) => HELD_OPENS.didClose(document, next),
      // When the window's first plan got its diagnostics (the clock the e2e run reads beside the
      // activation line): one line a window, so opening a plan is timed from the user's side.
      // VS Code sends them on to the window on a timer of this same event loop: how late this
      // loop's next turn came says whether a busy extension host held them.
      handleDiagnostics: (uri, diagnostics, next) => {
        next(uri, diagnostics);
        firstDiagnostics(uri);
      },
      // The server is pulled (vscode-languageclient declares pull diagnostics, so it pushes none):
      // a plan's first report is timed as a pushed one was.
      provideDiagnostics: async (document, previousResultId, token, next) => {
        const report = await next(document, previousResultId, token);
        firstDiagnostics(document instanceof vscode.Uri ? document : document.uri);
        return report;
      },
      workspace: {
        // The server pulls settings too: what it reads never turns MCP listing on in an untrusted workspace.
        // And allowPaths is the user's own value, whatever a workspace's settings say.
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          const trusted = vscode.workspace.isTrusted;
          return result.map((section: unknown) =>
            typeof section === "object" && section !== null
              ? { ...section, allowPaths: userAllowPaths(), ...(trusted ? {} : { listMcpTools: false }) }
              : section,
          );
        },
      },
    },
  };
  return new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
}

/** The settings the server reads (protocol.ts, RlmPlanSettings). */
function settingsSection(): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration("rlmPlan");
  return {
    hostProfile: config.get<string>("hostProfile", ""),
    hostProblemsAsErrors: config.get<boolean>("hostProblemsAsErrors", false),
    validationDelay: config.get<number>("validationDelay", 150),
    maxAnalyzedSize: config.get<number>("maxAnalyzedSize", 8_000_000),
    largePlanSize: config.get<number>("largePlanSize", 2_000_000),
    maxWorkspaceDiagnosticFiles: config.get<number>("maxWorkspaceDiagnosticFiles", 2000),
    inlayHints: { bindingTypes: config.get<boolean>("inlayHints.bindingTypes", false) },
    // Listing MCP tools starts programs of the workspace: never in an untrusted one.
    listMcpTools: vscode.workspace.isTrusted && config.get<boolean>("listMcpTools", true),
    allowPaths: userAllowPaths(),
    whatIf: { base: config.get<string>("whatIf.base", "HEAD") },
  };
}

/**
 * `rlmPlan.allowPaths` from the user's settings only: a workspace file may never widen the
 * workspace boundary (docs/security.md), so a workspace's value is not read even if written.
 */
function userAllowPaths(): string[] {
  const value = vscode.workspace.getConfiguration("rlmPlan").inspect<unknown>("allowPaths")?.globalValue;
  return Array.isArray(value) ? value.filter((dir): dir is string => typeof dir === "string") : [];
}

/** `rlmPlan.hostProfile` as an absolute path (relative ones are under the first folder). */
function configuredHostProfile(): string | undefined {
  const setting = vscode.workspace.getConfiguration("rlmPlan").get<string>("hostProfile", "").trim();
  if (setting === "") return undefined;
  if (path.isAbsolute(setting)) return setting;
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? path.join(folder.uri.fsPath, setting) : undefined;
}
