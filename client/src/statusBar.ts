// The worst case of the active plan in the status bar. The client computes no figure: it asks
// the server for the plan's code lenses (`textDocument/codeLens`, the same answer the lens
// above the plan shows) and shows the title of the worst-case lens, "steps 3/64 · tools 1/8 ·
// depth 1/4", marked when a figure is over its limit. It asks again when the active editor
// changes and whenever the server publishes new diagnostics for the plan (it does after each
// analysis). The tooltip names the host profile in force (`rlmPlan/hostProfile`).

import * as vscode from "vscode";
import { CodeLensRequest, type LanguageClient } from "vscode-languageclient/node";
import { PLAN_LANGUAGE_ID } from "./languageClient";
import { displayPath } from "./runOutput";
import { HostProfileRequest, RunPlanClientCommand } from "./serverProtocol";

/** The server marks a figure over its limit with this sign (server/src/service/codeLens.ts). */
const OVER_LIMIT_MARK = "⚠";
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
    const [lenses, host] = await Promise.all([
      this.client.sendRequest(CodeLensRequest.type, { textDocument: { uri } }).catch(() => null),
      this.client.sendRequest(HostProfileRequest.type, { uri }).catch(() => undefined),
    ]);
    if (generation !== this.generation) return;
    const title = lenses?.find((lens) => lens.command && lens.command.command !== RunPlanClientCommand.command)?.command
      ?.title;
    if (!title) {
      // The server shows no worst case for a plan it could not read completely.
      this.item.hide();
      return;
    }
    const over = title.includes(OVER_LIMIT_MARK);
    this.item.text = `$(dashboard) ${title}`;
    this.item.backgroundColor = over ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**Worst case** of this plan${over ? ", over the budget" : ""}: `).appendText(title);
    tooltip.appendMarkdown("\n\nThe language server's own figures (the code lens above the plan), ");
    if (host?.hostProfile) {
      tooltip.appendMarkdown("against the budget of the host profile `").appendText(displayPath(host.hostProfile));
      tooltip.appendMarkdown("`. Click to open it.");
      this.item.command = {
        title: "Open Host Profile",
        command: "vscode.open",
        arguments: [vscode.Uri.file(host.hostProfile)],
      };
    } else {
      tooltip.appendMarkdown("against the default budget: no host profile applies to this plan.");
      this.item.command = undefined;
    }
    this.item.tooltip = tooltip;
    this.item.show();
  }
}
