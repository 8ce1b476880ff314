// `rlm-plan runs`: the run journal from the terminal. `list` (newest first; filters by plan,
// status and start; --json), `show RUN` (transitions, value or error, estimate against spent),
// `export RUN` (the whole entry as JSON: texts, events, calls) and `prune`. The journal is the
// workspace's (.rlm-plan/ in this folder or above, or beside the host profile) or --journal DIR.

import {
  approvalLog,
  JournalStore,
  listRuns,
  parseRunId,
  pruneRuns,
  costRangeOf,
  RUN_ORIGINS,
  runIdRefusal,
  runDetail,
  type RunDetail,
  type RunFilter,
  type RunFork,
  type RunOrigin,
  type ShownStatus,
} from "@rlm-plan/core/journal";
import type { RunEvent } from "@rlm-plan/core/run";
import { shownPath } from "@rlm-plan/core/text";
import { lineText, shownFile } from "./guardedOutput";
import { openSink, type OutputSink } from "./sink";
import { RUNS_HELP } from "./runsHelp";
import { displayPath, styleFor, usageErrorText } from "./output";
import { RunEventLines } from "./runEventPrinter";
import { readOptions } from "./options";
import { runsDiffCommand } from "./runsDiff";
import { journalReadError, openRunsJournal } from "./runsStore";
import { runCostText, tokensText } from "./costText";
import { DEFAULT_CURRENCY, moneyText } from "@rlm-plan/core/plan";
import { approvalLines } from "./runsApprovals";

interface RunsIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
}

const STATUSES: readonly ShownStatus[] = ["running", "interrupted", "waiting", "ok", "failed", "cancelled"];

/** Runs `rlm-plan runs` with the arguments after "runs". Never throws. */
export function runsCommand(argv: readonly string[], unguarded: RunsIo): number | Promise<number> {
  const [sub, ...rest] = argv;
  // A vote may resume the run: its modules (the run's) only then.
  if (sub === "approve" || sub === "deny")
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require("./runsApprove") as typeof import("./runsApprove")).runsVoteCommand(sub, rest, unguarded);
  const sink = openSink(unguarded, { env: unguarded.env ?? process.env });
  try {
    return runsWith(argv, sink);
  } finally {
    sink.end();
  }
}

