// One plan's graph view: a webview beside the plan editor drawing the server's graph of the
// plan (rlmPlan/planGraph). It follows edits (debounced; the view keeps its pan and zoom),
// highlights the step under the editor's cursor, reveals a clicked step, shows the server's
// hover for a step, colours steps by the state of the plan's latest run (live while it runs,
// from the run's events: failed attempts marked on their steps) or replays a run
// (runReplay.ts), exports SVG or copies a PNG, and logs how long the user waited for the first
// drawing and where that time went.

import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { WireGraph } from "@rlm-plan/core/graph";
import type { FromWebview, ToWebview } from "./messages";
import type { RunLog, RunRecord } from "../runLog";
import type { LanguageClient } from "vscode-languageclient/node";
import { PlanGraphRequest, type PlanGraphResult, type PlanGraphStep } from "@rlm-plan/language-server/protocol";
import { editFromGraph, toRange } from "./graphEdits";
import { graphPageHtml, viewScript } from "./graphPage";
import { LoadWatch } from "./loadWatch";
import { PageMessages, settledWithin } from "./pageMessages";
import { RunReplay } from "./runReplay";
import { runSummary, stepStates } from "./runSteps";

/** What a graph panel needs of the extension (the panels' manager, graphPanels.ts, hands it over). */
export interface GraphDependencies {
  readonly client: LanguageClient;
  readonly log: RunLog;
  readonly extensionUri: vscode.Uri;
}

/** Plans with more steps than this open with their nested plans folded into their steps. */
const LARGE_PLAN_STEPS = 400;
const LARGE_PLAN_DEPTH = 1;
const EDIT_DELAY_MS = 300;
const LIVE_REFRESH_MS = 250;
/** A view whose page has not said "ready" this long after it was set is loaded again (loadWatch.ts). */
const LOAD_TIMEOUT_MS = 8000;
const LOAD_ATTEMPTS = 3;
/**
 * How long a new view's page waits for the server's first graph, to carry it in its HTML. VS Code
 * makes the view's frame meanwhile and asks for the page only once the frame is there (the
 * window's first view: 0.45-1.0 s after the command on an idle machine, 1.1-2.0 s at loads of
 * 11-20; the server's graph came at 0.14-0.2 s and 0.5-1.0 s: bench/README.md). A graph that
 * misses it is posted once the page is set; VS Code took up to 1.2 s more to deliver that
 * 600 KB message at a load of 20, against 10-40 ms to read it from the page.
 */
const FIRST_GRAPH_WAIT_MS = 1000;

export interface GraphPanelOptions {
  /** When the user asked for the graph (Date.now()). */
  readonly asked: number;
  /** The run whose states are shown first: the plan's latest, or the one to replay. */
  readonly run: RunRecord | undefined;
  /** Replay `run` once the graph is drawn, rather than show its states at once. */
  readonly replay: boolean;
  readonly onDispose: () => void;
}

export class GraphPanel implements vscode.Disposable {
  private result: PlanGraphResult | undefined;
  private readonly messages: PageMessages;
  /** Settles when the server's first graph is here and sent (or failed). */
  private readonly firstAnswer: Promise<void>;
  /** Graphs sent to the view so far (each graph message's number). */
  private graphsSent = 0;
  private editTimer: NodeJS.Timeout | undefined;
  private liveTimer: NodeJS.Timeout | undefined;
  /** The run whose states are shown (and "Rerun From Here" forks): the plan's latest, or the one replayed. */
  run: RunRecord | undefined;
  private replaying: RunReplay | undefined;
  private readonly loading: LoadWatch;
  /** The view; replaced when its page never loads (openPanel). */
  private panel: vscode.WebviewPanel | undefined;
  private readonly panelSubscriptions: vscode.Disposable[] = [];
  private readonly title: string;
  private readonly name: string;
  /** Resolves when the view has drawn the graph for the first time. */
  private readonly drawn: Promise<void>;
  private firstDrawn: (() => void) | undefined;
  /** When each stage of the first drawing happened (Date.now()), for the log line. */
  private readonly timing: Record<string, number> = {};
  /** Whether a page's HTML carried the first graph (the log line says which way it came). */
  private graphInPage = false;
  onFocus: (() => void) | undefined;
  /** Every drawing's figures, latest last (for tests and the bench). */
  readonly renders: { ms: number; steps: number; nodes: number }[] = [];

