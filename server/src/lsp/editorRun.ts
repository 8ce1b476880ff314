// Running a plan in any LSP editor, with standard messages only (RunInEditorCommand): work-done
// progress that names the running step and can be cancelled, each transition and each failed
// retry attempt (with its masked reason) as a log message, and the outcome as a message the
// editor shows. The run itself is the server's one runner.

import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import {
  MessageType,
  ResponseError,
  ShowMessageNotification,
  type CancellationToken,
  type WorkDoneProgressServerReporter,
} from "vscode-languageserver";
import type { Feature } from "./feature";
import { RunInEditorCommand, type RunFinishedParams, type RunResult } from "../protocol";
import { createPlanRunner } from "./runPlan";

/** A value shown in a message: JSON, cut to a length an editor's message area holds. */
const MAX_VALUE_CHARS = 400;

export const editorRuns: Feature = (ctx) => {
  const { connection } = ctx;
  const pending = new Map<string, { progress: WorkDoneProgressServerReporter; done: (r: RunFinishedParams) => void }>();
  const runner = createPlanRunner({
    plan: (uri) => ctx.workspace.plan(uri),
    hostProfileFileFor: (uri) => ctx.workspace.hostProfileFileFor(uri),
    hostProfile: (file) => ctx.workspace.hosts.resultOf(file),
    sessionStarted: (session) => ctx.secretsLearned(session.secretValues()),
    event: ({ runId, uri, event }) => {
      const run = pending.get(runId);
      if (!run) return;
      const bind = event.bind !== null ? ` → ${event.bind}` : "";
      if (event.type === "step_started") run.progress.report(`${event.operation}${bind}`);
      const log = (message: string) =>
        void connection.sendNotification("window/logMessage", { type: MessageType.Log, message });
      if (event.type === "transition") {
        const t = event.transition;
        log(`[rlm-plan] ${name(uri)} #${t.sequence} ${t.operation}${bind} ${t.status} ${t.duration_ms} ms`);
      }
      if (event.type === "attempt_failed") {
        const { error } = event;
        const next = event.retrying ? "retrying" : "no attempts left";
        log(
          `[rlm-plan] ${name(uri)} retry attempt ${event.attempt}/${event.attempts} failed [${error.phase}/${error.kind}]: ${error.message}; ${next}`,
        );
      }
    },
    finished: (params) => {
      const run = pending.get(params.runId);
      if (!run) return;
      pending.delete(params.runId);
      run.progress.done();
      run.done(params);
    },
  });

  // window/showMessage, a notification: connection.window.show*Message would send the request
  // form (window/showMessageRequest), which waits for the user and some editors show as a prompt.
  const show = (type: MessageType, message: string) =>
    void connection.sendNotification(ShowMessageNotification.type, { type, message });

  ctx.command(RunInEditorCommand.command, async (args, token: CancellationToken) => {
    const uri = typeof args[0] === "string" ? args[0] : (args[0] as { uri?: unknown } | undefined)?.uri;
    const progress = await connection.window.createWorkDoneProgress();
    progress.begin(`RLM Plan: ${typeof uri === "string" ? name(uri) : "plan"}`, undefined, "starting", true);
    const started = runner.run(typeof uri === "string" ? [{ uri }] : []);
    if (started instanceof ResponseError) {
      progress.done();
      show(MessageType.Error, `RLM Plan: ${started.message}`);
      return started;
    }
    const finished = await new Promise<RunFinishedParams>((done) => {
      pending.set(started.runId, { progress, done });
      const cancel = () => runner.cancel([{ runId: started.runId }]);
      progress.token.onCancellationRequested(cancel);
      token.onCancellationRequested(cancel);
    });
    show(finished.result.ok ? MessageType.Info : MessageType.Error, outcomeMessage(finished));
    return finished.result satisfies RunResult;
  });
};

function name(uri: string): string {
  try {
    return basename(fileURLToPath(uri));
  } catch {
    return uri;
  }
}

/** "RLM Plan: plan.rlmplan.json returned 12 (1.2 s, 3 steps)" or its error, kind first. */
function outcomeMessage({ uri, result, elapsedMs, transitionCount }: RunFinishedParams): string {
  const took = `${(elapsedMs / 1000).toFixed(1)} s, ${transitionCount} step${transitionCount === 1 ? "" : "s"}`;
  if (result.ok) {
    const text = JSON.stringify(result.value) ?? "null";
    const value = text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
    return `RLM Plan: ${name(uri)} returned ${value} (${took})`;
  }
  return `RLM Plan: ${name(uri)} failed: [${result.error.kind}] ${result.error.message} (${took})`;
}