function runsWith(argv: readonly string[], io: OutputSink): number {
  const [sub, ...rest] = argv;
  const usage = (message: string) => {
    io.stderr.write(usageErrorText(message, "runs"));
    return 2;
  };
  if (sub === undefined) return usage("runs needs list, show, diff, export, prune, approve or deny");
  if (sub === "diff") return runsDiffCommand(rest, io, RUNS_HELP);
  if (sub === "--help" || sub === "-h" || sub === "help") {
    io.stdout.write(`${RUNS_HELP}\n`);
    return 0;
  }
  const options = readOptions(rest, {
    values: {
      "--journal": "a DIR",
      "--plan": "a PLAN file",
      "--status": STATUSES.join(", "),
      "--origin": RUN_ORIGINS.join(", "),
      "--case": "a TEXT",
      "--since": "a date or an age (7d)",
      "--limit": "a number",
      "--min-cost": "an amount (0.25)",
      "--max-cost": "an amount (0.25)",
      "--keep": "a number",
      "--older-than": "an age (30d)",
    },
    flags: ["--json", "--unknown-cost", "--help", "-h"],
    nonEmpty: ["--journal", "--plan", "--case"],
  });
  if (typeof options === "string") return usage(options);
  if (options.flags.has("--help") || options.flags.has("-h")) {
    io.stdout.write(`${RUNS_HELP}\n`);
    return 0;
  }
  const allowed: Record<string, readonly string[]> = {
    list: [
      "--journal",
      "--plan",
      "--status",
      "--origin",
      "--case",
      "--since",
      "--min-cost",
      "--max-cost",
      "--unknown-cost",
      "--limit",
      "--json",
    ],
    show: ["--journal", "--json"],
    export: ["--journal"],
    prune: ["--journal", "--keep", "--older-than"],
  };
  const own = allowed[sub];
  if (!own) return usage(`unknown runs command ${JSON.stringify(sub)}`);
  const given = [...options.values.keys(), ...options.flags];
  const stray = given.find((o) => !own.includes(o));
  if (stray) return usage(`runs ${sub} takes no ${stray}`);
  const wantsRun = sub === "show" || sub === "export";
  if (wantsRun && options.positionals.length !== 1) return usage(`runs ${sub} needs one RUN number`);
  if (!wantsRun && options.positionals.length > 0) return usage(`runs ${sub} takes no ${options.positionals[0]}`);
  const idText = options.positionals[0] ?? "";
  const id = wantsRun ? parseRunId(idText) : 0;
  if (id === undefined) {
    io.stderr.write(`rlm-plan: ${runIdRefusal(`runs ${sub}`, idText)}\n`);
    return 2;
  }

  const filter = sub === "list" ? listFilter(options.values, options.flags.has("--unknown-cost")) : {};
  if (typeof filter === "string") {
    io.stderr.write(`rlm-plan: ${filter}\n`);
    return 2;
  }
  const opened = openRunsJournal(options.values, io);
  if (typeof opened === "number") return opened;
  if (!(opened instanceof JournalStore)) {
    if (sub === "list") {
      if (options.flags.has("--json")) io.stdout.write("[]\n");
      else io.stderr.write(`rlm-plan: no runs recorded in ${shownFile(shownPath(opened.absent))} yet\n`);
      return 0;
    }
    io.stderr.write(`rlm-plan: no run journal in ${shownFile(shownPath(opened.absent))}\n`);
    return 1;
  }
  const store = opened;
  try {
    switch (sub) {
      case "list":
        return list(store, filter, options.flags.has("--json"), io);
      case "show":
      case "export": {
        const run = runDetail(store, id);
        if (!run) {
          io.stderr.write(`rlm-plan: there is no run ${id} in ${shownFile(shownPath(store.file))}\n`);
          return 1;
        }
        const approvals = approvalLog(store, id);
        // The approvals log beside the run, only where there is one (docs/approvals.md).
        const shown = approvals.length > 0 ? { ...run, approvals } : run;
        if (sub === "export" || options.flags.has("--json")) io.stdout.json(`${JSON.stringify(shown, null, 2)}\n`);
        else io.stdout.write(showText(run, approvalLines(approvals)));
        return 0;
      }
      default:
        return prune(store, options.values, io);
    }
  } catch (error) {
    io.stderr.write(journalReadError(store, error));
    return 2;
  } finally {
    store.close();
  }
}

/** list's filter from its options, or a message. */
function listFilter(values: ReadonlyMap<string, string>, unknownCost: boolean): RunFilter | string {
  const status = values.get("--status");
  if (status !== undefined && !STATUSES.includes(status as ShownStatus))
    return `--status needs one of ${STATUSES.join(", ")}`;
  const sinceText = values.get("--since");
  const since = sinceText === undefined ? undefined : timeOf(sinceText);
  if (since === null) return `--since needs a date (2026-12-01, an ISO time) or an age (30m, 2h, 7d), not ${sinceText}`;
  const limitText = values.get("--limit");
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0)) return "--limit needs a positive number";
  const origin = values.get("--origin");
  if (origin !== undefined && !RUN_ORIGINS.includes(origin as RunOrigin))
    return `--origin needs one of ${RUN_ORIGINS.join(", ")}`;
  const label = values.get("--case");
  const plan = values.get("--plan");
  // The run browser's cost filter, by the one rule (journal/runCost.ts).
  const cost = costRangeOf(
    {
      ...(values.has("--min-cost") ? { min: values.get("--min-cost") as string } : {}),
      ...(values.has("--max-cost") ? { max: values.get("--max-cost") as string } : {}),
      keepUnknown: unknownCost,
    },
    { min: "--min-cost", max: "--max-cost" },
  );
  if (typeof cost === "string") return cost;
  if (unknownCost && cost === undefined)
    return "--unknown-cost keeps runs of unknown cost beside --min-cost or --max-cost";
  return {
    ...(plan !== undefined ? { plan } : {}),
    // A case's label is a test run's: --case alone means the runs of rlm-plan test.
    ...(origin !== undefined ? { origin } : label !== undefined ? { origin: "test" } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(status !== undefined ? { status: status as ShownStatus } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(cost !== undefined ? { cost } : {}),
  };
}

function list(store: JournalStore, filter: RunFilter, json: boolean, io: OutputSink): number {
  const runs = listRuns(store, filter);
  if (json) {
    io.stdout.json(`${JSON.stringify(runs)}\n`);
    return 0;
  }
  if (runs.length === 0) {
    io.stderr.write("rlm-plan: no runs match\n");
    return 0;
  }
  // A plan's file name and a case's label are the user's: escaped into their cells.
  const rows = runs.map((r) => [
    String(r.id),
    r.status + (r.segments > 1 ? ` (resumed ${r.segments - 1}x)` : ""),
    r.startedAt.replace("T", " ").replace(/\.\d+Z$/, "Z"),
    r.elapsedMs === null ? "" : `${r.elapsedMs} ms`,
    r.usage ? tokensText(r.usage) : "",
    r.usage ? runCostText(r.usage) : "",
    lineText(r.plan) + (r.mocked ? " (mocked)" : ""),
    lineText(r.errorKind ?? ""),
    r.origin + (r.label !== null ? ` ${lineText(r.label)}` : "") + (r.forkOf ? `, ${forkText(r.forkOf)}` : ""),
  ]);
  const header = ["RUN", "STATUS", "STARTED", "TIME", "TOKENS", "COST", "PLAN", "ERROR", "FROM"];
  // Tokens and cost are columns once a listed run called a model: a journal of tool runs lists as before.
  if (!runs.some((r) => r.usage)) {
    header.splice(4, 2);
    for (const row of rows) row.splice(4, 2);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]) =>
    `${cells
      .map((c, i) => (i === 0 || i === 3 ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd()}\n`;
  // One write: ten thousand rows are one string, not ten thousand writes.
  io.stdout.write([line(header), ...rows.map(line)].join(""));
  return 0;
}

