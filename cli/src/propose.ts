// `rlm-plan propose GOAL --provider NAME [--host FILE] [--run] [--json]`: asks a host's model
// provider for one plan for GOAL, checks it against the host, prints it with its worst case
// beside the budget (or its located problems) and, with --run, runs it. Exit status: 0 ok,
// 1 the proposal failed (provider error, invalid plan, failed run), 2 usage or host errors.

import { type Budget, type CostRow, costRows, type Estimate, quoted } from "@rlm-plan/core/plan";
import type { Proposal } from "@rlm-plan/core/session";
import type { AttemptFailedEvent, RunOutcome } from "@rlm-plan/core/run";
import { HOST_PROFILE_FILENAME, openPlanSession, type PlanSession } from "@rlm-plan/core/session";
import { lineText, shownFile } from "./guardedOutput";
import { openSink } from "./sink";
import type { SecretMask } from "@rlm-plan/core/secrets";
import { displayPath, estimateLines, jsonText, styleFor, usageErrorText } from "./output";
import { readOptions, type OptionSpec } from "./options";
import { failedAttemptsField, runEventPrinter } from "./runEventPrinter";

export interface ProposeIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Where provider keys are read from; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the host profile is looked for without --host; default process.cwd(). */
  readonly cwd?: string;
  /** Cancels the provider call and the run (Ctrl-C). */
  readonly signal?: AbortSignal;
}

export const PROPOSE_USAGE = "usage: rlm-plan propose GOAL --provider NAME [--host FILE] [--run] [--json]";

export const PROPOSE_HELP = `rlm-plan propose: ask a model provider of the host for a plan for GOAL

${PROPOSE_USAGE}

options:
  --provider NAME   the host profile's provider to ask (also one the plan may call, if granted)
  --host FILE       the host profile (default: ${HOST_PROFILE_FILENAME} in this folder or above)
  --run             run the plan when it is valid, printing each step as it completes
  --json            one JSON object on stdout: the reply, plan, problems, estimate and run

exit status: 0 ok, 1 the provider failed or the plan is invalid or its run failed, 2 usage or host error`;

interface ProposeArgs {
  readonly goal: string;
  /** The host profile in force (set once it is found). */
  readonly hostProfile?: string;
  readonly provider: string;
  readonly host: string | undefined;
  readonly run: boolean;
  readonly json: boolean;
}

export async function proposeCommand(argv: readonly string[], unguarded: ProposeIo): Promise<number> {
  // Everything printed goes through the output sink (sink.ts). Nothing propose prints is
  // styled: every escape sequence, a model's colour codes too, goes.
  const sink = openSink(
    { stdout: { write: unguarded.stdout }, stderr: { write: unguarded.stderr } },
    { env: unguarded.env ?? process.env, styles: { stdout: false, stderr: false } },
  );
  try {
    return await guardedPropose(
      argv,
      { ...unguarded, stdout: (text) => sink.stdout.write(text), stderr: (text) => sink.stderr.write(text) },
      sink.mask,
    );
  } finally {
    sink.end();
  }
}

async function guardedPropose(argv: readonly string[], io: ProposeIo, mask: SecretMask): Promise<number> {
  let args = parseProposeArgs(argv);
  if (args === "help") {
    io.stdout(`${PROPOSE_HELP}\n`);
    return 0;
  }
  if (typeof args === "string") {
    io.stderr(usageErrorText(args, "propose"));
    return 2;
  }
  const cwd = io.cwd ?? process.cwd();
  // The plan session without a plan yet: the host profile (--host, or found from cwd), the mask.
  const opened = await openPlanSession({
    cwd,
    ...(args.host !== undefined ? { hostProfile: args.host } : {}),
    env: io.env ?? process.env,
    mask,
  });
  if (!opened.ok) {
    const { failure } = opened;
    if (failure.kind === "no_host_profile") {
      io.stderr(
        `rlm-plan propose: no host profile: create ${HOST_PROFILE_FILENAME} here or in a folder above, or pass --host FILE\n`,
      );
      return 2;
    }
    if (opened.hostProfile !== undefined && !args.json)
      io.stderr(`rlm-plan propose: host profile ${displayPath(opened.hostProfile, cwd)}\n`);
    const errors = failure.kind === "plan_unreadable" ? [] : failure.errors;
    for (const e of errors) io.stderr(`${shownFile(e.file)}:${e.line}:${e.column}: error: ${lineText(e.message)}\n`);
    return 2;
  }
  const session = opened.session;
  // Which profile decided the provider, capabilities and budget: said first, in JSON too.
  // Named as `run` names it: relative to the working folder when under it.
  args = {
    ...args,
    hostProfile: session.hostProfile === undefined ? undefined : displayPath(session.hostProfile, cwd),
  };
  if (!args.json) io.stderr(`rlm-plan propose: host profile ${args.hostProfile}\n`);
  const profile = session.profile;
  if (!profile?.providers.has(args.provider)) {
    const names = [...(profile?.providers.keys() ?? [])];
    const known = names.length > 0 ? `its providers are ${names.join(", ")}` : "it declares no providers";
    io.stderr(
      `rlm-plan propose: the host profile ${args.hostProfile} has no provider ${quoted(args.provider)}: ${known}\n`,
    );
    return 2;
  }
  return propose(args, session, io);
}

