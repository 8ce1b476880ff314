// "RLM Plan: Run Plan", "Cancel Run" and "Run Again". A run goes through the server's run
// command (`rlmPlan.server.run`) against the host profile the server finds for the plan; the
// client shows progress with a Cancel button, streams transitions to the output channel and
// records the run in the log. Nothing runs in an untrusted workspace (a plan's tools are
// programs of the workspace), and a second run while one is going asks first.

import * as vscode from "vscode";
import { ExecuteCommandRequest, type LanguageClient } from "vscode-languageclient/node";
import type { ActiveRuns } from "./activeRuns";
import type { RunSession } from "./runSession";
import type { RunLog, RunRecord, StepRef } from "./runLog";
import { ms, type RunOutput } from "./runOutput";
import { displayPath } from "./workspacePaths";
import {
  CancelRunCommand,
  HostProfileRequest,
  RunCommand,
  RunPlanClientCommand,
  TestStepClientCommand,
} from "@rlm-plan/language-server/protocol";
import { testStep, type StepRun } from "./testStepCommand";
import type { ProviderKeys } from "./secrets";
import { revealStep } from "./stepLocation";

const COMMANDS = {
  run: RunPlanClientCommand.command,
  runWithMocks: "rlmPlan.runWithMocks",
  cancel: "rlmPlan.cancel",
  runAgain: "rlmPlan.runAgain",
  createHostProfile: "rlmPlan.createHostProfile",
  showOutput: "rlmPlan.showOutput",
} as const;

export interface RunDependencies {
  readonly client: LanguageClient;
  readonly log: RunLog;
  readonly runs: ActiveRuns;
  readonly output: RunOutput;
  readonly keys: ProviderKeys;
}

export const UNTRUSTED_MESSAGE =
  "RLM Plan runs nothing in an untrusted workspace: a plan's tools are programs from this workspace. " +
  "Trust the workspace to run plans; diagnostics and hovers work without it.";

export function registerRunCommands(deps: RunDependencies): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.run, (target?: unknown) => runPlan(deps, target)),
    vscode.commands.registerCommand(COMMANDS.runWithMocks, async (target?: unknown) => {
      const mocks = await pickMocks();
      return mocks ? runPlan(deps, target, mocks) : undefined;
    }),
    vscode.commands.registerCommand(COMMANDS.cancel, (target?: unknown) => cancelRun(deps, target)),
    vscode.commands.registerCommand(COMMANDS.runAgain, async (target?: unknown) => {
      const record = await pickRun(deps.log, target, "Run which plan again?");
      return record ? runPlan(deps, vscode.Uri.parse(record.plan), record.mocks) : undefined;
    }),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => deps.output.show(false)),
    vscode.commands.registerCommand(TestStepClientCommand.command, (uri?: unknown, step?: unknown) =>
      testStep(deps, uri, step, (target, run) => runPlan(deps, target, undefined, run)),
    ),
  );
}

/**
 * A mocks file for a dry run: one of the workspace's `*.mocks.json` files, or any file chosen
 * in a dialog. Answers with the file's URI (the server reads and checks it).
 */
async function pickMocks(): Promise<string | undefined> {
  const files = await vscode.workspace.findFiles("**/*.mocks.json", "**/node_modules/**", 200);
  const browse = "Choose a file...";
  const items = [
    ...files
      .map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri }))
      .sort((a, b) => a.label.localeCompare(b.label)),
    { label: browse, uri: undefined },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: "Run Plan with Mocks",
    placeHolder: "Tools and providers named in the mocks file answer from it (no program, key or network)",
  });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri.toString();
  const chosen = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { "Mocks files": ["json"] },
    openLabel: "Run with these mocks",
  });
  return chosen?.[0]?.toString();
}

/**
 * Runs a plan: the argument (a URI, a URI string from the code lens) or the active editor's plan;
 * given `step`, only that step with its bindings (Test This Step).
 */
