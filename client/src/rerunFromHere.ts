// "Rerun From Here": a recorded run forked at one of its steps, from a step of the Plan Runs view
// or a node of the plan graph showing that run. The server says which bindings are in scope
// there and the values the run had (it replays the run, calling nothing); the user edits any of
// them in a quick pick (one JSON input per binding, checked as typed), then the server forks the
// run as `rlm-plan run --from RUN --step PATH --set NAME=JSON` does. Only the edited bindings are
// sent: the others keep whatever the run computes. A changed plan or profile is asked about first.

import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import { ForkRunCommand, RecordedScopeRequest } from "@rlm-plan/language-server/protocol";
import type { JsonValue } from "@rlm-plan/core";
import { reportEnd, showProgress, UNTRUSTED_MESSAGE, type RunDependencies } from "./runCommand";
import type { RunRecord, StepPath } from "./runLog";
import { formatStepPath } from "./stepLocation";
import { displayPath } from "./workspacePaths";

const RERUN_FROM_HERE_COMMAND = "rlmPlan.rerunFromHere";

/** A step of a recorded run, as a view item or the graph names it. */
export interface RecordedStep {
  readonly record: RunRecord;
  readonly path: StepPath;
}

/** A preview of a value in the pick: its JSON, cut. */
const PREVIEW_CHARS = 80;

/**
 * `stepOf` turns the command's argument into the step: a Plan Runs transition item (`{record,
 * transition}`), or what the graph's context menu passes (graphPanels.ts answers that).
 */
export function registerRerunFromHere(
  deps: RunDependencies,
  graphStep: (target: unknown) => RecordedStep | undefined,
): vscode.Disposable {
  return vscode.commands.registerCommand(RERUN_FROM_HERE_COMMAND, (target?: unknown) =>
    rerunFromHere(deps, transitionStep(target) ?? graphStep(target)),
  );
}

function transitionStep(target: unknown): RecordedStep | undefined {
  const node = target as { kind?: unknown; record?: RunRecord; transition?: { path?: StepPath } } | undefined;
  if (node?.kind !== "transition" || !node.record || !node.transition?.path) return undefined;
  return { record: node.record, path: node.transition.path };
}

async function rerunFromHere(deps: RunDependencies, step: RecordedStep | undefined): Promise<RunRecord | undefined> {
  const ref = step?.record.journal;
  if (!step || !ref) {
    void vscode.window.showErrorMessage(
      "Choose a step of a recorded run (in the Plan Runs view, or on the plan graph showing the run) to rerun from it.",
    );
    return undefined;
  }
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE);
    return undefined;
  }
  const { client, log, runs, output, keys } = deps;
  const shown = formatStepPath(step.path);
  // The journal's own form of a step path (a JSON array): the server parses it, the client formats nothing.
  const at = JSON.stringify(step.path);
  const scope = await client.sendRequest(RecordedScopeRequest.type, { dir: ref.dir, id: ref.id, step: at });
  let allowChanged = false;
  if (!scope.ok) {
    if (scope.kind !== "changed") {
      void vscode.window.showErrorMessage(`Cannot rerun run ${ref.id} from ${shown}: ${scope.refusal}`);
      return undefined;
    }
    const anyway = "Rerun Anyway";
    const answer = await vscode.window.showWarningMessage(
      `Run ${ref.id} was recorded with another plan or host profile: ${scope.refusal}`,
      {
        modal: true,
        detail:
          "Rerun anyway: steps are matched by path, and from the first that no longer matches everything runs live. Its recorded values cannot be shown.",
      },
      anyway,
    );
    if (answer !== anyway) return undefined;
    allowChanged = true;
  }
  const edited = await editBindings(`Rerun run ${ref.id} from ${shown}`, scope.bindings, scope.ok && scope.reached);
  if (!edited) return undefined;

  let answer: ForkRunCommand.Result;
  try {
    const env = step.record.plan.startsWith("file:") ? await keys.keysFor(step.record.plan) : {};
    const args: ForkRunCommand.Arguments = [
      {
        dir: ref.dir,
        id: ref.id,
        step: at,
        ...(edited.size > 0 ? { set: Object.fromEntries(edited) } : {}),
        ...(allowChanged ? { allowChanged } : {}),
        ...(Object.keys(env).length > 0 ? { env } : {}),
      },
    ];
    answer = (await client.sendRequest(ExecuteCommandRequest.type, {
      command: ForkRunCommand.command,
      arguments: args,
    })) as ForkRunCommand.Result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    output.refused(step.record.plan, message);
    void vscode.window.showErrorMessage(message);
    return undefined;
  }
  const record = log.begin(answer.uri, step.record.hostProfile, answer.runId);
  if (answer.journal) record.journal = { ...answer.journal, forkOf: answer.forkOf };
  const names = [...edited.keys()];
  output.line(
    `Rerunning run ${ref.id} of ${displayPath(answer.uri)} from ${shown}${names.length > 0 ? ` with ${names.join(", ")} edited` : ""} (the steps before it answered from the journal)`,
  );
  output.show();
  const session = runs.start(answer.runId, record);
  await showProgress(deps, session);
  void reportEnd(deps, record);
  return record;
}

interface BindingItem extends vscode.QuickPickItem {
  readonly name?: string;
}

/**
 * The bindings in a quick pick: the first item starts the rerun; choosing a binding opens its
 * value as JSON in an input box (checked as typed), then comes back. Resolves with the edited
 * values, or undefined when the user dismissed it.
 */
async function editBindings(
  title: string,
  bindings: readonly RecordedScopeRequest.Binding[],
  reached: boolean,
): Promise<Map<string, JsonValue> | undefined> {
  const edited = new Map<string, JsonValue>();
  const start: BindingItem = {
    label: "$(debug-start) Start Rerun",
    description: "with the values below",
    alwaysShow: true,
  };
  for (;;) {
    const items: BindingItem[] = [
      start,
      ...(bindings.length > 0 ? [{ label: "Bindings in scope", kind: vscode.QuickPickItemKind.Separator }] : []),
      ...bindings.map((binding) => {
        const changed = edited.has(binding.name);
        const value = changed ? edited.get(binding.name) : binding.value;
        const known = changed || "value" in binding;
        return {
          label: binding.name,
          name: binding.name,
          description: known ? preview(value) : "(not reached in the recorded run)",
          ...(changed ? { detail: "$(edit) edited" } : {}),
        };
      }),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title,
      placeHolder: reached
        ? "Choose a binding to edit its value, or start the rerun"
        : "The recorded run never reached this step: set any binding, or start the rerun",
      ignoreFocusOut: true,
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    if (!picked.name) return edited;
    const binding = bindings.find((b) => b.name === picked.name);
    const current = edited.has(picked.name) ? edited.get(picked.name) : binding?.value;
    const text = await vscode.window.showInputBox({
      title: `${title}: ${picked.name}`,
      prompt: `The value of ${picked.name} as the step starts (JSON)`,
      value: current === undefined ? "" : JSON.stringify(current),
      ignoreFocusOut: true,
      validateInput: (input) => jsonProblem(input),
    });
    if (text === undefined) continue;
    edited.set(picked.name, JSON.parse(text) as JsonValue);
  }
}

function jsonProblem(input: string): string | undefined {
  try {
    JSON.parse(input);
    return undefined;
  } catch (error) {
    return `Not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}
