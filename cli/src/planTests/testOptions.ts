// The options of `rlm-plan test` and `rlm-plan test merge`, read into values (or a message).

import type { Count } from "@rlm-plan/core/plan";
import type { BaselineMode, CassetteMode, TestRunPrice, WorstCase } from "@rlm-plan/core/testing";
import { DEFAULT_CURRENCY, moneyText } from "@rlm-plan/core/plan";
import { readOptions } from "../options";
import { CEILING_COUNTERS, type CeilingCounter } from "../queue/planJob";
import { parseQueueUrl, PASSWORD_FILE_OPTION, QUEUE_URL_FORM, type QueueAddress } from "../queue/queueUrl";

export type TestFormat = "text" | "json" | "junit" | "github" | "html";
export const TEST_FORMATS: readonly TestFormat[] = ["text", "json", "junit", "github", "html"];

export const TEST_USAGE = `usage: rlm-plan test [PATH...] [--list] [--max-cost LIMITS] [--jobs N] [--filter TEXT] [--shard I/N]
                     [--allow-empty]
                     [--record | --replay] [--journal DIR | --no-journal] [--bless | --baseline]
                     [--format text|json|junit|github|html] [-o FILE] [--json]
                     [--queue redis://HOST:PORT/QUEUE [--redis-password-file FILE] [--ceiling LIMITS]]
       rlm-plan test merge REPORT.json... [--format text|json|junit|github] [--json]`;

export const TEST_HELP = `rlm-plan test: run the cases of plan test files (*.rlmplan.test.json)

${TEST_USAGE}

A PATH is a test file, a folder (every *.rlmplan.test.json below it) or a quoted glob; none
means the current folder. Before anything runs, the cases and the worst case of running them
all are counted (the plans' static estimates); --list prints them and stops.

options:
  --list              list the cases and each one's worst case, with the total; run nothing
  --max-cost LIMITS   refuse the run, before any request, when the worst case of the cases that
                      reach real tools and providers (not mocked, not replayed) is over LIMITS:
                      N (model calls) or counters, e.g. model_calls=20,tool_calls=50,cost=0.50
                      (counters: steps, model_calls, tool_calls, context_ops; cost is money in
                      the host profiles' currency, priced as rlm-plan estimate prices a plan)
  --jobs N            run N cases at a time (default 4)
  --filter TEXT       only the cases whose id (FILE#NAME) contains TEXT
  --allow-empty       exit 0 when nothing is tested (a filter that matches no case, a folder
                      or pattern with no test file); without it that is exit 1, so a CI
                      gate cannot pass on nothing
  --shard I/N         only the I-th of N parts of the cases (1-based), for a CI matrix;
                      merge the parts' --json reports with rlm-plan test merge
  --record            cases with a cassette run against the real tools and providers, and
                      every reply is written to the cassette (masked)
  --replay            nothing live: cases with a cassette answer from it only (a request it
                      does not hold fails the case, naming the nearest recorded one); a case
                      with neither cassette nor mocks fails
  --journal DIR       record each case's run in the run journal in DIR (default: .rlm-plan/
                      beside the host profile, as rlm-plan run does); rlm-plan runs list
                      --origin test lists them, each labelled FILE#CASE
  --no-journal        record no case in the run journal (not with --record: the cassettes are
                      derived from the journal)
  --bless             record each passing case's run as its baseline, in NAME.rlmplan.baseline.json
                      beside its test file (its other cases kept): review it and commit it
  --baseline          fail a case whose run changed from its baseline: the path taken, the tool
                      calls (order and arguments), the capabilities used, the cost (beyond the
                      test file's baseline.cost_tolerance) or the value (unless the case judges
                      it by contains or schema only); names the first step that differs, with
                      the diff rlm-plan runs diff shows. With cassettes it needs no provider
  --queue URL         run every case as a job on a queue (rlm-plan worker --queue URL runs them,
                      each under its own host profile); one report, as with --jobs
  --redis-password-file FILE
                      with --queue: the Redis password, the file's first line (or set
                      RLM_PLAN_REDIS_PASSWORD); unlike a password in the URL, not seen in ps
  --ceiling LIMITS    with --queue: at most N model calls (or model_calls=N,tool_calls=M, and
                      cost=AMOUNT: money, each call holding its worst case) for the whole test
                      run across every worker: a counter in Redis; a call over it is not made
                      and fails its case
  --format FORMAT     text (default), json (the report merge reads), junit (JUnit XML),
                      github (workflow annotations at each failing case's line) or html
                      (one self-contained page: each case, its failures, its run's graph,
                      timeline and values from the run journal; no network)
  -o, --output FILE   with --format html: write the page to FILE (else to stdout)
  --json              --format json
  -h, --help          show this help

Without --record, a case with a cassette replays it; a case with mocks answers from them.

exit status: 0 every case passed, 1 a case failed or nothing was tested, 2 usage error, a bad test file or a refused run`;