async function propose(args: ProposeArgs, session: PlanSession, io: ProposeIo): Promise<number> {
  const signal = io.signal ?? new AbortController().signal;
  if (!args.json)
    io.stderr(
      `rlm-plan propose: asking ${args.provider} (${session.providerDescription(args.provider) ?? "a model provider"})\n`,
    );
  const asked = await session.propose(args.goal, args.provider, signal);
  if (!asked.ok) {
    if (args.json)
      io.stdout(jsonText({ ok: false, provider: args.provider, error: asked.error, host_profile: args.hostProfile }));
    else io.stderr(`rlm-plan propose: ${lineText(asked.error)}\n`);
    return 1;
  }
  const { proposal, reply } = asked;
  const report = new Report(args, reply, proposal, io);
  if (!proposal.ok || !args.run) return report.finish(undefined);
  // The one run pipeline, from the proposed plan's text, in a session under the same host profile.
  // Recorded and traced by the session as every run is (the profile's journal and telemetry.otlp).
  const proposed = session.withText(proposal.planText);
  // Its steps print as `run` prints them (in the report, on stdout); --json gathers the failed attempts.
  const printer = runEventPrinter(
    { file: "proposed plan", text: proposal.planText },
    {
      json: args.json,
      mocked: false,
      style: report.style,
      textOut: (line) => io.stdout(line),
    },
  );
  const run = proposed.run({
    life: {
      origin: "cli",
      given: { proposed: { provider: args.provider } },
      onNotice: (message) => io.stderr(`rlm-plan propose: ${message}\n`),
    },
    signal,
    observers: [printer.observer],
  });
  const { outcome } = await run.done;
  try {
    return report.finish(outcome, printer.failedAttempts);
  } finally {
    await run.settled(signal);
  }
}

/** Prints as things happen in text mode; gathers one object for --json. */
class Report {
  readonly style = styleFor({ isTTY: false }, {});

  constructor(
    private readonly args: ProposeArgs,
    private readonly reply: string,
    private readonly proposal: Proposal,
    private readonly io: ProposeIo,
  ) {
    if (args.json) return;
    const out = io.stdout;
    if (proposal.planText === undefined) {
      out(`model reply:\n${reply.endsWith("\n") ? reply : `${reply}\n`}`);
    } else {
      out(`proposed plan:\n${proposal.planText}`);
    }
    if (!proposal.ok) {
      const where = proposal.where === "reply" ? "model reply" : "proposed plan";
      for (const p of proposal.problems) {
        if (p.kind === "budget_exceeded") continue;
        out(`${where}:${p.line}:${p.column}: error: ${lineText(p.message)} [${p.code}]\n`);
      }
    }
    const table = this.table();
    if (table) out(`${estimateLines("proposed plan", table.rows, this.style).join("\n")}\n`);
    if (proposal.ok && args.run) out("run:\n");
  }

  finish(outcome: RunOutcome | undefined, failedAttempts: readonly AttemptFailedEvent[] = []): number {
    const proposal = this.proposal;
    const code = !proposal.ok || (outcome !== undefined && !outcome.ok) ? 1 : 0;
    if (this.args.json) {
      const table = this.table();
      this.io.stdout(
        jsonText({
          ok: code === 0,
          provider: this.args.provider,
          reply: this.reply,
          plan: proposal.planText === undefined ? null : (JSON.parse(proposal.planText) as unknown),
          problems: proposal.ok ? [] : proposal.problems,
          estimate: table?.estimate ?? null,
          budget: table?.budget ?? null,
          exceeded: table ? table.rows.filter((row) => row.over).map((row) => row.label) : [],
          ...(outcome ? { run: { ...runJson(outcome), ...failedAttemptsField(failedAttempts) } } : {}),
          host_profile: this.args.hostProfile,
        }),
      );
      return code;
    }
    if (!outcome) return code;
    if (outcome.ok) this.io.stdout(`result:\n${JSON.stringify(outcome.value, null, 2)}\n`);
    else
      this.io.stdout(`run failed: ${lineText(outcome.error.message)} [${outcome.error.phase}/${outcome.error.kind}]\n`);
    return code;
  }

  /** The estimate table, when the plan got far enough to have one. */
  private table(): { estimate: Estimate; budget: Budget; rows: CostRow[] } | undefined {
    const proposal = this.proposal;
    const estimate = proposal.ok ? proposal.validated.estimate : proposal.estimate;
    const budget = proposal.ok ? proposal.validated.budget : proposal.budget;
    if (!estimate || !budget) return undefined;
    return { estimate, budget, rows: costRows(estimate, budget) };
  }
}

function runJson(outcome: RunOutcome): Record<string, unknown> {
  const base = { ok: outcome.ok, transitions: outcome.transitions, budget_remaining: outcome.budget_remaining };
  return outcome.ok ? { ...base, value: outcome.value } : { ...base, error: outcome.error };
}

/** The command's arguments, "help", or a usage message. */
const PROPOSE_OPTIONS: OptionSpec = {
  values: { "--provider": "a value", "--host": "a value" },
  flags: ["--run", "--json", "--help", "-h"],
  nonEmpty: ["--provider", "--host"],
};

function parseProposeArgs(argv: readonly string[]): ProposeArgs | "help" | string {
  const options = readOptions(argv, PROPOSE_OPTIONS);
  if (typeof options === "string") return options;
  const { values, flags } = options;
  const goal = options.positionals;
  if (flags.has("--help") || flags.has("-h")) return "help";
  const text = goal.join(" ").trim();
  if (text === "") return "propose needs a GOAL";
  const provider = values.get("--provider");
  if (provider === undefined) return "propose needs --provider NAME";
  return { goal: text, provider, host: values.get("--host"), run: flags.has("--run"), json: flags.has("--json") };
}
