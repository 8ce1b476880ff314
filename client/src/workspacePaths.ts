// How the extension names files and steps for people: relative to the workspace folder, and a
// step's place as file:line:col while its plan is open in the editor. The run output's places.

import * as vscode from "vscode";
import { RUN_OUTPUT_CHANNEL, RunOutput, type RunPlaces } from "./runOutput";
import { formatStepPath } from "./stepLocation";

/** A plan's or profile's path relative to its workspace folder, for people. */
export function displayPath(uriOrPath: string): string {
  const uri = uriOrPath.includes("://") ? vscode.Uri.parse(uriOrPath) : vscode.Uri.file(uriOrPath);
  return vscode.workspace.asRelativePath(uri, false);
}

/**
 * Where a step is: `plans/x.rlmplan.json:12:11` while the plan is open in the editor (the
 * offset is the runtime's, in the text that ran), else its JSON path.
 */
function stepPlace(plan: string, path: readonly (string | number)[], offset: number | undefined): string {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === plan);
  if (!document || offset === undefined) return formatStepPath(path);
  const { line, character } = document.positionAt(offset);
  return `${displayPath(plan)}:${line + 1}:${character + 1}`;
}

const WORKSPACE_PLACES: RunPlaces = { show: displayPath, step: stepPlace };

/** The "RLM Plan Runs" channel, its places named in the workspace. */
export function createRunOutput(): RunOutput {
  return new RunOutput(vscode.window.createOutputChannel(RUN_OUTPUT_CHANNEL), WORKSPACE_PLACES);
}
