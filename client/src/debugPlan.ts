// Debugging plans in VS Code: the `rlm-plan` debugger's configurations (F5 on an open plan works
// without a launch.json), the adapter started as its own Node process (dist/debugAdapter.js, so
// a run can never take the extension host down), provider keys from secret storage handed to
// that process's environment only, "RLM Plan: Debug Plan", and a debug run's events and result
// in the run output channel and the Plan Runs view (debugRuns.ts).

import * as vscode from "vscode";
import { DebugRuns } from "./debugRuns";
import { CLIENT_SECRETS } from "./languageClient";
import type { RunLog } from "./runLog";
import type { RunOutput } from "./runOutput";
import type { ProviderKeys } from "./secrets";

const DEBUG_TYPE = "rlm-plan";
const DEBUG_PLAN_COMMAND = "rlmPlan.debug";
const UNTRUSTED_MESSAGE =
  "Plans are not debugged in an untrusted workspace: a plan's tools are programs of the workspace. Trust the workspace to debug it.";

interface Dependencies {
  readonly context: vscode.ExtensionContext;
  readonly log: RunLog;
  readonly output: RunOutput;
  readonly keys: ProviderKeys;
}

export function registerDebugging(deps: Dependencies): vscode.Disposable {
  const runs = new DebugRuns(deps.log, deps.output, (path) => vscode.Uri.file(path).toString());
  return vscode.Disposable.from(
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, new PlanConfigurations()),
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, new AdapterFactory(deps)),
    vscode.commands.registerCommand(DEBUG_PLAN_COMMAND, (target?: unknown) => debugPlan(target)),
    // A session that ends without reporting its result (the adapter was stopped first) still
    // ends its record, so the Plan Runs view never shows it running forever.
    vscode.debug.onDidTerminateDebugSession((session) => runs.terminated(session.id)),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((event) => {
      if (event.session.type !== DEBUG_TYPE) return;
      // A replay (Debug Recorded Run) steps through a run already in Plan Runs, executing
      // nothing: it is not a run of its own, so it gets no row and no block in the output.
      if (event.session.configuration.replay) return;
      // The adapter masks with its session's mask; the client's own (its secret storage's keys) again.
      runs.receive(event.session.id, { event: event.event, body: CLIENT_SECRETS.maskValue(event.body) });
    }),
  );
}

/** Starts debugging the plan in the active editor (or the one chosen in the Explorer). */
async function debugPlan(target: unknown): Promise<boolean> {
  const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== "file") {
    void vscode.window.showErrorMessage("Open a plan file (*.rlmplan.json or *.rlmplan) to debug it.");
    return false;
  }
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  return vscode.debug.startDebugging(folder, planConfiguration(uri));
}

function planConfiguration(uri: vscode.Uri): vscode.DebugConfiguration {
  return { type: DEBUG_TYPE, request: "launch", name: "Debug Plan", program: uri.fsPath, stopOnEntry: false };
}

class PlanConfigurations implements vscode.DebugConfigurationProvider {
  provideDebugConfigurations(): vscode.DebugConfiguration[] {
    return [{ type: DEBUG_TYPE, request: "launch", name: "Debug Plan", program: "${file}", stopOnEntry: true }];
  }

  /** F5 with no launch.json: debug the open plan. Fills in the host profile setting when set. */
  resolveDebugConfiguration(
    folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.DebugConfiguration | undefined {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE, "Manage Workspace Trust").then((choice) => {
        if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
      });
      return undefined;
    }
    let resolved = config;
    if (!config.type && !config.request && !config.name) {
      const document = vscode.window.activeTextEditor?.document;
      if (document?.languageId !== "rlm-plan") {
        void vscode.window.showErrorMessage("Open a plan file (*.rlmplan.json or *.rlmplan) to debug it.");
        return undefined;
      }
      resolved = planConfiguration(document.uri);
    }
    if (!resolved.program) {
      void vscode.window.showErrorMessage('The launch configuration needs "program": the plan file to debug.');
      return undefined;
    }
    const setting = vscode.workspace.getConfiguration("rlmPlan", folder?.uri).get<string>("hostProfile", "");
    if (!resolved.hostProfile && setting) {
      const base = folder ?? vscode.workspace.workspaceFolders?.[0];
      resolved = { ...resolved, hostProfile: base ? vscode.Uri.joinPath(base.uri, setting).fsPath : setting };
    }
    if (!resolved.cwd && folder) resolved = { ...resolved, cwd: folder.uri.fsPath };
    return resolved;
  }
}

/** The bundled adapter in a Node process of its own: VS Code's runtime with ELECTRON_RUN_AS_NODE. */
class AdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  constructor(private readonly deps: Dependencies) {}

  async createDebugAdapterDescriptor(session: vscode.DebugSession): Promise<vscode.DebugAdapterDescriptor> {
    const adapter = vscode.Uri.joinPath(this.deps.context.extensionUri, "dist", "debugAdapter.js").fsPath;
    const profile = session.configuration.hostProfile as string | undefined;
    const program = session.configuration.program as unknown;
    // The server reads the profile (the named one, else the one nearest the plan, found the way
    // the runtime finds it) and names its providers' key variables.
    const target = typeof program === "string" ? program : profile;
    const keys = target ? await this.deps.keys.keysFor(vscode.Uri.file(target).toString(), profile) : {};
    return new vscode.DebugAdapterExecutable(process.execPath, [adapter], {
      env: { ...keys, ELECTRON_RUN_AS_NODE: "1" },
    });
  }
}
