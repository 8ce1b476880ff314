// "RLM Plan: Update Lock": the quick fix of a host profile's drift from rlmplan.lock.json. Writing
// the lock starts the profile's MCP servers (programs of the workspace) to ask them what they are,
// and accepting drift is a decision: so only in a trusted workspace, and only after a modal that
// shows what will be accepted. The server does the work (UpdateLockCommand).

import * as vscode from "vscode";
import { ExecuteCommandRequest, type LanguageClient } from "vscode-languageclient/node";
import { UpdateLockClientCommand, UpdateLockCommand } from "@rlm-plan/language-server/protocol";

const UNTRUSTED =
  "Updating the lock starts the host profile's MCP servers, programs of this workspace: trust the workspace first.";

/** The lock's diagnostics the server put on a profile (service/lockDiagnostics.ts codes). */
const LOCK_CODES = new Set(["tool_drift", "lock_unreadable", "no_lock"]);

export function registerUpdateLockCommand(client: LanguageClient): vscode.Disposable {
  return vscode.commands.registerCommand(UpdateLockClientCommand.command, async (target?: unknown) => {
    const uri = profileOf(target);
    if (uri === undefined) {
      void vscode.window.showErrorMessage("Open a host profile (rlmplan.host.json) to update its lock.");
      return undefined;
    }
    if (!vscode.workspace.isTrusted) {
      const choice = await vscode.window.showErrorMessage(UNTRUSTED, "Manage Workspace Trust");
      if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
      return undefined;
    }
    const changes = vscode.languages
      .getDiagnostics(uri)
      .filter((diagnostic) => LOCK_CODES.has(String(diagnostic.code)))
      .map(
        (diagnostic) => `• ${diagnostic.message.replace(/^drift from the lock: /, "").replace(/; runs refuse.*$/, "")}`,
      );
    const detail = [
      "This starts the host profile's MCP servers to ask them what their tools are, then writes rlmplan.lock.json.",
      ...(changes.length > 0 ? ["", "It accepts:", ...changes] : []),
    ].join("\n");
    const accept = "Update Lock";
    const answer = await vscode.window.showWarningMessage("Update rlmplan.lock.json?", { modal: true, detail }, accept);
    if (answer !== accept) return undefined;
    const result = (await client.sendRequest(ExecuteCommandRequest.type, {
      command: UpdateLockCommand.command,
      arguments: [{ uri: uri.toString() }],
    })) as UpdateLockCommand.Result | null;
    report(result);
    return result;
  });
}

function report(result: UpdateLockCommand.Result | null): void {
  if (result === null) {
    void vscode.window.showErrorMessage("The lock was not updated: the language server did not answer.");
    return;
  }
  const lines = result.lines.join("; ");
  switch (result.outcome) {
    case "written":
      void vscode.window.showInformationMessage("Wrote rlmplan.lock.json: the profile's tools are pinned.");
      return;
    case "unchanged":
      void vscode.window.showInformationMessage("rlmplan.lock.json is up to date: nothing drifted.");
      return;
    case "updated":
      void vscode.window.showInformationMessage(
        lines === "" ? "Rewrote rlmplan.lock.json." : `Updated rlmplan.lock.json, accepting: ${lines}`,
      );
      return;
    default:
      void vscode.window.showErrorMessage(`rlmplan.lock.json not written: ${lines}`);
  }
}

function profileOf(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  const given =
    typeof target === "string"
      ? target
      : typeof target === "object" && target !== null && typeof (target as { uri?: unknown }).uri === "string"
        ? (target as { uri: string }).uri
        : undefined;
  if (given !== undefined) return vscode.Uri.parse(given);
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.path.endsWith("rlmplan.host.json") ? active : undefined;
}
