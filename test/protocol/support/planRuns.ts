// Runs a plan through the server's run command and waits for its `rlmPlan/runFinished`: the
// notifications a test records (`seen`, as JSON text) are where the outcome is looked for.

import { ExecuteCommandRequest } from "vscode-languageserver-protocol";
import type { LspClient } from "@rlm-plan/lsp-harness";

export const RUN_NOTIFICATIONS = ["rlmPlan/runEvent", "rlmPlan/runFinished"];

/** A transition's keys, sorted: what a transition is defined to carry (no content of any kind). */
export const TRANSITION_KEYS = ["bind", "duration_ms", "elapsed_ms", "operation", "remaining", "sequence", "status"];

/** Records every run notification's params as JSON text in `seen`. */
export function recordRunNotifications(client: LspClient, seen: string[], methods = RUN_NOTIFICATIONS): void {
  for (const method of methods)
    client.connection.onNotification(method, (params: unknown) => void seen.push(JSON.stringify(params)));
}

/** Opens `file` with `plan`, runs it with `args` added to `{uri}`, and resolves to its result. */
export async function runToEnd(
  client: LspClient,
  seen: readonly string[],
  file: string,
  plan: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const uri = await client.open(file, plan);
  const { runId } = (await client.connection.sendRequest(ExecuteCommandRequest.type, {
    command: "rlmPlan.server.run",
    arguments: [{ uri, ...args }],
  })) as { runId: string };
  for (let i = 0; i < 400; i++) {
    const end = seen
      .map((s) => JSON.parse(s) as Record<string, unknown>)
      .find((p) => p.runId === runId && "result" in p);
    if (end) return end.result as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} did not finish`);
}
