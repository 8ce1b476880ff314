// "RLM Plan: Create Host Profile": writes a commented rlmplan.host.json next to the plan that
// grants what the plan uses (hostProfileTemplate.ts) and opens it. An existing profile in
// that folder is never overwritten: it is opened instead.

import * as path from "node:path";
import * as vscode from "vscode";
import { HOST_PROFILE_FILENAME } from "@rlm-plan/core/host/profile";
import { hostProfileText, planNeeds } from "./hostProfileTemplate";
import { PLAN_LANGUAGE_ID } from "./languageClient";

export const CREATE_HOST_PROFILE_COMMAND = "rlmPlan.createHostProfile";

export function registerHostProfileScaffold(): vscode.Disposable {
  return vscode.commands.registerCommand(CREATE_HOST_PROFILE_COMMAND, (target?: unknown) => createHostProfile(target));
}

/** Creates (or opens) the host profile beside a plan; answers the profile's URI. */
export async function createHostProfile(target: unknown): Promise<vscode.Uri | undefined> {
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
  const result = planNeeds(plan.getText());
  if (!result.ok) {
    void vscode.window.showErrorMessage(`Cannot create a host profile: ${result.message}.`);
    return undefined;
  }
  const text = hostProfileText(result.needs, path.basename(planUri.fsPath));
  await vscode.workspace.fs.writeFile(profileUri, new TextEncoder().encode(text));
  await vscode.window.showTextDocument(profileUri);
  void vscode.window.showInformationMessage(
    `Created ${HOST_PROFILE_FILENAME}: it grants the ${result.needs.capabilities.length} capabilities the plan uses. ` +
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