export interface TestArgs {
  readonly kind: "run";
  readonly paths: readonly string[];
  readonly list: boolean;
  readonly maxCost?: CostLimits;
  readonly jobs: number;
  readonly filter?: string;
  /** --allow-empty: a run that tests nothing passes. */
  readonly allowEmpty: boolean;
  readonly shard?: { readonly index: number; readonly of: number };
  readonly mode: CassetteMode;
  readonly format: TestFormat;
  /** -o FILE (--format html). */
  readonly output?: string;
  /** --queue URL, as parsed. */
  readonly queue?: QueueAddress;
  /** --redis-password-file FILE (with --queue). */
  readonly queuePasswordFile?: string;
  readonly ceiling?: Partial<Record<CeilingCounter, number>>;
  /** --journal DIR, or false for --no-journal. */
  readonly journal?: string | false;
  /** --bless or --baseline. */
  readonly baseline?: BaselineMode;
}

export interface MergeArgs {
  readonly kind: "merge";
  readonly reports: readonly string[];
  readonly format: Exclude<TestFormat, "html">;
}

const COUNTERS: readonly (keyof WorstCase)[] = ["steps", "model_calls", "tool_calls", "context_ops"];

/** --max-cost's limits: counters, and `cost`, money in the host profile's currency. */
export type CostLimits = Partial<Record<keyof WorstCase | "cost", number>>;

