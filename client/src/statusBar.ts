// The worst case of the active plan in the status bar. The client computes no figure: it asks
// the server (`rlmPlan/worstCase`) for the figures the code lens above the plan shows, "steps
// 3/64 · tools 1/8 · depth 1/4", with every budget row and the host profile in force, and
// marks the item when a figure is over its limit. It asks again when the active editor changes
// and whenever the server publishes new diagnostics for the plan (it does after each analysis).

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { PLAN_LANGUAGE_ID } from "./languageClient";
import { displayPath } from "./workspacePaths";
import { WorstCaseRequest } from "@rlm-plan/language-server/protocol";

const REFRESH_DELAY_MS = 150;

export class WorstCaseStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("rlmPlan.worstCase", vscode.StatusBarAlignment.Left, 50);
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Bumped on every refresh, so a slow answer for an older editor is dropped. */
  private generation = 0;

  constructor(private readonly client: LanguageClient) {
    this.item.name = "RLM Plan: worst case";
    this.subscriptions.push(
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      vscode.languages.onDidChangeDiagnostics((event) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && event.uris.some((uri) => uri.toString() === active)) this.schedule(REFRESH_DELAY_MS);
      }),
      client.onDidChangeState(() => this.schedule(0)),
    );
    this.schedule(0);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delay);
  }

  private async refresh(): Promise<void> {
    const generation = ++this.generation;
    const document = vscode.window.activeTextEditor?.document;
    if (!document || document.languageId !== PLAN_LANGUAGE_ID || !this.client.isRunning()) {
      this.item.hide();
      return;
    }
    const uri = this.client.code2ProtocolConverter.asUri(document.uri);
    const worst = await this.client.sendRequest(WorstCaseRequest.type, { uri }).catch(() => null);
    if (generation !== this.generation) return;
    if (!worst) {
      // The server shows no worst case for a plan it could not read completely.
      this.item.hide();
      return;
    }
    this.item.text = `$(dashboard) ${worst.title}`;
    this.item.backgroundColor = worst.over ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    const tooltip = worstCaseTooltip(worst);
    if (worst.hostProfile) {
      tooltip.appendMarkdown("\n\nClick to open the host profile.");
      this.item.command = {
        title: "Open Host Profile",
        command: "vscode.open",
        arguments: [vscode.Uri.file(worst.hostProfile)],
      };
    } else {
      this.item.command = undefined;
    }
    this.item.tooltip = tooltip;
    this.item.show();
  }
}

/** The worst case against the budget in force, a row per limited figure, and where the budget comes from. */
function worstCaseTooltip(worst: WorstCaseRequest.Result): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString();
  tooltip.appendMarkdown(`**Worst case** of this plan${worst.over ? ", over the budget" : ""}`);
  if (worst.rows.length > 0) {
    tooltip.appendMarkdown("\n\n| | worst case | limit |\n|:--|--:|--:|\n");
    for (const row of worst.rows)
      tooltip.appendMarkdown(
        `| ${row.label} | ${row.over ? "**" + String(row.estimate) + "** ⚠" : String(row.estimate)} | ${row.limit} |\n`,
      );
  } else {
    tooltip.appendMarkdown(": ").appendText(worst.title);
  }
  if (worst.budget === "host" && worst.hostProfile) {
    tooltip.appendMarkdown("\n\nAgainst the budget of the host profile `").appendText(displayPath(worst.hostProfile));
    tooltip.appendMarkdown("`.");
  } else if (worst.budget === "none") {
    tooltip.appendMarkdown("\n\nNo budget is in force: the host profile has problems.");
  } else {
    tooltip.appendMarkdown("\n\nAgainst the default budget: no host profile applies to this plan.");
  }
  return tooltip;
}