function prune(store: JournalStore, values: ReadonlyMap<string, string>, io: RunsIo): number {
  const keepText = values.get("--keep");
  const keep = keepText === undefined ? undefined : Number(keepText);
  if (keep !== undefined && !(Number.isSafeInteger(keep) && keep >= 0)) {
    io.stderr.write("rlm-plan: --keep needs a number of runs\n");
    return 2;
  }
  const ageText = values.get("--older-than") ?? (keep === undefined ? "30d" : undefined);
  const age = ageText === undefined ? undefined : ageMs(ageText);
  if (age === null) {
    io.stderr.write(`rlm-plan: --older-than needs an age (30m, 2h, 7d), not ${ageText}\n`);
    return 2;
  }
  const removed = pruneRuns(store, {
    ...(keep !== undefined ? { keep } : {}),
    ...(age !== undefined ? { before: Date.now() - age } : {}),
  });
  io.stderr.write(
    removed.length === 0
      ? "rlm-plan: no run to prune\n"
      : `rlm-plan: pruned ${removed.length} run${removed.length === 1 ? "" : "s"}\n`,
  );
  return 0;
}

/** `show`'s text: what the run was, how it went, what it cost against its estimate. */
export function showText(run: RunDetail, approvals: readonly string[] = []): string {
  const out: string[] = [];
  const d = run.details as Record<string, unknown>;
  out.push(
    `run ${run.id}  ${run.status}${run.mocked ? " (mocked)" : ""}  from ${run.origin}${run.label !== null ? ` ${lineText(run.label)}` : ""}`,
  );
  out.push(`plan          ${shownFile(run.planFile ?? run.plan)}  (sha256 ${run.planDigest.slice(0, 12)})`);
  if (run.hostFile)
    out.push(`host profile  ${shownFile(run.hostFile)}  (sha256 ${(run.hostDigest ?? "").slice(0, 12)})`);
  out.push(`started       ${run.startedAt}${run.elapsedMs !== null ? `, ran ${run.elapsedMs} ms` : ""}`);
  if (run.segments > 1) out.push(`resumed       ${run.segments - 1} time${run.segments > 2 ? "s" : ""}`);
  // The run's place in its tree: the run it forked from, and the runs forked from it.
  if (run.forkOf) out.push(`parent        ${forkText(run.forkOf)}`);
  if (run.forks.length > 0)
    out.push(`forks         ${run.forks.map((fork) => `run ${fork.id} at ${lineText(fork.step)}`).join(", ")}`);
  const last = run.events.reduce((max, e) => Math.max(max, e.segment), 1);
  // The last segment's steps as `run` printed them (failed retry attempts included), by the one printer.
  const file = displayPath(run.planFile ?? run.plan);
  // With each step's path: what `run --from RUN --step PATH` takes.
  const lines = new RunEventLines({ file, text: run.planText ?? "" }, styleFor({ isTTY: false }, {}), {
    paths: true,
  });
  out.push("", "transitions:");
  const shown = run.events.flatMap((e) => {
    if (e.segment !== last) return [];
    const line = lines.line(e.event as unknown as RunEvent);
    return line === undefined ? [] : [`${line}${e.replayed ? "  (replayed)" : ""}`];
  });
  out.push(...(shown.length > 0 ? shown : ["  (none)"]));
  out.push("");
  if ("value" in d) out.push(`value: ${JSON.stringify(d["value"], null, 2)}`);
  if ("error" in d) {
    const e = d["error"] as Record<string, unknown>;
    out.push(`error: ${lineText(String(e["message"] ?? ""))} [${String(e["phase"] ?? "")}/${String(e["kind"] ?? "")}]`);
  }
  const estimate = (d["estimate"] ?? {}) as Record<string, unknown>;
  const spent = (d["spent"] ?? {}) as Record<string, unknown>;
  const budget = (d["budget"] ?? {}) as Record<string, unknown>;
  out.push("", "              spent  estimate (worst case)  budget");
  for (const [label, counter] of [
    ["steps", "steps"],
    ["model calls", "model_calls"],
    ["tool calls", "tool_calls"],
    ["context ops", "context_ops"],
  ] as const) {
    const cell = (v: unknown) => (v === undefined || v === null ? "-" : String(v));
    out.push(
      `  ${label.padEnd(11)} ${cell(spent[counter]).padStart(5)}  ${cell(estimate[counter]).padStart(21)}  ${cell(budget[`max_${counter}`]).padStart(6)}`,
    );
  }
  out.push(
    `  output bytes ${String(spent["output_bytes"] ?? "-").padStart(4)}  ${"".padStart(21)}  ${String(budget["max_output_bytes"] ?? "-").padStart(6)}`,
  );
  out.push(...approvals);
  const model = run.calls.filter((c) => c.kind === "model").length;
  const tool = run.calls.filter((c) => c.kind === "tool").length;
  out.push("", `calls: ${model} model, ${tool} tool (rlm-plan runs export ${run.id} has them, masked)`);
  out.push(...usageLines(run));
  return `${out.join("\n")}\n`;
}