export function parseTestArgs(argv: readonly string[]): TestArgs | MergeArgs | "help" | string {
  if (argv[0] === "merge") return parseMergeArgs(argv.slice(1));
  const options = readOptions(argv, {
    values: {
      "--jobs": "a number",
      "--format": TEST_FORMATS.join(", "),
      "--filter": "a TEXT",
      "--shard": "I/N, for example 2/3",
      "--max-cost": "LIMITS, for example 20 or model_calls=20,tool_calls=50",
      "--queue": QUEUE_URL_FORM,
      "--ceiling": "LIMITS, for example 20 or model_calls=20,tool_calls=50",
      "--journal": "a DIR",
      [PASSWORD_FILE_OPTION]: "a FILE",
      "-o": "a FILE",
      "--output": "a FILE",
    },
    flags: [
      "--list",
      "--allow-empty",
      "--json",
      "--record",
      "--replay",
      "--no-journal",
      "--bless",
      "--baseline",
      "--help",
      "-h",
    ],
    nonEmpty: [
      "--jobs",
      "--format",
      "--shard",
      "--max-cost",
      "--queue",
      "--ceiling",
      "--journal",
      PASSWORD_FILE_OPTION,
      "-o",
      "--output",
    ],
  });
  if (typeof options === "string") return options;
  if (options.flags.has("--help") || options.flags.has("-h")) return "help";
  const format = formatOf(options.values.get("--format"), options.flags.has("--json"));
  if (typeof format !== "object") return format;
  const output = options.values.get("-o") ?? options.values.get("--output");
  if (output !== undefined && format.format !== "html") return "-o FILE is for --format html";
  const jobsText = options.values.get("--jobs") ?? "4";
  const jobs = Number(jobsText);
  if (!/^[0-9]+$/.test(jobsText) || jobs < 1 || jobs > 256) return "--jobs needs a number from 1 to 256";
  let shard: TestArgs["shard"];
  const shardText = options.values.get("--shard");
  if (shardText !== undefined) {
    const match = /^([0-9]+)\/([0-9]+)$/.exec(shardText);
    const index = Number(match?.[1]);
    const of = Number(match?.[2]);
    if (!match || of < 1 || index < 1 || index > of) return "--shard needs I/N with 1 <= I <= N, for example 2/3";
    shard = { index, of };
  }
  let maxCost: TestArgs["maxCost"];
  const costText = options.values.get("--max-cost");
  if (costText !== undefined) {
    const parsed = parseLimits(costText, "--max-cost", true);
    if (typeof parsed === "string") return parsed;
    maxCost = parsed;
  }
  const record = options.flags.has("--record");
  const replay = options.flags.has("--replay");
  if (record && replay) return "--record and --replay cannot both be given";
  const filter = options.values.get("--filter");
  const queueText = options.values.get("--queue");
  const queue = queueText === undefined ? undefined : parseQueueUrl(queueText);
  if (typeof queue === "string") return queue;
  const queuePasswordFile = options.values.get(PASSWORD_FILE_OPTION);
  if (queuePasswordFile !== undefined && !queue) return `${PASSWORD_FILE_OPTION} is the password of --queue's Redis`;
  if (queue && (record || replay))
    return "--record and --replay run cassettes on this machine; they cannot be given with --queue";
  const journalDir = options.values.get("--journal");
  const noJournal = options.flags.has("--no-journal");
  if (journalDir !== undefined && noJournal) return "--journal and --no-journal cannot both be given";
  if (noJournal && record)
    return "--record derives the cassettes from the run journal: it cannot be given with --no-journal";
  if (queue && (journalDir !== undefined || noJournal))
    return "--journal and --no-journal are this machine's journal: with --queue each worker records in its own";
  const bless = options.flags.has("--bless");
  const gate = options.flags.has("--baseline");
  if (bless && gate) return "--bless and --baseline cannot both be given: bless first, then hold runs to it";
  if ((bless || gate) && noJournal)
    return `${bless ? "--bless" : "--baseline"} reads each case's run from the run journal: it cannot be given with --no-journal`;
  if ((bless || gate) && queue)
    return `${bless ? "--bless" : "--baseline"} reads each case's run from this machine's run journal: it cannot be given with --queue`;
  const ceilingText = options.values.get("--ceiling");
  let ceiling: TestArgs["ceiling"];
  if (ceilingText !== undefined) {
    if (!queue) return "--ceiling is a fleet-wide counter: it needs --queue (on this machine, use --max-cost)";
    const parsed = parseLimits(ceilingText, "--ceiling", true);
    if (typeof parsed === "string") return parsed;
    const counters = Object.keys(parsed);
    const other = counters.find((c) => !CEILING_COUNTERS.some((k) => k === c));
    if (other !== undefined) return `--ceiling counts ${CEILING_COUNTERS.join(" and ")}, not ${other}`;
    ceiling = parsed as Partial<Record<CeilingCounter, number>>;
  }
  return {
    ...(queue ? { queue } : {}),
    ...(queuePasswordFile !== undefined ? { queuePasswordFile } : {}),
    ...(ceiling ? { ceiling } : {}),
    kind: "run",
    paths: options.positionals,
    list: options.flags.has("--list"),
    allowEmpty: options.flags.has("--allow-empty"),
    jobs,
    mode: record ? "record" : replay ? "replay" : "off",
    format: format.format,
    ...(output !== undefined ? { output } : {}),
    ...(maxCost ? { maxCost } : {}),
    ...(shard ? { shard } : {}),
    ...(filter !== undefined ? { filter } : {}),
    ...(noJournal ? { journal: false as const } : journalDir !== undefined ? { journal: journalDir } : {}),
    ...(bless ? { baseline: "bless" as const } : gate ? { baseline: "check" as const } : {}),
  };
}

