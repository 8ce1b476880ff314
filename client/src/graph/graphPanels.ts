// "RLM Plan: Show Plan Graph" and "Open Run as Graph": one graph panel per plan (graphPanel.ts),
// kept in step with the editor (edits, the cursor) and the run log, the export and copy commands
// of the focused one, and the "Show graph" lens above every plan.

import * as vscode from "vscode";
import { pickRun } from "../runCommand";
import type { RunLog, RunRecord } from "../runLog";
import { GraphPanel, type GraphDependencies } from "./graphPanel";
import type { RecordedStep } from "../rerunFromHere";

export type { GraphDependencies } from "./graphPanel";

const SHOW_GRAPH_COMMAND = "rlmPlan.showGraph";
const SHOW_RUN_GRAPH_COMMAND = "rlmPlan.showRunGraph";
const EXPORT_GRAPH_COMMAND = "rlmPlan.exportGraphSvg";
const COPY_GRAPH_COMMAND = "rlmPlan.copyGraphImage";

export class GraphPanels implements vscode.Disposable {
  private readonly panels = new Map<string, GraphPanel>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The last panel that had focus, for the export and copy commands. */
  private active: GraphPanel | undefined;

  constructor(private readonly deps: GraphDependencies) {
    this.subscriptions.push(
      vscode.commands.registerCommand(SHOW_GRAPH_COMMAND, (target?: unknown) => this.show(uriOf(target))),
      vscode.commands.registerCommand(SHOW_RUN_GRAPH_COMMAND, (target?: unknown) => this.showRun(target)),
      vscode.commands.registerCommand(EXPORT_GRAPH_COMMAND, () => this.active?.send({ type: "export" })),
      vscode.commands.registerCommand(COPY_GRAPH_COMMAND, () => this.active?.send({ type: "copyImage" })),
      vscode.languages.registerCodeLensProvider({ language: "rlm-plan" }, new GraphLens()),
      vscode.workspace.onDidChangeTextDocument((event) => this.panels.get(event.document.uri.toString())?.edited()),
      vscode.window.onDidChangeTextEditorSelection((event) =>
        this.panels.get(event.textEditor.document.uri.toString())?.cursorMoved(event.selections[0]?.active),
      ),
      deps.log.onDidChange((record) => {
        // A run that begins (or a cleared log) changes the list, not one record: each panel
        // looks again for its plan's latest run.
        const panel = record && this.panels.get(record.plan);
        if (panel) {
          panel.runChanged(record);
          this.offerRerun(panel);
        } else if (!record)
          for (const [uri, each] of this.panels) {
            each.runChanged(latestRun(deps.log, uri));
            this.offerRerun(each);
          }
      }),
    );
  }

  /**
   * The step the graph's context menu was opened on (`{webview, rlmPlanStepId}`, rerunMenu.ts),
   * in the run the focused graph shows, when that run is recorded.
   */
  recordedStep(target: unknown): RecordedStep | undefined {
    const id = (target as { rlmPlanStepId?: unknown } | undefined)?.rlmPlanStepId;
    const run = this.active?.run;
    const path = typeof id === "string" ? this.active?.step(id)?.path : undefined;
    return run?.journal && path ? { record: run, path: [...path] } : undefined;
  }

  /** Tells the panel's page whether the run it shows is recorded: its steps then offer "Rerun From Here". */
  private offerRerun(panel: GraphPanel | undefined): void {
    panel?.send({ type: "rerunMenu", recorded: panel.run?.journal !== undefined });
  }

  /** The open panel of a plan (for tests), if any. */
  panel(uri: string): GraphPanel | undefined {
    return this.panels.get(uri);
  }

  /** Shows a plan's graph; `replay` is a run to replay on it instead of showing its latest run. */
  async show(uri: vscode.Uri | undefined, replay?: RunRecord): Promise<GraphPanel | undefined> {
    // What the user waits for is timed from here (the panel's log line after its first drawing).
    const asked = Date.now();
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target) {
      void vscode.window.showInformationMessage("Open a plan (*.rlmplan.json) to see its graph.");
      return undefined;
    }
    const key = target.toString();
    let panel = this.panels.get(key);
    if (panel) {
      panel.reveal();
      if (replay) panel.replay(replay);
      this.offerRerun(panel);
      return panel;
    }
    const document = await vscode.workspace.openTextDocument(target);
    panel = new GraphPanel(document, this.deps, {
      asked,
      run: replay ?? latestRun(this.deps.log, key),
      replay: replay !== undefined,
      onDispose: () => {
        this.panels.delete(key);
        if (this.active === panel) this.active = undefined;
      },
    });
    panel.onFocus = () => (this.active = panel);
    this.active = panel;
    this.panels.set(key, panel);
    this.offerRerun(panel);
    return panel;
  }

  /** Opens a finished (or running) run's plan as a graph and replays the run on it once drawn. */
  async showRun(target: unknown): Promise<void> {
    const record = await pickRun(this.deps.log, target, "Open which run as a graph?");
    if (record) await this.show(vscode.Uri.parse(record.plan), record);
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** The "Show Plan Graph" lens above the plan (the server's lenses say run and worst case). */
class GraphLens implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const brace = document.getText().indexOf("{");
    const position = document.positionAt(Math.max(0, brace));
    return [
      new vscode.CodeLens(new vscode.Range(position, position), {
        title: "$(type-hierarchy) Show graph",
        command: SHOW_GRAPH_COMMAND,
        arguments: [document.uri],
      }),
    ];
  }
}

function uriOf(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  if (typeof target === "string") return vscode.Uri.parse(target);
  return undefined;
}

/** A plan's latest run in the log, if any. */
function latestRun(log: RunLog, plan: string): RunRecord | undefined {
  return log
    .all()
    .filter((record) => record.plan === plan)
    .sort((a, b) => b.number - a.number)[0];
}
