// "RLM Plan: Show Plan Graph": a webview beside the plan editor drawing the server's graph of
// the plan (rlmPlan/planGraph). It follows edits (debounced; the view keeps its pan and zoom),
// highlights the step under the editor's cursor, reveals a clicked step, shows the server's
// hover for a step, colours steps by the state of the plan's latest run (live while it runs,
// from the run's events: failed attempts marked on their steps), replays a finished run's
// recorded events from the Plan Runs view, and exports SVG or copies a PNG.

import { randomBytes } from "node:crypto";
// The drawing's stylesheet: the runtime's, the same the exported SVG carries.
import { GRAPH_STYLE as GRAPH_STYLE_TEXT } from "@rlm-plan/core/editor";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import type { WireGraph } from "@rlm-plan/core/graph";
import type { RunEvent } from "@rlm-plan/core";
import type { FromWebview, ToWebview } from "./messages";
import { pickRun } from "../runCommand";
import type { RunLog, RunRecord } from "../runLog";
import { PlanGraphRequest, type PlanGraphResult, type PlanGraphStep } from "@rlm-plan/language-server/protocol";
import { LoadWatch } from "./loadWatch";
import { runSummary, stepStates } from "./runSteps";

export const SHOW_GRAPH_COMMAND = "rlmPlan.showGraph";
export const SHOW_RUN_GRAPH_COMMAND = "rlmPlan.showRunGraph";
export const EXPORT_GRAPH_COMMAND = "rlmPlan.exportGraphSvg";
export const COPY_GRAPH_COMMAND = "rlmPlan.copyGraphImage";

/** Plans with more steps than this open with their nested plans folded into their steps. */
const LARGE_PLAN_STEPS = 400;
const LARGE_PLAN_DEPTH = 1;
const EDIT_DELAY_MS = 300;
const LIVE_REFRESH_MS = 250;
/** A view whose page has not said "ready" this long after it was set is loaded again (loadWatch.ts). */
const LOAD_TIMEOUT_MS = 8000;
const LOAD_ATTEMPTS = 3;

interface Dependencies {
  readonly client: LanguageClient;
  readonly log: RunLog;
  readonly extensionUri: vscode.Uri;
}

export class GraphPanels implements vscode.Disposable {
  private readonly panels = new Map<string, GraphPanel>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The last panel that had focus, for the export and copy commands. */
  private active: GraphPanel | undefined;