async function runPlan(
  deps: RunDependencies,
  target: unknown,
  mocks?: string,
  step?: StepRun,
): Promise<RunRecord | undefined> {
  const uri = planOf(target);
  if (!uri) {
    void vscode.window.showErrorMessage(
      "Open a plan file (*.rlmplan.json or *.rlmplan) to run it, or choose one in the Explorer.",
    );
    return undefined;
  }
  if (!vscode.workspace.isTrusted) {
    deps.output.refused(uri.toString(), UNTRUSTED_MESSAGE);
    void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE, "Manage Workspace Trust").then((choice) => {
      if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
    });
    return undefined;
  }
  if (!(await confirmSecondRun(deps, uri))) return undefined;

  // The server runs the plan as the editor has it (unsaved changes too): it must be open.
  try {
    await vscode.workspace.openTextDocument(uri);
  } catch (error) {
    void vscode.window.showErrorMessage(`Cannot open the plan ${displayPath(uri.toString())}: ${messageOf(error)}`);
    return undefined;
  }
  const { client, log, runs, output } = deps;
  if (!client.isRunning()) {
    void vscode.window.showErrorMessage(
      "The RLM Plan language server is not running; see the 'RLM Plan Language Server' output, then try again.",
    );
    return undefined;
  }
  const planUri = client.code2ProtocolConverter.asUri(uri);
  const host = await client.sendRequest(HostProfileRequest.type, { uri: planUri }).catch(() => undefined);
  if (host && host.hostProfile === null) {
    const message = `No host profile for ${displayPath(planUri)}: a plan runs with what a host profile (rlmplan.host.json in its folder or a folder above) grants it.`;
    output.refused(planUri, message);
    output.show();
    void vscode.window.showErrorMessage(message, "Create Host Profile").then((choice) => {
      if (choice) void vscode.commands.executeCommand(COMMANDS.createHostProfile, uri);
    });
    return undefined;
  }

  let runId: string;
  let journal: RunCommand.Result["journal"];
  try {
    const env = host?.hostProfile ? await deps.keys.keysFor(planUri) : {};
    const args: RunCommand.Arguments = [
      {
        uri: planUri,
        ...(Object.keys(env).length > 0 ? { env } : {}),
        ...(mocks ? { mocks } : {}),
        ...(step ? { step } : {}),
      },
    ];
    const answer = (await client.sendRequest(ExecuteCommandRequest.type, {
      command: RunCommand.command,
      arguments: args,
    })) as RunCommand.Result;
    runId = answer.runId;
    journal = answer.journal;
  } catch (error) {
    output.refused(planUri, messageOf(error));
    output.show();
    void vscode.window.showErrorMessage(`The plan did not run: ${messageOf(error)}`, "Show Output").then((choice) => {
      if (choice) output.show(false);
    });
    return undefined;
  }

  const record = log.begin(planUri, host?.hostProfile ?? null, runId, mocks);
  if (journal) record.journal = journal;
  output.show();
  const session = runs.start(runId, record);
  await showProgress(deps, session);
  void reportEnd(deps, record);
  return record;
}

export async function showProgress(deps: RunDependencies, session: RunSession): Promise<void> {
  const name = displayPath(session.record.plan);
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `RLM Plan: running ${name}`, cancellable: true },
    async (progress, token) => {
      const report = (step: StepRef): void =>
        progress.report({ message: `${step.operation}${step.bind === null ? "" : ` → ${step.bind}`}` });
      // Steps that started before this notification appeared are already in the session.
      if (session.currentStep) report(session.currentStep);
      session.onStepStarted = report;
      const cancelled = token.onCancellationRequested(() => void cancelSession(deps, session));
      try {
        await session.done;
      } finally {
        cancelled.dispose();
        session.onStepStarted = undefined;
      }
    },
  );
}

export async function reportEnd(deps: RunDependencies, record: RunRecord): Promise<void> {
  const took = record.durationMs === undefined ? "" : ` in ${ms(record.durationMs)}`;
  const name = displayPath(record.plan);
  if (record.status === "succeeded") {
    vscode.window.setStatusBarMessage(`$(pass) RLM Plan: run ${record.number} of ${name} succeeded${took}`, 8000);
    return;
  }
  if (record.status === "cancelled") {
    vscode.window.setStatusBarMessage(`$(circle-slash) RLM Plan: run ${record.number} was cancelled`, 8000);
    return;
  }
  const actions = record.errorAt ? ["Show Output", "Reveal Step"] : ["Show Output"];
  const choice = await vscode.window.showErrorMessage(
    `Run ${record.number} of ${name} failed${took}: ${record.error?.message ?? "no reason given"}`,
    ...actions,
  );
  if (choice === "Show Output") deps.output.show(false);
  if (choice === "Reveal Step") await revealStep(record.plan, record.errorAt);
}

