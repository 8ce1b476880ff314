// The RLM Plan extension: starts the language server and wires the commands, the Plan Runs
// view, the run log, the output channel and the status bar to it. Every plan-related answer
// comes from the server (or, for scaffolding a host profile, the runtime's own functions).

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { ActiveRuns } from "./activeRuns";
import { registerDebugging } from "./debugPlan";
import { registerHostProfileScaffold } from "./hostProfileScaffold";
import { GraphPanels } from "./graph/graphPanels";
import { createLanguageClient } from "./languageClient";
import { registerRunCommands, pickRun, type RunDependencies } from "./runCommand";
import { JournalRuns, registerJournalCommands } from "./journalRuns";
import { ApprovalPrompts } from "./approvalPrompts";
import { registerRerunFromHere } from "./rerunFromHere";
import { registerCompareRuns } from "./compare/comparePanel";
import { historyLimit, RunLog } from "./runLog";
import { createRunOutput } from "./workspacePaths";
import {
  OPEN_RUN_AS_JSON_COMMAND,
  REVEAL_STEP_COMMAND,
  RUN_DOCUMENT_SCHEME,
  RUNS_VIEW_ID,
  RunDocuments,
  RunsTreeProvider,
} from "./runsView";
import { ProviderKeys } from "./secrets";
import { registerProposeCommand } from "./proposeCommand";
import { WorstCaseStatus } from "./statusBar";
import type { StepPath } from "./runLog";
import { PlanTests } from "./testing/testController";
import { revealStep } from "./stepLocation";
import { registerUpdateLockCommand } from "./updateLockCommand";

let client: LanguageClient | undefined;

/** The start of the line that says how long activation took (test/e2e/run.mjs reads it). */
const ACTIVATION_LOG_PREFIX = "Activated in";

/** What the extension hands to its tests (`vscode.extensions.getExtension(...).exports`). */
export interface RlmPlanApi {
  readonly client: LanguageClient;
  readonly log: RunLog;
}

export async function activate(context: vscode.ExtensionContext): Promise<RlmPlanApi> {
  const activated = performance.now();
  // How long the extension host had run before activating us: the part of a window's first
  // diagnostic that no extension controls (printed with the activation time, for the e2e run).
  const hostUp = Math.round(process.uptime() * 1000);
  client = createLanguageClient(context);
  // The server starts first, so that its start (a Node process loading its bundle) overlaps the
  // rest of activation; a failure is kept as a value until it is reported below.
  let ready = { after: 0, at: "" };
  const starting = client.start().then(
    () => {
      ready = { after: Math.round(performance.now() - activated), at: new Date().toISOString() };
      return undefined;
    },
    (error: unknown) => error ?? new Error("the language server did not start"),
  );
  const output = createRunOutput();
  const log = new RunLog(context.storageUri ?? context.globalStorageUri, historyLimit());
  await log.load();
  const runs = new ActiveRuns(client, log, output);
  const keys = new ProviderKeys(context.secrets, client);
  const deps: RunDependencies = { client, log, runs, output, keys };
  // CLI, debugger and other windows' runs, from the workspace's run journal through the server.
  const journal = new JournalRuns(client, log);
  const tree = new RunsTreeProvider(log);
  const documents = new RunDocuments(log);
  // Many at once: "Compare Runs" takes two.
  const view = vscode.window.createTreeView(RUNS_VIEW_ID, {
    treeDataProvider: tree,
    showCollapseAll: true,
    canSelectMany: true,
  });
  const graphs = new GraphPanels({ client, log, extensionUri: context.extensionUri });

  context.subscriptions.push(
    output,
    log,
    runs,
    tree,
    documents,
    view,
    journal,
    registerRunCommands(deps),
    registerJournalCommands(deps, journal),
    new ApprovalPrompts(deps, journal),
    registerHostProfileScaffold(client),
    registerProposeCommand(client, keys),
    registerUpdateLockCommand(client),
    registerDebugging({ context, log, output, keys }),
    keys.register(),
    graphs,
    registerRerunFromHere(deps, (target) => graphs.recordedStep(target)),
    registerCompareRuns(client, log, context.extensionUri),
    vscode.workspace.registerTextDocumentContentProvider(RUN_DOCUMENT_SCHEME, documents),
    vscode.commands.registerCommand("rlmPlan.showRuns", async () => {
      await vscode.commands.executeCommand(`${RUNS_VIEW_ID}.focus`);
    }),
    vscode.commands.registerCommand(OPEN_RUN_AS_JSON_COMMAND, async (target?: unknown) => {
      const record = await pickRun(log, target, "Open which run as JSON?");
      if (record) await vscode.window.showTextDocument(documents.uriOf(record), { preview: false });
    }),
    vscode.commands.registerCommand(REVEAL_STEP_COMMAND, (plan: string, path: StepPath | undefined) =>
      revealStep(plan, path),
    ),
    vscode.commands.registerCommand("rlmPlan.clearRuns", () => log.clear()),
    runs.onDidChange(
      () => void vscode.commands.executeCommand("setContext", "rlmPlan.running", runs.running().length > 0),
    ),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("rlmPlan.runHistoryLimit")) log.setLimit(historyLimit());
    }),
  );
  // Activation ends here, without waiting for the server: VS Code runs a command of ours (Show
  // Plan Graph in a new window) only once activate returns, and the server's start took seconds
  // on a busy machine (e2e (j)); a request sent before it is ready waits for it (the client's).
  const started = client;
  void starting.then((failure) => {
    if (client !== started) return; // deactivated meanwhile
    if (failure === undefined) {
      void journal.refresh();
      // Activation time (activate → the server's initialize answer), read by the e2e run.
      started.outputChannel.appendLine(
        `${ACTIVATION_LOG_PREFIX} ${ready.after} ms (activate → language server ready; ` +
          `extension host up ${hostUp} ms before activate; ready at ${ready.at})`,
      );
    } else {
      // Commands and the run log stay usable; the server's own output channel has the details.
      void vscode.window.showErrorMessage(`The RLM Plan language server did not start: ${String(failure)}`);
    }
    context.subscriptions.push(new WorstCaseStatus(started));
    // The Testing view: every case of the workspace's test files (listed, never run unasked).
    context.subscriptions.push(new PlanTests(started, (plan) => keys.keysFor(vscode.Uri.file(plan).toString())));
  });
  return { client, log };
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
