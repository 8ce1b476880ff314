// `rlm-plan propose GOAL --provider NAME [--host FILE] [--run] [--json]`: asks a host's model
// provider for one plan for GOAL, checks it against the host, prints it with its worst case
// beside the budget (or its located problems) and, with --run, runs it. Exit status: 0 ok,
// 1 the proposal failed (provider error, invalid plan, failed run), 2 usage or host errors.

import { join, resolve } from "node:path";
import type { JsonValue } from "@rlm-plan/core/json";
import { HostSetupError, createRunHost, profileHost, type CreatedHost } from "@rlm-plan/core/host/createHost";
import { findHostProfile, HOST_PROFILE_FILENAME, loadHostProfile, type HostProfile } from "@rlm-plan/core/host/profile";
import { resolveBudget, DEFAULT_BUDGET, type Budget } from "@rlm-plan/core/plan/budget";
import { costRows, type CostRow } from "@rlm-plan/core/plan/costRows";
import type { Estimate } from "@rlm-plan/core/plan/estimate";
import { quoted } from "@rlm-plan/core/plan/problems";
import { buildPlanPrompt } from "@rlm-plan/core/providers/planPrompt";
import { promptHost } from "@rlm-plan/core/providers/promptHost";
import { readProposal, type Proposal } from "@rlm-plan/core/providers/proposal";
import { safeErrorText } from "@rlm-plan/core/run/errors";
import { startRun } from "@rlm-plan/core/run/startRun";
import type { RunOutcome, Transition } from "@rlm-plan/core/run/transitions";
import { environmentSecrets, SecretMask } from "@rlm-plan/core/run/secrets";
import { guardedStream, lineText, shownFile } from "./guardedOutput";
import { estimateLines, jsonText, styleFor } from "./output";
import { readOptions, type OptionSpec } from "./options";

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
  // Everything printed is masked and stripped of control characters (guardedOutput.ts).
  const mask = new SecretMask(environmentSecrets(unguarded.env ?? process.env));
  // Nothing propose prints is styled: every escape sequence, a model's colour codes too, goes.
  const stdout = guardedStream({ write: unguarded.stdout }, mask, false);
  const stderr = guardedStream({ write: unguarded.stderr }, mask, false);
  try {
    return await guardedPropose(
      argv,
      { ...unguarded, stdout: (text) => stdout.write(text), stderr: (text) => stderr.write(text) },
      mask,
    );
  } finally {
    stdout.end();
    stderr.end();
  }
}

async function guardedPropose(argv: readonly string[], io: ProposeIo, mask: SecretMask): Promise<number> {
  let args = parseProposeArgs(argv);
  if (args === "help") {
    io.stdout(`${PROPOSE_HELP}\n`);
    return 0;
  }
  if (typeof args === "string") {
    io.stderr(`rlm-plan propose: ${args}\n${PROPOSE_USAGE}\n`);
    return 2;
  }
  const cwd = io.cwd ?? process.cwd();
  const file = args.host !== undefined ? resolve(cwd, args.host) : findHostProfile(join(cwd, HOST_PROFILE_FILENAME));
  if (file === undefined) {
    io.stderr(
      `rlm-plan propose: no host profile: create ${HOST_PROFILE_FILENAME} here or in a folder above, or pass --host FILE\n`,
    );
    return 2;
  }
  // Which profile decided the provider, capabilities and budget: said first, in JSON too.
  args = { ...args, hostProfile: file };
  if (!args.json) io.stderr(`rlm-plan propose: host profile ${file}\n`);
  const loaded = loadHostProfile(file);
  if (!loaded.ok) {
    for (const e of loaded.errors)
      io.stderr(`${shownFile(e.file)}:${e.line}:${e.column}: error: ${lineText(e.message)}\n`);
    return 2;
  }
  const profile = loaded.profile;
  mask.add(environmentSecrets(io.env ?? process.env, profile));
  if (!profile.providers.has(args.provider)) {
    const names = [...profile.providers.keys()];
    const known = names.length > 0 ? `its providers are ${names.join(", ")}` : "it declares no providers";
    io.stderr(
      `rlm-plan propose: the host profile ${profile.file} has no provider ${quoted(args.provider)}: ${known}\n`,
    );
    return 2;
  }
  let created: CreatedHost;
  try {
    // Only the provider that proposes: the plan's own needs are built when it runs.
    const needs = { tools: new Set<string>(), providers: new Set([args.provider]), inputs: new Set<string>() };
    created = await createRunHost(profile, { env: io.env ?? process.env, needs });
  } catch (error) {
    if (error instanceof HostSetupError) {
      for (const e of error.errors)
        io.stderr(`${shownFile(e.file)}:${e.line}:${e.column}: error: ${lineText(e.message)}\n`);
    } else {
      io.stderr(`rlm-plan propose: cannot set up the host: ${safeErrorText(error)}\n`);
    }
    return 2;
  }
  try {
    return await propose(args, profile, created, io);
  } finally {
    await created.close();
  }
}

