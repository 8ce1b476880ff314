// `run --wait`'s prompt on a terminal (docs/approvals.md): where a person can answer (stdin and
// stderr are terminals, no --json, not in CI), the person at the terminal is asked to approve,
// deny or wait for others (approvalQuestions.ts) while the journal poll of runWaiting.ts goes on.

import { osUserName } from "@rlm-plan/core/session";
import type { ApprovalPrompt, PromptInput } from "./approvalQuestions";

/** Starts the prompt for run `id` of the journal in `dir`, or undefined where no one can answer it. */
export type Prompter = (id: number, dir: string) => ApprovalPrompt | undefined;

/**
 * The prompter of one `run --wait`: `stdin` is opened only once a run waits (the process's stdin
 * costs start-up time), and the prompt's modules (readline, the journal) loaded only then.
 */
export function approvalPrompter(
  args: { readonly json: boolean; readonly as?: string },
  io: {
    readonly stdin: () => PromptInput | undefined;
    readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
    readonly env: NodeJS.ProcessEnv;
  },
): Prompter {
  return (id, dir) => {
    if (args.json || io.stderr.isTTY !== true || inCi(io.env)) return undefined;
    const stdin = io.stdin();
    if (stdin?.isTTY !== true) return undefined;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { askForVotes } = require("./approvalQuestions") as typeof import("./approvalQuestions");
    return askForVotes({ id, dir, voter: args.as ?? osUserName(), stdin, stderr: io.stderr });
  };
}

/** Whether the CI variable says this is a CI job (any value but empty, "0" or "false"): no one answers there. */
function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = (env["CI"] ?? "").trim().toLowerCase();
  return ci !== "" && ci !== "0" && ci !== "false";
}
