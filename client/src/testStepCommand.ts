// "Test This Step" (the code lens above each step): asks the server for the bindings the step
// reads (the values its last run was given, from the journal, else a template from their types),
// lets the user edit them as JSON in an input box, and runs that step alone through the server's
// run command, shown in the output and Plan Runs like any run. Run Plan's trust gate applies: the
// run itself goes through Run Plan's path, which refuses in an untrusted workspace.

import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { StepBindingsRequest, type RunCommand } from "@rlm-plan/language-server/protocol";
import type { RunRecord } from "./runLog";

/** RunCommand's `step`: the step's JSON Pointer and the bindings given. */
export type StepRun = NonNullable<RunCommand.Arguments[0]["step"]>;

export async function testStep(
  deps: { readonly client: LanguageClient },
  uriArgument: unknown,
  stepArgument: unknown,
  run: (uri: vscode.Uri, step: StepRun) => Promise<RunRecord | undefined>,
): Promise<RunRecord | undefined> {
  if (typeof uriArgument !== "string" || typeof stepArgument !== "string") {
    void vscode.window.showErrorMessage("Test This Step runs from the lens above a step of an open plan.");
    return undefined;
  }
  const uri = vscode.Uri.parse(uriArgument);
  if (!vscode.workspace.isTrusted) return run(uri, { path: stepArgument, bindings: {} });
  const scope = await deps.client
    .sendRequest(StepBindingsRequest.type, { uri: uriArgument, step: stepArgument })
    .catch(() => null);
  if (!scope) {
    void vscode.window.showErrorMessage(`There is no step at ${stepArgument} in this plan (edit it, then try again).`);
    return undefined;
  }
  const from = scope.from === "journal" ? `as run ${scope.run ?? "?"} was given them` : "a template from their types";
  const text = await vscode.window.showInputBox({
    title: `Test This Step: ${scope.shown}`,
    prompt:
      scope.needed.length > 0
        ? `Bindings the step reads (${scope.needed.join(", ")}), ${from}; in scope: ${scope.inScope.join(", ")}`
        : "The step reads no binding; any in scope may be given",
    value: JSON.stringify(scope.bindings),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const parsed = jsonObject(value);
      return typeof parsed === "string" ? parsed : undefined;
    },
  });
  if (text === undefined) return undefined;
  const bindings = jsonObject(text);
  if (typeof bindings === "string") return undefined;
  return run(uri, { path: stepArgument, bindings });
}

/** The input box's text as a JSON object, or what is wrong with it. */
function jsonObject(text: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `Not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : 'Give a JSON object of binding name -> value, such as {"name": "Ada"}';
}