/**
 * Each model call's tokens (input+output) and cost, then the run's: "~" marks counts that are the
 * call's bounds because its provider reported no usage.
 */
function usageLines(run: RunDetail): string[] {
  const usage = run.usage;
  if (!usage) return [];
  const currency = usage.currency ?? DEFAULT_CURRENCY;
  const lines = run.calls.flatMap((call) => {
    if (!call.usage) return [];
    const cost = call.usage.cost === null ? "unpriced" : moneyText(call.usage.cost, currency);
    const path = Array.isArray(call.path) ? call.path.join("/") : "";
    return [`  ${lineText(path)}  ${lineText(call.name)}  tokens ${tokensText(call.usage)}  ${cost}`];
  });
  const marked = usage.estimated ? "  (~ estimated: a provider reported no usage)" : "";
  return [
    "",
    "model calls (tokens in+out, cost):",
    ...lines,
    `  total  tokens ${tokensText(usage)}  ${runCostText(usage)}${marked}`,
  ];
}

/** "fork of 9 at steps/2": a step path is the plan's, escaped into its line. */
function forkText(fork: RunFork): string {
  return `fork of ${fork.run} at ${lineText(fork.step)}`;
}

/** A date, an ISO time, or an age back from now (30m, 2h, 7d); null when it is none of these. */
export function timeOf(text: string): number | null {
  const age = ageMs(text);
  if (age !== null) return Date.now() - age;
  const when = Date.parse(text);
  return Number.isNaN(when) ? null : when;
}

function ageMs(text: string): number | null {
  const m = /^(\d+)\s*(s|m|h|d|w)$/.exec(text.trim());
  if (!m) return null;
  const unit = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 604800e3 }[m[2] as "s" | "m" | "h" | "d" | "w"];
  return Number(m[1]) * unit;
}