  constructor(
    private readonly document: vscode.TextDocument,
    private readonly deps: GraphDependencies,
    private readonly options: GraphPanelOptions,
  ) {
    this.name = document.uri.path.split("/").pop() ?? "plan";
    this.title = `Graph: ${this.name}`;
    this.drawn = new Promise((resolve) => (this.firstDrawn = resolve));
    this.messages = new PageMessages({
      post: (message) => void this.panel?.webview.postMessage(message),
      isReady: () => this.loading.isReady,
    });
    this.loading = new LoadWatch({
      timeoutMs: LOAD_TIMEOUT_MS,
      attempts: LOAD_ATTEMPTS,
      visible: () => this.panel?.visible ?? false,
      load: () => this.openPanel(),
      say: (message) => this.say(message),
    });
    // The server's graph is asked for first: it is built while VS Code makes the view's frame.
    this.firstAnswer = this.refresh();
    this.loading.load();
    this.timing.created = Date.now();
    if (options.replay && options.run) this.replay(options.run);
    else this.run = options.run;
  }

  reveal(): void {
    this.panel?.reveal(vscode.ViewColumn.Beside, true);
  }

  /**
   * Opens the view, or opens it again in the place of one whose page never loaded: setting the
   * same view's page again does not help when its frame is stuck, a new view does. What was sent
   * before the page said "ready" is kept and written into the new one. The page is set once the
   * first graph is here (at most FIRST_GRAPH_WAIT_MS): it then draws as its script runs.
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
    this.messages.opening();
    old?.dispose();
    void settledWithin(this.firstAnswer, FIRST_GRAPH_WAIT_MS).then(() => {
      if (this.panel !== panel) return; // closed or replaced meanwhile
      const dist = (name: string) =>
        panel.webview.asWebviewUri(vscode.Uri.joinPath(this.deps.extensionUri, "dist", name)).toString();
      panel.webview.html = graphPageHtml({
        nonce: randomBytes(16).toString("base64"),
        script: viewScript(vscode.Uri.joinPath(this.deps.extensionUri, "dist", "graphView.js").fsPath),
        layout: dist("graphLayout.js"),
        messages: this.messages.writeIntoPage(),
      });
      this.timing.pageSet ??= Date.now();
      this.graphInPage ||= this.messages.pageHasGraph;
    });
  }

  send(message: ToWebview): void {
    this.messages.send(message);
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
    if (this.replaying) return; // a replay is showing; it ends on its own
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

  /** Replays a run from its recorded events once the graph is drawn (runReplay.ts). */
  replay(record: RunRecord): void {
    this.replaying?.stop();
    clearInterval(this.liveTimer);
    this.run = record;
    const replay: RunReplay = new RunReplay({
      record,
      stepIds: () => this.stepIds(),
      drawn: this.drawn,
      send: (message) => this.send(message),
      ended: () => {
        if (this.replaying !== replay) return;
        this.replaying = undefined;
        this.showRunStates();
      },
    });
    this.replaying = replay;
  }

  private showRunStates(): void {
    const record = this.run;
    if (!record || !this.result || this.replaying) return;
    this.send({ type: "run", states: stepStates(record, this.stepIds()), summary: runSummary(record) });
    if (record.status !== "running") clearInterval(this.liveTimer);
  }

  private stepIds(): string[] {
    return (this.result?.graph.nodes ?? []).flatMap((node) => (node.kind === "step" ? [node.id] : []));
  }