  constructor(private readonly deps: Dependencies) {
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
        if (record) this.panels.get(record.plan)?.runChanged(record);
        else for (const [uri, panel] of this.panels) panel.runChanged(latestRun(deps.log, uri));
      }),
    );
  }

  /** The open panel of a plan (for tests), if any. */
  panel(uri: string): GraphPanel | undefined {
    return this.panels.get(uri);
  }

  async show(uri: vscode.Uri | undefined): Promise<GraphPanel | undefined> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target) {
      void vscode.window.showInformationMessage("Open a plan (*.rlmplan.json) to see its graph.");
      return undefined;
    }
    const key = target.toString();
    let panel = this.panels.get(key);
    if (panel) {
      panel.reveal();
      return panel;
    }
    const document = await vscode.workspace.openTextDocument(target);
    panel = new GraphPanel(document, this.deps, () => {
      this.panels.delete(key);
      if (this.active === panel) this.active = undefined;
    });
    panel.onFocus = () => (this.active = panel);
    this.active = panel;
    this.panels.set(key, panel);
    return panel;
  }

  /** Opens a finished (or running) run's plan as a graph and replays the run on it. */
  async showRun(target: unknown): Promise<void> {
    const record = await pickRun(this.deps.log, target, "Open which run as a graph?");
    if (!record) return;
    const panel = await this.show(vscode.Uri.parse(record.plan));
    await panel?.replay(record);
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

export class GraphPanel implements vscode.Disposable {
  private result: PlanGraphResult | undefined;
  private pending: ToWebview[] = [];
  private editTimer: NodeJS.Timeout | undefined;
  private liveTimer: NodeJS.Timeout | undefined;
  /** The run whose states are shown: the plan's latest, or the one being replayed. */
  private run: RunRecord | undefined;
  private replayTimer: NodeJS.Timeout | undefined;
  private readonly loading: LoadWatch;
  /** The view; replaced when its page never loads (openPanel). */
  private panel: vscode.WebviewPanel | undefined;
  private readonly panelSubscriptions: vscode.Disposable[] = [];
  private readonly title: string;
  onFocus: (() => void) | undefined;
  /** Every drawing's figures, latest last (for tests and the bench). */
  readonly renders: { ms: number; steps: number; nodes: number }[] = [];

  constructor(
    private readonly document: vscode.TextDocument,
    private readonly deps: Dependencies,
    private readonly onDispose: () => void,
  ) {
    const name = document.uri.path.split("/").pop() ?? "plan";
    this.title = `Graph: ${name}`;
    this.loading = new LoadWatch({
      timeoutMs: LOAD_TIMEOUT_MS,
      attempts: LOAD_ATTEMPTS,
      visible: () => this.panel?.visible ?? false,
      load: () => this.openPanel(),
      say: (message) => deps.client.outputChannel.appendLine(`Plan graph of ${name}: ${message}`),
    });
    this.loading.load();
    this.run = latestRun(deps.log, document.uri.toString());
    void this.refresh();
  }

  reveal(): void {
    this.panel?.reveal(vscode.ViewColumn.Beside, true);
  }

  /**
   * Opens the view, or opens it again in the place of one whose page never loaded: setting the
   * same view's page again does not help when its frame is stuck, a new view does. What was sent
   * before the page said "ready" is kept and sent to the new one.
   */
  private openPanel(): void {
    const old = this.panel;
    const panel = vscode.window.createWebviewPanel(
      "rlmPlan.graph",
      this.title,
      { viewColumn: old?.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [vscode.Uri.joinPath(this.deps.extensionUri, "dist")],
      },
    );
    this.panel = panel;
    for (const subscription of this.panelSubscriptions.splice(0)) subscription.dispose();
    this.panelSubscriptions.push(
      // Closing the view closes the graph; a view replaced here is not this panel any more.
      panel.onDidDispose(() => {
        if (this.panel === panel) this.dispose();
      }),
      panel.onDidChangeViewState((event) => {
        if (event.webviewPanel.active) this.onFocus?.();
        if (event.webviewPanel.visible) this.loading.shown();
      }),
      panel.webview.onDidReceiveMessage((message: FromWebview) => void this.received(message)),
    );
    panel.webview.html = this.html(panel.webview);
    old?.dispose();
  }

  send(message: ToWebview): void {
    // Whether the page said "ready" is the load watch's to know: one state, not two.
    if (this.loading.isReady && this.panel) void this.panel.webview.postMessage(message);
    else this.pending.push(message);
  }

  edited(): void {
    clearTimeout(this.editTimer);
    this.editTimer = setTimeout(() => void this.refresh(), EDIT_DELAY_MS);
  }

  cursorMoved(position: vscode.Position | undefined): void {
    if (!position || !this.result) return;
    this.send({ type: "select", id: this.stepAt(position)?.id ?? null });
  }

  runChanged(record: RunRecord | undefined): void {
    if (this.replayTimer) return; // a replay is showing; it ends on its own
    this.run = record;
    clearInterval(this.liveTimer);
    if (!record) {
      this.send({ type: "run", states: {}, summary: "" });
      return;
    }
    this.showRunStates();
    // While the run goes on, its events are read often (a step that starts changes no record).
    if (record.status === "running") this.liveTimer = setInterval(() => this.showRunStates(), LIVE_REFRESH_MS);
  }

  /**
   * Replays a run from its recorded events, one at a time in their order: steps start, finish,
   * fail and retry as they did, then the run's end.
   */
  async replay(record: RunRecord): Promise<void> {
    clearInterval(this.replayTimer);
    this.replayTimer = undefined;
    await this.ready_();
    const ids = this.stepIds();
    const events = record.events ?? [];
    const shown = { status: "running" as const, events: [] as RunEvent[] };
    let i = 0;
    const step = () => {
      if (i < events.length) {
        shown.events.push(events[i++] as RunEvent);
        this.send({ type: "run", states: stepStates(shown, ids), summary: `Replaying run ${record.number}` });
        return;
      }
      clearInterval(this.replayTimer);
      this.replayTimer = undefined;
      this.run = record;
      this.showRunStates();
    };
    this.replayTimer = setInterval(step, Math.max(20, Math.min(400, 4000 / Math.max(1, events.length))));
  }

  private async ready_(): Promise<void> {
    for (let i = 0; i < 100 && !this.result; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  private showRunStates(): void {
    const record = this.run;
    if (!record || !this.result) return;
    this.send({ type: "run", states: stepStates(record, this.stepIds()), summary: runSummary(record) });
    if (record.status !== "running") clearInterval(this.liveTimer);
  }

  private stepIds(): string[] {
    return (this.result?.graph.nodes ?? []).flatMap((node) => (node.kind === "step" ? [node.id] : []));
  }

  private async refresh(): Promise<void> {
    const uri = this.document.uri.toString();
    try {
      let result = await this.deps.client.sendRequest(PlanGraphRequest.type, { uri });
      if (result && result.graph.steps > LARGE_PLAN_STEPS)
        result = await this.deps.client.sendRequest(PlanGraphRequest.type, { uri, collapseDepth: LARGE_PLAN_DEPTH });
      if (!result) return;
      this.result = result;
      // The drawing never reads a step's range, which the wire carries as an LSP range.
      this.send({ type: "graph", graph: result.graph as unknown as WireGraph, title: this.title });
      this.showRunStates();
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
      if (editor) this.cursorMoved(editor.selection.active);
    } catch (error) {
      void vscode.window.showErrorMessage(`The plan graph could not be built: ${String(error)}`);
    }
  }

  /** The innermost step whose range holds the position. */
  private stepAt(position: vscode.Position): PlanGraphStep | undefined {
    let best: PlanGraphStep | undefined;
    for (const node of this.result?.graph.nodes ?? []) {
      if (node.kind !== "step" || !node.range) continue;
      const range = toRange(node.range);
      if (range.contains(position) && (!best || toRange(best.range ?? node.range).contains(range))) best = node;
    }
    return best;
  }

  private step(id: string): PlanGraphStep | undefined {
    const node = this.result?.graph.nodes.find((n) => n.id === id);
    return node?.kind === "step" ? node : undefined;
  }

  private async received(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "ready":
        this.loading.loaded();
        for (const queued of this.pending.splice(0)) void this.panel?.webview.postMessage(queued);
        return;
      case "reveal": {
        const step = this.step(message.id);
        const at = step?.opRange ?? step?.range;
        if (!at) return;
        const range = toRange(at);
        const editor = await vscode.window.showTextDocument(this.document, {
          viewColumn: vscode.window.visibleTextEditors.find((e) => e.document === this.document)?.viewColumn,
          selection: new vscode.Range(range.start, range.start),
        });
        editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
        return;
      }
      case "hover": {
        const step = this.step(message.id);
        const at = step?.opRange ?? step?.range;
        if (!at) return;
        const position = new vscode.Position(at.start.line, at.start.character + 1);
        const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
          "vscode.executeHoverProvider",
          this.document.uri,
          position,
        );
        const text = (hovers ?? [])
          .flatMap((hover) => hover.contents.map((content) => (typeof content === "string" ? content : content.value)))
          .join("\n\n");
        if (text) this.send({ type: "hover", id: message.id, text: plainText(text) });
        return;
      }
      case "svg": {
        const target = await vscode.window.showSaveDialog({
          defaultUri: this.document.uri.with({
            path: this.document.uri.path.replace(/(\.rlmplan)?(\.json)?$/, ".svg"),
          }),
          filters: { SVG: ["svg"] },
        });
        if (target) await vscode.workspace.fs.writeFile(target, Buffer.from(message.text, "utf8"));
        return;
      }
      case "png": {
        if (message.copied) {
          void vscode.window.showInformationMessage("The plan graph is on the clipboard as an image.");
          return;
        }
        // The webview may not reach the clipboard: offer the image as a file instead.
        const target = await vscode.window.showSaveDialog({
          defaultUri: this.document.uri.with({
            path: this.document.uri.path.replace(/(\.rlmplan)?(\.json)?$/, ".png"),
          }),
          filters: { PNG: ["png"] },
          title: "The clipboard refused the image: save it as PNG",
        });
        if (target) await vscode.workspace.fs.writeFile(target, Buffer.from(message.base64, "base64"));
        return;
      }
      case "rendered":
        this.renders.push({ ms: message.ms, steps: message.steps, nodes: message.nodes });
        return;
      case "error":
        void vscode.window.showErrorMessage(`Plan graph: ${message.message}`);
        return;
    }
  }

  private html(target: vscode.Webview): string {
    const webview = target;
    const nonce = randomBytes(16).toString("base64");
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, "dist", "graphView.js"));
    // No remote content: scripts only with the nonce, styles only the nonce'd sheet, images
    // only from blobs (the PNG copy draws the SVG through one).
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "img-src blob: data:",
    ].join("; ");
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${PAGE_STYLE}${GRAPH_STYLE_TEXT}</style>
</head>
<body>
<div id="status" role="status"></div>
<div id="canvas"><div id="stage"></div></div>
<div id="tooltip" role="tooltip" hidden></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    this.loading.dispose();
    clearTimeout(this.editTimer);
    clearInterval(this.liveTimer);
    clearInterval(this.replayTimer);
    for (const subscription of this.panelSubscriptions.splice(0)) subscription.dispose();
    this.panel?.dispose();
    this.onDispose();
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

