// The questions of `run --wait`'s prompt (approvalPrompt.ts): the person at the terminal sees the
// action the run waits for (masked arguments, hash, rule, votes so far) and answers approve, deny
// or wait, then why. The vote is cast as `runs approve|deny` casts it (decideVote: the core's
// voteOnRun), so every rule applies and a refusal is said as the core says it, and the question
// comes back. Votes of other processes still count: the poll that runs beside the prompt closes it
// once they decide.

import { createInterface } from "node:readline/promises";
import { approvalRequests, JournalStore, type ApprovalRequestView } from "@rlm-plan/core/journal";
import { lineText } from "./guardedOutput";
import { decideVote } from "./approvalDecision";
import { ENDING_SIGNALS } from "./signals";

/** What the prompt reads from: the process's stdin. */
export interface PromptInput extends NodeJS.ReadableStream {
  readonly isTTY?: boolean;
}

/** A prompt being shown: `close` ends it (the votes decided, or waiting stopped). */
export interface ApprovalPrompt {
  close(): void;
}

interface Asked {
  readonly id: number;
  readonly dir: string;
  /** Who answers: `--as NAME`, else the OS user. */
  readonly voter: string;
  readonly stdin: PromptInput;
  readonly stderr: { write(text: string): unknown };
}

const QUESTION = "Approve, deny, or wait for others? [a/d/w] ";

const ANSWERS: Readonly<Record<string, "approve" | "deny" | "wait">> = {
  a: "approve",
  approve: "approve",
  d: "deny",
  deny: "deny",
  w: "wait",
  wait: "wait",
};

/** Shows the prompt until the voter has voted on every pending request, answers w, or it is closed. */
export function askForVotes(run: Asked): ApprovalPrompt {
  const { stderr } = run;
  // Not readline's terminal mode: the terminal keeps its own line editing and echo, and Ctrl-C
  // stays the signal that stops waiting (signals.ts) instead of a key readline takes.
  const rl = createInterface({
    input: run.stdin,
    output: { write: (text: string) => stderr.write(text) } as never,
    terminal: false,
  });
  const stop = new AbortController();
  const ask = async (question: string): Promise<string | undefined> => {
    try {
      return (await rl.question(question, { signal: stop.signal })).trim();
    } catch {
      return undefined; // the prompt closed, or stdin ended (Ctrl-D): the run just waits
    }
  };
  // A question open when stdin ends would never settle: its end aborts it.
  rl.once("close", () => stop.abort());
  // An aborted question ends its line (readline does): on a signal, before "cancelling..." is said.
  const close = () => {
    for (const [signal] of ENDING_SIGNALS) process.removeListener(signal, close);
    if (stop.signal.aborted) return;
    stop.abort();
    rl.close();
  };
  // Only where the run handles the signal: a listener of ours must not keep the process alive.
  for (const [signal] of ENDING_SIGNALS) if (process.listenerCount(signal) > 0) process.prependListener(signal, close);
  converse(run, ask)
    .catch((error: unknown) =>
      stderr.write(
        `rlm-plan: the prompt stopped (the run still waits): ${lineText(error instanceof Error ? error.message : String(error))}\n`,
      ),
    )
    .finally(close);
  return { close };
}

/** Asks about each pending request the voter has not voted on, until none is left or no answer comes. */
async function converse(run: Asked, ask: (question: string) => Promise<string | undefined>): Promise<void> {
  const say = (line: string) => run.stderr.write(`rlm-plan: ${line}\n`);
  for (;;) {
    const request = withStore(run.dir, (store) =>
      approvalRequests(store, run.id).find(
        (r) => r.state === "pending" && !r.votes.some((v) => v.approver === run.voter),
      ),
    );
    if (!request) return;
    run.stderr.write(describe(run.id, request, run.voter));
    let decision: "approve" | "deny" | "wait" | undefined;
    while (decision === undefined) {
      const answer = await ask(QUESTION);
      if (answer === undefined) return;
      decision = ANSWERS[answer.toLowerCase()];
      if (decision === undefined && answer !== "") say("answer a to approve, d to deny or w to wait for others");
    }
    if (decision === "wait") return;
    let reason = "";
    while (reason === "") {
      const answer = await ask(`Why do you ${decision}? (recorded with your vote) `);
      if (answer === undefined) return;
      reason = answer;
      if (reason === "") say("a reason is required: it is recorded with your vote");
    }
    const vote = { decision, approver: run.voter, reason, step: request.step };
    const result = withStore(run.dir, (store) => decideVote(store, run.id, vote));
    if (result === undefined) say(`cannot ${decision}: the run journal in ${lineText(run.dir)} cannot be opened now`);
    else if (!result.ok) say(`cannot ${decision}: ${lineText(result.refusal)}`);
    else for (const line of result.said) say(lineText(line));
  }
}

/** The pending action as the person at the terminal sees it before they answer. */
function describe(id: number, request: ApprovalRequestView, voter: string): string {
  const approvals = request.votes.filter((v) => v.decision === "approve").length;
  const votes = request.votes.map(
    (v) => `; ${v.decision === "approve" ? "approved" : "denied"} by ${lineText(v.approver)}: ${lineText(v.reason)}`,
  );
  return [
    `rlm-plan: run ${id} asks ${lineText(voter)} about ${lineText(request.call)} at ${lineText(request.step)}`,
    `  arguments  ${lineText(request.arguments)}`,
    `  action     sha256 ${request.hash.slice(0, 12)}`,
    `  rule       ${lineText(String(request.rule))}: ${request.quorum} of ${request.approvers.map(lineText).join(", ")}, until ${new Date(request.deadline).toISOString()}`,
    `  votes      ${approvals} of ${request.quorum} approvals${votes.join("")}`,
    "",
  ].join("\n");
}

/** `use` of the journal in `dir`, opened for it and closed after; undefined when it cannot be opened now. */
function withStore<T>(dir: string, use: (store: JournalStore) => T): T | undefined {
  let store: JournalStore | undefined;
  try {
    store = JournalStore.openExisting(dir);
  } catch {
    return undefined;
  }
  if (!store) return undefined;
  try {
    return use(store);
  } finally {
    store.close();
  }
}
