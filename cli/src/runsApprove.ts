// `rlm-plan runs approve RUN` and `runs deny RUN` (docs/approvals.md): a vote on the step a run
// waits at, recorded in the journal's append-only approvals log with who, why and when, bound to
// the hash of the action asked for. Once the votes decide (the quorum approves, or one denies),
// this command resumes the run itself, in this process, as `run --resume RUN` would: the approved
// step runs, or the run fails there; its exit status is then the run's. A worker's job is left to
// the workers, which take it up again from the queue.

import { JournalStore, parseRunId, runIdRefusal } from "@rlm-plan/core/journal";
import { parseStepPath, stepPathText } from "@rlm-plan/core/json";
import { decideVote } from "./approvalDecision";
import { lineText } from "./guardedOutput";
import { readOptions } from "./options";
import { usageErrorText } from "./output";
import type { RunIo } from "./run";
import { journalReadError, openRunsJournal } from "./runsStore";
import { openSink, type OutputSink } from "./sink";

export const VOTE_USAGE = "rlm-plan runs approve|deny RUN [--step PATH] --as NAME --reason TEXT [--journal DIR]";

/** Runs `runs approve` or `runs deny` with the arguments after it; resolves to the exit status. */
export async function runsVoteCommand(
  decision: "approve" | "deny",
  argv: readonly string[],
  unguarded: RunIo,
): Promise<number> {
  const sink = openSink(unguarded, { env: unguarded.env ?? process.env });
  let resume: string[] | undefined;
  try {
    const voted = vote(decision, argv, sink);
    if (typeof voted === "number") return voted;
    resume = voted;
  } finally {
    sink.end();
  }
  // The decision is in: the run goes on here (the journal lets one process resume it, once).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runCommand } = require("./run") as typeof import("./run");
  return runCommand(resume, unguarded);
}

/** Records the vote; the exit status, or `run`'s arguments when the run is decided and goes on. */
function vote(decision: "approve" | "deny", argv: readonly string[], io: OutputSink): number | string[] {
  const usage = (message: string) => {
    io.stderr.write(usageErrorText(message, "runs"));
    return 2;
  };
  const options = readOptions(argv, {
    values: { "--journal": "a DIR", "--step": "a step PATH (steps/2)", "--as": "a NAME", "--reason": "a TEXT" },
    flags: [],
    nonEmpty: ["--journal", "--step", "--as", "--reason"],
  });
  if (typeof options === "string") return usage(options);
  if (options.positionals.length !== 1) return usage(`runs ${decision} needs one RUN number: ${VOTE_USAGE}`);
  const idText = options.positionals[0] as string;
  const id = parseRunId(idText);
  if (id === undefined) {
    io.stderr.write(`rlm-plan: ${runIdRefusal(`runs ${decision}`, idText)}\n`);
    return 2;
  }
  const approver = options.values.get("--as");
  const reason = options.values.get("--reason");
  // Who and why are the audit's: never guessed.
  if (approver === undefined) return usage(`runs ${decision} needs --as NAME: who ${decision}s`);
  if (reason === undefined) return usage(`runs ${decision} needs --reason TEXT: why`);
  const stepText = options.values.get("--step");
  const step = stepText === undefined ? undefined : parseStepPath(stepText);
  if (stepText !== undefined && step === undefined)
    return usage(`--step needs a step PATH as rlm-plan runs show prints it (steps/2)`);
  const opened = openRunsJournal(options.values, io);
  if (typeof opened === "number") return opened;
  if (!(opened instanceof JournalStore)) {
    io.stderr.write(`rlm-plan: there is no run ${id}: no run journal yet\n`);
    return 1;
  }
  const store = opened;
  try {
    const result = decideVote(store, id, {
      ...(step !== undefined ? { step: stepPathText(step) } : {}),
      decision,
      approver,
      reason,
    });
    if (!result.ok) {
      io.stderr.write(`rlm-plan: cannot ${decision}: ${lineText(result.refusal)}\n`);
      return 1;
    }
    for (const line of result.said) io.stderr.write(`rlm-plan: ${lineText(line)}\n`);
    return result.resume ? ["--resume", String(id), "--journal", store.dir] : 0;
  } catch (error) {
    io.stderr.write(journalReadError(store, error));
    return 2;
  } finally {
    store.close();
  }
}