async function propose(args: ProposeArgs, profile: HostProfile, created: CreatedHost, io: ProposeIo): Promise<number> {
  const signal = io.signal ?? new AbortController().signal;
  const provider = created.host.providers?.get(args.provider);
  if (!provider) {
    io.stderr(`rlm-plan propose: provider ${quoted(args.provider)} is not available\n`);
    return 2;
  }
  const budget = resolveBudget(created.policy.budget);
  const prompt = buildPlanPrompt(args.goal, promptHost(profile, budget.ok ? budget.budget : DEFAULT_BUDGET));
  if (!args.json)
    io.stderr(`rlm-plan propose: asking ${args.provider} (${provider.description ?? "a model provider"})\n`);
  let reply: string;
  try {
    const value = await provider.complete(
      { messages: [{ role: "user", content: prompt }], options: Object.create(null) as Record<string, JsonValue> },
      { signal, provider: args.provider },
    );
    const text = replyText(value);
    if (text === undefined) throw new Error("the provider's answer has no text");
    reply = text;
  } catch (error) {
    const message = `provider ${quoted(args.provider)} failed: ${safeErrorText(error)}`;
    if (args.json)
      io.stdout(jsonText({ ok: false, provider: args.provider, error: message, host_profile: args.hostProfile }));
    else io.stderr(`rlm-plan propose: ${lineText(message)}\n`);
    return 1;
  }

  const proposal = readProposal(reply, created.policy);
  const report = new Report(args, reply, proposal, io);
  if (!proposal.ok || !args.run) return report.finish(undefined);
  // The one run pipeline, from the proposed plan's text, against the same host profile.
  const { outcome } = await startRun({
    source: { kind: "document", text: proposal.planText },
    policy: created.policy,
    host: profileHost(profile, { env: io.env ?? process.env }),
    signal,
    onTransition: (transition) => report.transition(transition),
  }).done;
  return report.finish(outcome);
}

/** Prints as things happen in text mode; gathers one object for --json. */
class Report {
  private readonly style = styleFor({ isTTY: false }, {});
  private readonly transitions: Transition[] = [];

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

  transition(transition: Transition): void {
    this.transitions.push(transition);
    if (this.args.json) return;
    const bind = transition.bind === null ? "" : ` -> ${transition.bind}`;
    this.io.stdout(`  ${transition.sequence} ${transition.operation}${bind} (${transition.duration_ms} ms)\n`);
  }

  finish(outcome: RunOutcome | undefined): number {
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
          ...(outcome ? { run: runJson(outcome) } : {}),
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

/** The reply's text: an openai-chat value's `text`, or a provider that answers with a string. */
function replyText(value: JsonValue): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const text = Object.prototype.hasOwnProperty.call(value, "text") ? value.text : undefined;
    return typeof text === "string" ? text : undefined;
  }
  return undefined;
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
