// "RLM Plan: Propose Plan...": asks a model provider of the workspace's host profile for a plan
// for a goal (the server's ProposePlanCommand, the stored key handed over for that call only;
// asked for, and stored, when there is none), then opens the proposal as a new, unsaved plan
// beside the host profile, where the server checks it against that profile: diagnostics,
// hovers, worst case. Save it to keep it, run it as any plan.

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { ExecuteCommandRequest, type LanguageClient } from "vscode-languageclient/node";
import type { ProviderKeys } from "./secrets";
import { HELD_OPENS } from "./languageClient";
import { HostProvidersRequest, ProposePlanCommand } from "@rlm-plan/language-server/protocol";

const PROPOSE_PLAN_COMMAND = "rlmPlan.proposePlan";

export function registerProposeCommand(client: LanguageClient, keys: ProviderKeys): vscode.Disposable {
  return vscode.commands.registerCommand(PROPOSE_PLAN_COMMAND, async (goalArgument?: unknown) => {
    if (!vscode.workspace.isTrusted) {
      // The host profile names the endpoint that receives the stored key: only a trusted one.
      void vscode.window.showErrorMessage(
        "Proposing a plan needs a trusted workspace: it sends a stored key to the host profile's provider.",
      );
      return;
    }
    const place = startingPlace();
    if (!place) {
      void vscode.window.showErrorMessage("Open a folder (or a plan in one) to propose a plan for it.");
      return;
    }
    const where = client.code2ProtocolConverter.asUri(place);
    const host = await client.sendRequest(HostProvidersRequest.type, { uri: where });
    if (host.hostProfile === null || host.providers.length === 0) {
      const why =
        host.hostProfile === null
          ? "No host profile (rlmplan.host.json) here or above"
          : `${host.hostProfile} declares no usable provider`;
      void vscode.window.showErrorMessage(`${why}: a plan is proposed by one of its model providers.`);
      return;
    }
    const provider =
      host.providers.length === 1
        ? host.providers[0]
        : (
            await vscode.window.showQuickPick(
              host.providers.map((p) => ({ label: p.name, description: p.description, provider: p })),
              { title: "Propose a plan with which provider?" },
            )
          )?.provider;
    if (!provider) return;
    // The key first: a goal typed before a dismissed key prompt would be lost.
    const env = provider.keyVariable ? await keys.keyForCall(provider.keyVariable, provider.name) : {};
    if (!env) return;
    const goal =
      typeof goalArgument === "string"
        ? goalArgument
        : await vscode.window.showInputBox({
            title: `Propose a plan (${provider.name})`,
            prompt: "What should the plan do?",
            placeHolder: "count the TODO lines in the notes",
            ignoreFocusOut: true,
          });
    if (!goal?.trim()) return;
    const args: ProposePlanCommand.Arguments = [{ uri: where, goal, provider: provider.name, env }];
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Asking ${provider.name} for a plan…`,
        cancellable: true,
      },
      (_, token) =>
        client.sendRequest(
          ExecuteCommandRequest.type,
          { command: ProposePlanCommand.command, arguments: args },
          token,
        ) as Promise<ProposePlanCommand.Result | null>,
    );
    if (!result) return;
    if (!result.ok) {
      void vscode.window.showErrorMessage(`No plan proposed: ${result.error}`);
      return;
    }
    if (result.planText === null) {
      const reply = await vscode.workspace.openTextDocument({ language: "markdown", content: result.reply ?? "" });
      await vscode.window.showTextDocument(reply);
      void vscode.window.showErrorMessage(
        `${provider.name}'s reply holds no plan: ${result.problems[0]?.message ?? "no JSON object"}`,
      );
      return;
    }
    const dir = dirname(host.hostProfile);
    const target = vscode.Uri.file(freeName(dir)).with({ scheme: "untitled" });
    // VS Code opens an untitled document with a place only empty: the server is told of it once
    // the plan is in it (heldOpens.ts), never of the empty one.
    const held = HELD_OPENS.hold(target);
    let editor: vscode.TextEditor;
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(target);
      editor = await vscode.window.showTextDocument(document);
      await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), result.planText as string));
    } finally {
      await held.release();
    }
    // The document was empty when VS Code detected its indentation: what a file with this text
    // would have been detected as (the plan is pretty-printed with two spaces).
    if (vscode.workspace.getConfiguration("editor", document).get<boolean>("detectIndentation", true)) {
      editor.options = { tabSize: 2, insertSpaces: true };
    }
    const count = result.problems.length;
    void vscode.window.showInformationMessage(
      count === 0
        ? `${provider.name} proposed a valid plan: save it to keep it, then run it.`
        : `${provider.name} proposed a plan with ${count} problem${count === 1 ? "" : "s"}: see the Problems view.`,
    );
  });
}

/**
 * Where the host profile is looked up (by the server, which walks up from there): the active
 * document, when it is a file or an unsaved one that has a place (a proposal opened beside its
 * host profile); else the first workspace folder.
 */
function startingPlace(): vscode.Uri | undefined {
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === "file" || (active?.scheme === "untitled" && active.path.startsWith("/"))) return active;
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** proposed.rlmplan.json, or proposed-2.rlmplan.json, ... : a name no file or open document has. */
function freeName(dir: string): string {
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.path));
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? "proposed.rlmplan.json" : `proposed-${n}.rlmplan.json`);
    if (!existsSync(path) && !open.has(vscode.Uri.file(path).path)) return path;
  }
}
