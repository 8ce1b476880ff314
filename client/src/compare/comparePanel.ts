// "Compare Runs": two recorded runs of Plan Runs side by side in a view of their own. The server
// lines them up (RunDiffRequest, the core's runDiff: what `rlm-plan runs diff A B --json` prints)
// and draws each run's plan (PlanGraphRequest); the page shows both graphs with the differing
// steps marked and the table of per-step differences. Nothing here reads the journal.

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import type { WireGraph } from "@rlm-plan/core/graph";
import { pathId } from "@rlm-plan/core/editor";
import { PlanGraphRequest, RunDiffRequest } from "@rlm-plan/language-server/protocol";
import type { RunLog, RunRecord } from "../runLog";
import { displayPath } from "../workspacePaths";
import { comparePageHtml } from "./comparePage";
import type { CompareSide, StepMark } from "./compareMessages";

const COMPARE_RUNS_COMMAND = "rlmPlan.compareRuns";
const COMPARE_VIEW_TYPE = "rlmPlan.compare";

type RecordedRecord = RunRecord & { journal: NonNullable<RunRecord["journal"]> };

export function registerCompareRuns(client: LanguageClient, log: RunLog, extensionUri: vscode.Uri): vscode.Disposable {
  return vscode.commands.registerCommand(COMPARE_RUNS_COMMAND, async (clicked?: unknown, selected?: unknown) => {
    const runs = await chosenRuns(log, clicked, selected);
    if (runs) await compareRuns(client, runs, extensionUri);
  });
}

/** The two runs: the view's selection, or the one clicked and one picked from its journal's others. */
async function chosenRuns(
  log: RunLog,
  clicked: unknown,
  selected: unknown,
): Promise<[RecordedRecord, RecordedRecord] | undefined> {
  const records = (Array.isArray(selected) && selected.length > 0 ? selected : [clicked])
    .map((node) =>
      (node as { kind?: string; record?: RunRecord } | undefined)?.kind === "run"
        ? (node as { record: RunRecord }).record
        : undefined,
    )
    .filter((record): record is RecordedRecord => record?.journal !== undefined);
  if (records.length > 2 || (Array.isArray(selected) && selected.length > 2)) {
    void vscode.window.showErrorMessage("Select two recorded runs in Plan Runs to compare them.");
    return undefined;
  }
  const [a, b] = records;
  if (a && b) {
    if (a.journal.dir !== b.journal.dir) {
      void vscode.window.showErrorMessage("These runs are in two run journals: compare runs of one journal.");
      return undefined;
    }
    // Older first: the diff reads as what changed since.
    return a.journal.id < b.journal.id ? [a, b] : [b, a];
  }
  const others = log.all().filter((run): run is RecordedRecord => run.journal?.dir === a?.journal.dir && run !== a);
  if (!a || others.length === 0) {
    void vscode.window.showErrorMessage("Select two recorded runs in Plan Runs to compare them.");
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    others.map((run) => ({
      label: `Run ${run.journal.id}: ${shownPlan(run)}`,
      description: `${run.status} · ${new Date(run.startedAt).toLocaleString()}`,
      run,
    })),
    { placeHolder: `Compare run ${a.journal.id} with which run?` },
  );
  if (!picked) return undefined;
  return a.journal.id < picked.run.journal.id ? [a, picked.run] : [picked.run, a];
}

async function compareRuns(
  client: LanguageClient,
  [a, b]: [RecordedRecord, RecordedRecord],
  extensionUri: vscode.Uri,
): Promise<vscode.WebviewPanel | undefined> {
  const answer = await client.sendRequest(RunDiffRequest.type, {
    dir: a.journal.dir,
    a: a.journal.id,
    b: b.journal.id,
  });
  if (!answer.ok) {
    void vscode.window.showErrorMessage(
      `Runs ${a.journal.id} and ${b.journal.id} cannot be compared: ${answer.message}`,
    );
    return undefined;
  }
  const { diff } = answer;
  const graphs = new Map<string, Promise<WireGraph | null>>();
  const graphOf = (plan: string) => {
    let graph = graphs.get(plan);
    if (!graph) graphs.set(plan, (graph = planGraph(client, plan)));
    return graph;
  };
  // Marks by graph id: a step only one plan holds is drawn on that side only.
  const marks = (side: "a" | "b"): Record<string, StepMark> => {
    const out: Record<string, StepMark> = {};
    const { steps } = diff;
    for (const step of steps) {
      if (step[side] === null) continue;
      out[pathId(step.path)] = step.pointer === diff.firstDivergence?.pointer ? "first" : step.change;
    }
    return out;
  };
  const sideOf = async ({ plan, journal }: RecordedRecord, side: "a" | "b"): Promise<CompareSide> => ({
    title: `Run ${journal.id} · ${diff[side].status} · ${displayPath(plan)}`,
    graph: await graphOf(plan),
    marks: marks(side),
  });
  const panel = vscode.window.createWebviewPanel(
    COMPARE_VIEW_TYPE,
    `Runs ${a.journal.id} ↔ ${b.journal.id}`,
    vscode.ViewColumn.Active,
    { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist")] },
  );
  const dist = (name: string) => vscode.Uri.joinPath(extensionUri, "dist", name);
  panel.webview.html = comparePageHtml({
    nonce: randomBytes(16).toString("base64"),
    script: readFileSync(dist("compareView.js").fsPath, "utf8"),
    layout: panel.webview.asWebviewUri(dist("graphLayout.js")).toString(),
    compare: { type: "compare", a: await sideOf(a, "a"), b: await sideOf(b, "b"), diff },
  });
  return panel;
}

/** The plan's graph as the server draws it (the document opened, so the server analyses it); null when it cannot be. */
async function planGraph(client: LanguageClient, plan: string): Promise<WireGraph | null> {
  try {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(plan));
    const result = await client.sendRequest(PlanGraphRequest.type, { uri: document.uri.toString() });
    return result ? (result.graph as unknown as WireGraph) : null;
  } catch {
    return null;
  }
}

function shownPlan({ plan }: RunRecord): string {
  return displayPath(plan);
}