/** Asks before a second run starts while one is going; may cancel the running ones first. */
async function confirmSecondRun(deps: RunDependencies, uri: vscode.Uri): Promise<boolean> {
  const going = deps.runs.running();
  if (going.length === 0) return true;
  const names = going.map((s) => `run ${s.record.number} (${displayPath(s.record.plan)})`).join(", ");
  const both = "Run Both";
  const replace = "Cancel It and Run";
  const choice = await vscode.window.showWarningMessage(
    `A plan is still running: ${names}. Start a run of ${displayPath(uri.toString())} too?`,
    { modal: true, detail: "Runs do not share budgets, but they share the host's tools and inputs." },
    both,
    replace,
  );
  if (choice === both) return true;
  if (choice !== replace) return false;
  await Promise.all(going.map((session) => cancelSession(deps, session)));
  await Promise.race([Promise.all(going.map((s) => s.done)), new Promise((resolve) => setTimeout(resolve, 5000))]);
  return true;
}

/** Cancels the run given (a run item or record), the only one going, or one the user picks. */
async function cancelRun(deps: RunDependencies, target: unknown): Promise<boolean> {
  const going = deps.runs.running();
  const id = recordId(target);
  let session = id ? going.find((s) => s.record.id === id) : undefined;
  if (!session && going.length === 1) session = going[0];
  if (!session && going.length > 1) {
    const picked = await vscode.window.showQuickPick(
      going.map((s) => ({ label: `Run ${s.record.number}`, description: displayPath(s.record.plan), session: s })),
      { placeHolder: "Cancel which run?" },
    );
    session = picked?.session;
  }
  if (!session) {
    if (going.length === 0) void vscode.window.showInformationMessage("No plan is running.");
    return false;
  }
  return cancelSession(deps, session);
}

async function cancelSession(deps: RunDependencies, session: RunSession): Promise<boolean> {
  if (session.isDone) return false;
  deps.output.line(`Cancelling run ${session.record.number}…`);
  try {
    const args: CancelRunCommand.Arguments = [{ runId: session.runId }];
    return (await deps.client.sendRequest(ExecuteCommandRequest.type, {
      command: CancelRunCommand.command,
      arguments: args,
    })) as boolean;
  } catch (error) {
    deps.output.line(`  the server could not cancel it: ${messageOf(error)}`);
    return false;
  }
}

/** A logged run: the one given (an item of the Plan Runs view, a record id) or one the user picks. */
export async function pickRun(log: RunLog, target: unknown, placeHolder: string): Promise<RunRecord | undefined> {
  const id = recordId(target);
  if (id) {
    const record = log.get(id);
    // A run listed from the run journal is read whole first (the graph replays its events).
    return record && (await log.complete(record));
  }
  const runs = log.all();
  if (runs.length === 0) {
    void vscode.window.showInformationMessage("No plan has run yet in this workspace.");
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    runs.map((run) => ({
      label: `Run ${run.number}: ${displayPath(run.plan)}`,
      description: `${run.status} · ${new Date(run.startedAt).toLocaleString()}`,
      run,
    })),
    { placeHolder },
  );
  return picked && (await log.complete(picked.run));
}

/** The id of a run record carried by a view item (`{record}`), a record, or a string. */
function recordId(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (typeof target !== "object" || target === null) return undefined;
  const value = target as { id?: unknown; record?: { id?: unknown } };
  if (typeof value.record?.id === "string") return value.record.id;
  return typeof value.id === "string" && "plan" in value ? value.id : undefined;
}

/** The plan to run: a URI, a URI string (the server's code lens), or the active editor's plan. */
function planOf(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  if (typeof target === "string" && target !== "") return vscode.Uri.parse(target);
  const document = vscode.window.activeTextEditor?.document;
  return document?.languageId === "rlm-plan" ? document.uri : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