function parseMergeArgs(argv: readonly string[]): MergeArgs | "help" | string {
  const options = readOptions(argv, {
    values: { "--format": TEST_FORMATS.join(", ") },
    flags: ["--json", "--help", "-h"],
    nonEmpty: ["--format"],
  });
  if (typeof options === "string") return options;
  if (options.flags.has("--help") || options.flags.has("-h")) return "help";
  const format = formatOf(options.values.get("--format"), options.flags.has("--json"));
  if (typeof format !== "object") return format;
  if (options.positionals.length === 0) return "test merge needs the REPORT.json files of the shards";
  // The page draws each case's run from the journal, which a shard's JSON report does not carry.
  const chosen = format.format;
  if (chosen === "html")
    return "test merge writes text, json, junit or github: --format html is written by rlm-plan test itself";
  return { kind: "merge", reports: options.positionals, format: chosen };
}

function formatOf(text: string | undefined, json: boolean): { format: TestFormat } | string {
  if (json && text !== undefined && text !== "json") return "--json and --format cannot both be given";
  if (json) return { format: "json" };
  const format = TEST_FORMATS.find((f) => f === (text ?? "text"));
  return format === undefined ? `--format needs ${TEST_FORMATS.join(", ")}` : { format };
}

function parseLimits(text: string, flag: string, money = false): CostLimits | string {
  const names = money ? [...COUNTERS, "cost"] : COUNTERS;
  const example = money ? "model_calls=20,cost=0.50" : "model_calls=20,tool_calls=50";
  const wrong = `${flag} needs a number of model calls or COUNTER=N pairs (${names.join(", ")}), for example ${example}`;
  if (/^[0-9]+$/.test(text)) return { model_calls: Number(text) };
  const limits: CostLimits = {};
  for (const part of text.split(",")) {
    // Counts are whole; money (cost) may have decimals.
    const match = /^([a-z_]+)=([0-9]+(?:\.[0-9]+)?)$/.exec(part.trim());
    const counter = names.find((c) => c === match?.[1]) as keyof CostLimits | undefined;
    if (!match || !counter || (counter !== "cost" && (match[2] as string).includes("."))) return wrong;
    limits[counter] = Number(match[2]);
  }
  return limits;
}

/** The counters of a worst case over their limits: "12 model calls (limit 10)". */
export function overLimits(worst: WorstCase, limits: CostLimits): string[] {
  const over: string[] = [];
  for (const counter of COUNTERS) {
    const limit = limits[counter];
    const value: Count = worst[counter];
    if (limit !== undefined && value > limit) over.push(`${counterText(value, counter)} (limit ${limit})`);
  }
  return over;
}

/** The live cases' money over --max-cost's cost, unknown under it, or in more than one currency. */
export function moneyOverLimit(money: TestRunPrice["liveMoney"], limit: number | undefined): string[] {
  if (limit === undefined) return [];
  if (money.unpriced.length > 0) return [`cost unknown (${money.unpriced.join("; ")})`];
  if (money.currencies.length > 1) return [`cost in ${money.currencies.join(" and ")}, which no one limit compares`];
  const currency = money.currencies[0] ?? DEFAULT_CURRENCY;
  return money.cost > limit ? [`cost ${moneyText(money.cost, currency)} (limit ${moneyText(limit, currency)})`] : [];
}

const NOUNS: Record<keyof WorstCase, string> = {
  steps: "step",
  model_calls: "model call",
  tool_calls: "tool call",
  context_ops: "context op",
};

export function counterText(value: Count, counter: keyof WorstCase): string {
  return `${String(value)} ${NOUNS[counter]}${value === 1 || value === 1n ? "" : "s"}`;
}

/** "12 steps, 4 model calls, 2 tool calls, 0 context ops". */
export function worstCaseText(worst: WorstCase): string {
  return COUNTERS.map((c) => counterText(worst[c], c)).join(", ");
}