const PAGE_STYLE = `
html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; background: var(--vscode-editor-background); color: var(--vscode-editor-foreground); }
#status { position: fixed; top: 0; left: 0; right: 0; padding: 4px 8px; font: 12px var(--vscode-font-family); color: var(--vscode-descriptionForeground); background: var(--vscode-editor-background); border-bottom: 1px solid var(--vscode-panel-border, transparent); z-index: 2; }
#canvas { position: absolute; top: 24px; left: 0; right: 0; bottom: 0; overflow: hidden; cursor: grab; }
#stage { transform-origin: 0 0; position: absolute; }
#stage g.step { cursor: pointer; }
#stage g.step:focus { outline: none; }
#stage g.step:focus > rect { stroke: var(--vscode-focusBorder); stroke-width: 2; }
.rlm-graph .step text.run { font-size: 10px; fill: var(--vscode-descriptionForeground); }
#tooltip { position: fixed; max-width: 420px; white-space: pre-wrap; padding: 6px 8px; font: 12px var(--vscode-font-family); color: var(--vscode-editorHoverWidget-foreground); background: var(--vscode-editorHoverWidget-background); border: 1px solid var(--vscode-editorHoverWidget-border); z-index: 3; pointer-events: none; }
`;

function toRange(range: NonNullable<PlanGraphStep["range"]>): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

/** Hover markdown as plain text for the tooltip: emphasis and code marks dropped. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/^---$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function uriOf(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  if (typeof target === "string") return vscode.Uri.parse(target);
  return undefined;
}

function latestRun(log: RunLog, plan: string): RunRecord | undefined {
  return log
    .all()
    .filter((record) => record.plan === plan)
    .sort((a, b) => b.number - a.number)[0];
}
