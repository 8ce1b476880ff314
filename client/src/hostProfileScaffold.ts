// "RLM Plan: Create Host Profile": writes a commented rlmplan.host.json next to the plan that
// grants what the plan uses (the server writes the text: `rlmPlan/hostProfileTemplate`) and opens it. An existing profile in
// that folder is never overwritten: it is opened instead.

import * as path from "node:path";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { HOST_PROFILE_FILENAME } from "@rlm-plan/core/editor";
import { PLAN_LANGUAGE_ID } from "./languageClient";
import { HostProfileTemplateRequest } from "@rlm-plan/language-server/protocol";

const CREATE_HOST_PROFILE_COMMAND = "rlmPlan.createHostProfile";

export function registerHostProfileScaffold(client: LanguageClient): vscode.Disposable {
  return vscode.commands.registerCommand(CREATE_HOST_PROFILE_COMMAND, (target?: unknown) =>
    createHostProfile(client, target),
  );
}

/** Creates (or opens) the host profile beside a plan; answers the profile's URI. */
async function createHostProfile(client: LanguageClient, target: unknown): Promise<vscode.Uri | undefined> {
  const planUri =
    target instanceof vscode.Uri
      ? target
      : typeof target === "string"
        ? vscode.Uri.parse(target)
        : vscode.window.activeTextEditor?.document.languageId === PLAN_LANGUAGE_ID
          ? vscode.window.activeTextEditor.document.uri
          : undefined;
  if (!planUri || planUri.scheme !== "file") {
    void vscode.window.showErrorMessage(
      "Open a plan file saved on disk (*.rlmplan.json or *.rlmplan), then create its host profile.",
    );
    return undefined;
  }
  const profileUri = vscode.Uri.file(path.join(path.dirname(planUri.fsPath), HOST_PROFILE_FILENAME));
  if (await exists(profileUri)) {
    await vscode.window.showTextDocument(profileUri);
    void vscode.window.showInformationMessage(
      `${HOST_PROFILE_FILENAME} already exists in this folder: it is open now, nothing was changed.`,
    );
    return profileUri;
  }
  const plan = await vscode.workspace.openTextDocument(planUri);
  let result: HostProfileTemplateRequest.Result;
  try {
    result = await client.sendRequest(HostProfileTemplateRequest.type, {
      uri: client.code2ProtocolConverter.asUri(planUri),
      text: plan.getText(),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(
      `Cannot create a host profile: the language server did not answer (${reason}).`,
    );
    return undefined;
  }
  if (!result.ok) {
    void vscode.window.showErrorMessage(`Cannot create a host profile: ${result.message}.`);
    return undefined;
  }
  await vscode.workspace.fs.writeFile(profileUri, new TextEncoder().encode(result.text));
  await vscode.window.showTextDocument(profileUri);
  void vscode.window.showInformationMessage(
    `Created ${HOST_PROFILE_FILENAME}: it grants the ${result.capabilities.length} capabilities the plan uses. ` +
      "Fill in what its comments point to (inputs, command tools, providers), then run the plan.",
  );
  return profileUri;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