  private async refresh(): Promise<void> {
    const uri = this.document.uri.toString();
    try {
      // One round trip: the server folds a large plan's nested plans itself.
      const result = await this.deps.client.sendRequest(PlanGraphRequest.type, {
        uri,
        collapseDepth: LARGE_PLAN_DEPTH,
        collapseAbove: LARGE_PLAN_STEPS,
      });
      if (!result) return;
      this.timing.answered ??= Date.now();
      this.result = result;
      // The drawing never reads a step's ranges (a third of a large graph's bytes): kept here.
      const nodes = result.graph.nodes.map((node) => {
        if (node.kind !== "step") return node;
        const { range: _range, opRange: _opRange, ...drawn } = node;
        return drawn;
      });
      this.send({
        type: "graph",
        graph: { ...result.graph, nodes } as unknown as WireGraph,
        title: this.title,
        seq: ++this.graphsSent,
      });
      this.showRunStates();
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === this.document);
      if (editor) this.cursorMoved(editor.selection.active);
    } catch (error) {
      // The server's message as it is (a plan over rlmPlan.maxAnalyzedSize names its size and the setting).
      const message = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`The plan graph could not be built: ${message}`);
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

  step(id: string): PlanGraphStep | undefined {
    const node = this.result?.graph.nodes.find((n) => n.id === id);
    return node?.kind === "step" ? node : undefined;
  }

  private say(message: string): void {
    this.deps.client.outputChannel.appendLine(`Plan graph of ${this.name}: ${message}`);
  }

  /** After the first drawing: how long the user waited, and for what (test/e2e/run.mjs (j) reads it). */
  private sayFirstDrawing(message: Extract<FromWebview, { type: "rendered" }>): void {
    const at = (time: number | undefined) => (time === undefined ? "?" : `${time - this.options.asked} ms`);
    const { created, answered, pageSet, ready, pageOpened, pageStarted, scriptRan } = this.timing;
    const reached = this.graphInPage ? "the page read the graph it carried at" : "the graph reached the page at";
    this.say(
      `nodes on screen ${at(message.drawnAt)} after the command: view created at ${at(created)}, ` +
        `its page set at ${at(pageSet)}, opened at ${at(pageOpened)}, was there at ${at(pageStarted)}, ` +
        `its script ran at ${at(scriptRan)}, ready at ${at(ready)}; ` +
        `the server's graph at ${at(answered)}; ${reached} ${at(message.receivedAt)}, ` +
        `drawn at ${at(message.drawnAt)} (layout and drawing ${Math.round(message.ms)} ms); ` +
        `${message.states} of ${message.steps} steps with a run state`,
    );
  }

  private async received(message: FromWebview): Promise<void> {
    switch (message.type) {
      case "loading":
        this.loading.started();
        this.timing.pageStarted = message.at;
        return;
      case "ready":
        this.loading.loaded();
        Object.assign(this.timing, {
          ready: Date.now(),
          pageOpened: message.pageStarted,
          scriptRan: message.scriptRan,
        });
        this.messages.ready();
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
      case "edit":
        return editFromGraph(this.deps.client, this.result, this.step(message.id), message.action);
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
        if (this.firstDrawn) {
          this.sayFirstDrawing(message);
          this.firstDrawn();
          this.firstDrawn = undefined;
        }
        return;
      case "error":
        void vscode.window.showErrorMessage(`Plan graph: ${message.message}`);
        return;
    }
  }

  dispose(): void {
    this.loading.dispose();
    this.replaying?.stop();
    clearTimeout(this.editTimer);
    clearInterval(this.liveTimer);
    for (const subscription of this.panelSubscriptions.splice(0)) subscription.dispose();
    // Cleared first: a page still waiting for the first graph is then not set on a disposed view.
    const panel = this.panel;
    this.panel = undefined;
    panel?.dispose();
    this.options.onDispose();
  }
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
