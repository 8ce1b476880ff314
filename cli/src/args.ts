// Command-line arguments to check, estimate and graph, read by the one option reader
// (options.ts); a usage error is a value, never an exception, and main turns it into exit status 2.

import { analyzeCapability, resolveBudget } from "@rlm-plan/core/plan";
import { parseJsonText } from "@rlm-plan/core/text";
import { readOptions, type OptionSpec } from "./options";

export type Command =
  | { readonly kind: "help"; readonly topic?: "check" | "estimate" }
  | { readonly kind: "version" }
  | {
      readonly kind: "check";
      readonly files: readonly string[];
      /** Given with --capabilities: used instead of any host profile's. */
      readonly capabilities: readonly string[] | undefined;
      /** The parsed --budget, already known to resolve; undefined when not given. */
      readonly budget: unknown;
      /** --host FILE; without it each plan's host profile is found by walking up. */
      readonly host: string | undefined;
      readonly format: CheckFormat;
      /** --model-text: each file is a saved model reply (prose or a fence around the plan). */
      readonly modelText: boolean;
      /** --watch: check again whenever a checked file or its host profile changes. */
      readonly watch: boolean;
      /** --preflight: also run each plan's preflight (MCP servers started to list tools, then stopped). */
      readonly preflight: boolean;
      /** --against REF: also compare each plan with its version at this git commit-ish. */
      readonly against: string | undefined;
    }
  | {
      readonly kind: "estimate";
      readonly file: string;
      readonly budget: unknown;
      readonly host: string | undefined;
      readonly json: boolean;
    };

/** How `check` reports: lines for people, one JSON document, SARIF 2.1.0, or GitHub annotations. */
export type CheckFormat = "text" | "json" | "sarif" | "github";
const CHECK_FORMATS: readonly CheckFormat[] = ["text", "json", "sarif", "github"];

export type ParsedArgs = Command | { readonly kind: "usage"; readonly message: string };

export const USAGE = `usage: rlm-plan check PATH... [--host FILE] [--capabilities LIST] [--budget JSON|default]
                      [--format text|json|sarif|github] [--model-text] [--watch] [--preflight]
                      [--against REF]
       rlm-plan estimate FILE [--host FILE] [--budget JSON|default] [--json]
       rlm-plan graph FILE [--format svg|dot|mermaid|json] [--output FILE] [--collapse-depth N]
       rlm-plan run PLAN [--host FILE] [--input NAME=PATH]... [--input-text NAME=VALUE]... [--input-json NAME=JSON]... [--inputs FILE.json] [--mocks FILE] [--parallel MODE] [--json [--events]] [--journal DIR | --no-journal] [--otlp URL] [--as NAME] [--wait]
       rlm-plan run --resume RUN
       rlm-plan run PLAN --queue redis://HOST:PORT/QUEUE
       rlm-plan runs list|show|diff|export|prune|approve|deny
       rlm-plan ui [--port N] [--host H] [--journal DIR] [--no-open]
       rlm-plan propose GOAL --provider NAME [--host FILE] [--run] [--json]
       rlm-plan test [PATH...] [--list] [--max-cost LIMITS] [--jobs N] [--format text|json|junit|github]
       rlm-plan test [PATH...] --queue redis://HOST:PORT/QUEUE [--ceiling LIMITS]
       rlm-plan test merge REPORT.json... [--format text|json|junit|github]
       rlm-plan worker --queue redis://HOST:PORT/QUEUE [--host FILE] [--concurrency N]
       rlm-plan schedule add NAME --cron EXPR --plan FILE --queue URL | schedule list|remove
       rlm-plan lock [--update] [--host FILE] [--json]
       rlm-plan help | --help | --version`;

export const ESTIMATE_HELP = `usage: rlm-plan estimate FILE [--host FILE] [--budget JSON|default] [--json]

The plan's worst case (steps, depth, parallel width, model calls, tool calls, context
operations, output bytes) beside the budget in force, and the counts capped at max_results.

options:
  --host FILE             the host profile whose budget counts; by default the nearest
                          rlmplan.host.json in the plan's folder or above
  --budget JSON|default   the budget: "default" or a JSON object over the defaults
                          (overrides the host profile's)
  --json                  the estimate as JSON on stdout
  -h, --help              show this help

exit status: 0 within the budget, 1 over it (or the plan has errors), 2 usage error`;

/** Every command, in the order the help lists them: the help's first line names them all. */
const COMMANDS = [
  "check",
  "estimate",
  "graph",
  "run",
  "runs",
  "ui",
  "propose",
  "test",
  "worker",
  "schedule",
  "lock",
] as const;

export const HELP = `rlm-plan: ${COMMANDS.slice(0, -1).join(", ")} and ${COMMANDS.at(-1)}: typed LLM plans (*.rlmplan.json, JSON with comments)

${USAGE}

commands (each answers COMMAND --help):
  check      every problem of each plan, host profile or folder, statically: no program a plan
             or host profile names is started
  estimate   the plan's worst case beside the budget
  graph      draw the plan (steps, nested plans, data flow, worst cases)
  run        run a plan against the host profile (rlmplan.host.json)
  runs       the run journal (.rlm-plan/): list, show, diff, export and prune recorded runs;
             approve or deny a call that waits for a person
  ui         the run browser: a local web app over the run journal (runs, graphs, timelines,
             comparisons), on 127.0.0.1 with a token in its URL
  propose    ask a model provider for a plan, check it, and run it on request
  test       run the cases of plan test files (*.rlmplan.test.json); test merge joins the
             --json reports of a sharded run
  worker     run plan jobs from a queue (BullMQ on Redis) under this machine's host profile;
             run --queue and test --queue send them
  schedule   plans the workers run on a cron expression: schedule add, list and remove
  lock       pin the host profile's tools (programs, MCP tools, providers) in rlmplan.lock.json;
             runs then refuse a tool that drifted; lock --update accepts the changes

options:
  -h, --help              show this help (after a command: that command's help)
  --version               show the version
  --allow-path DIR        any command: a folder outside the workspace that paths written in
                          host profiles and test files may name (repeatable; docs/security.md)

exit status: 0 fine, 1 problems (a plan's errors, over budget, a failed run or case), 2 usage error`;

export const CHECK_HELP = `${USAGE.split("\n").slice(0, 3).join("\n")}

Reports every problem of each file as FILE:LINE:COL: error|warning: MESSAGE [code]. A PATH is a
plan, a host profile (rlmplan.host.json), a directory (every *.rlmplan.json, *.rlmplan and
rlmplan.host.json below it) or a quoted glob. Against a host profile (or --capabilities/--budget),
whatever \`run\` would refuse before running (capabilities, budget, unregistered tools and
providers) is an error; with no host known those checks are skipped, and said so. Static: it
starts no program a plan or host profile names (no MCP server, no tool), and says which checks it
leaves to --preflight.

options:
  --host FILE             the host profile; by default the nearest rlmplan.host.json in the
                          plan's folder or above (its capabilities, budget, tools, providers)
  --capabilities LIST     capabilities the host grants, comma-separated, for example
                          context(search),tool(count_items),rlm (overrides the host profile's;
                          with neither, capabilities are not checked)
  --budget JSON|default   the budget: "default" or a JSON object over the defaults,
                          for example '{"max_model_calls": 4}' (overrides the host profile's)
  --format FORMAT         text (default), json, sarif (SARIF 2.1.0, for code-scanning uploads)
                          or github (workflow-command annotations)
  --json                  the same as --format json
  --model-text            each file is a saved model reply; the plan is the JSON object in it
                          (fenced or in prose), located in the reply
  --watch                 run again whenever a checked file or host profile changes
  --preflight             also run each plan's preflight, exactly as \`run\` does before its
                          first step (no step executes): MCP servers the plan names are started
                          to list their tools, then stopped; programs, keys, inputs
  --against REF           also compare each plan with its version at the git commit-ish REF
                          (HEAD, origin/main, a commit id): capabilities newly needed or no
                          longer needed, tools, providers and MCP servers newly reachable or
                          no longer, and the worst case's change; a plan not in REF is new.
                          Reads git objects only: nothing of the workspace runs
  -h, --help              show this help

exit status: 0 no errors, 1 errors, 2 usage error`;

const VALUE = "a value";
const HELP_FLAGS = ["--json", "--help", "-h"];
const SPECS: Readonly<Record<"check" | "estimate" | "graph", OptionSpec>> = {
  check: {
    values: { "--capabilities": VALUE, "--budget": VALUE, "--host": VALUE, "--format": VALUE, "--against": VALUE },
    flags: [...HELP_FLAGS, "--model-text", "--watch", "--preflight"],
  },
  estimate: { values: { "--budget": VALUE, "--host": VALUE }, flags: HELP_FLAGS },
  graph: {
    values: Object.fromEntries(
      ["--format", "--output", "-o", "--collapse-depth", "--capabilities", "--budget", "--host"].map((name) => [
        name,
        VALUE,
      ]),
    ),
    flags: HELP_FLAGS,
  },
};

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const [first, ...rest] = argv;
  switch (first) {
    case undefined:
      return usage("missing command");
    case "help":
    case "--help":
    case "-h":
      return { kind: "help" };
    case "--version":
      return { kind: "version" };
    case "check":
    case "estimate":
      return parseCommand(first, rest);
    default:
      return first.startsWith("-")
        ? usage(`unknown option ${first}`)
        : usage(`unknown command ${JSON.stringify(first)}`);
  }
}

function parseCommand(command: "check" | "estimate", argv: readonly string[]): ParsedArgs {
  const options = readOptions(argv, SPECS[command]);
  if (typeof options === "string") return usage(options);
  if (options.flags.has("--help") || options.flags.has("-h")) return { kind: "help", topic: command };
  const json = options.flags.has("--json");
  const budget = parseBudget(options.values.get("--budget"));
  if ("error" in budget) return usage(budget.error);
  const files = options.positionals;
  const host = options.values.get("--host");
  if (command === "estimate") {
    if (files.length !== 1) return usage(files.length === 0 ? "estimate needs a FILE" : "estimate takes one FILE");
    return { kind: "estimate", file: files[0] as string, budget: budget.value, host, json };
  }
  if (files.length === 0) return usage("check needs at least one PATH");
  if (options.flags.has("--preflight") && options.flags.has("--watch"))
    return usage("--preflight and --watch do not go together: --watch stays static");
  const against = options.values.get("--against");
  if (against !== undefined && options.flags.has("--watch"))
    return usage("--against and --watch do not go together: compare once, in CI or before a commit");
  if (against !== undefined && options.flags.has("--model-text"))
    return usage("--against compares plan files, not saved model replies: drop --model-text");
  const capabilitiesText = options.values.get("--capabilities");
  const capabilities = capabilitiesText === undefined ? undefined : parseCapabilities(capabilitiesText);
  if (typeof capabilities === "string") return usage(capabilities);
  const formatText = options.values.get("--format");
  if (formatText !== undefined && json && formatText !== "json")
    return usage(`--json and --format ${formatText} disagree: give one`);
  const format = formatText ?? (json ? "json" : "text");
  if (!isCheckFormat(format))
    return usage(`--format: expected one of ${CHECK_FORMATS.join(", ")}, got ${JSON.stringify(format)}`);
  return {
    kind: "check",
    files,
    capabilities,
    budget: budget.value,
    host,
    format,
    modelText: options.flags.has("--model-text"),
    watch: options.flags.has("--watch"),
    preflight: options.flags.has("--preflight"),
    against,
  };
}

function isCheckFormat(text: string): text is CheckFormat {
  return (CHECK_FORMATS as readonly string[]).includes(text);
}

/** `default`, or a JSON object the runtime's own budget rules accept. */
function parseBudget(text: string | undefined): { readonly value: unknown } | { readonly error: string } {
  if (text === undefined) return { value: undefined };
  if (text.trim() === "default") return { value: "default" };
  // The runtime's strict reader: a duplicate key ({"max_steps": 1, "max_steps": 99}) is refused.
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    return {
      error: `--budget: expected "default" or a JSON object: ${parsed.error.message} at position ${parsed.error.offset}`,
    };
  const value = parsed.value;
  const resolved = resolveBudget(value);
  if (!resolved.ok) return { error: `--budget: ${resolved.problems.map((p) => p.message).join("; ")}` };
  return { value };
}

/** A comma-separated list; commas inside parentheses (or quotes) belong to the term. */
export function splitCapabilities(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && quoted) i++;
    else if (c === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (c === "," && depth === 0) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.map((term) => term.trim()).filter((term) => term !== "");
}

/** The terms, or the first one a host profile would refuse too, with the same message. */
function parseCapabilities(text: string): string[] | string {
  const terms = splitCapabilities(text);
  for (const term of terms) {
    const problem = analyzeCapability(term);
    if (problem !== undefined) return `--capabilities: ${problem}`;
  }
  return terms;
}

export interface GraphCommand {
  readonly kind: "graph";
  readonly file: string;
  readonly format: GraphFormat;
  readonly output: string | undefined;
  readonly collapseDepth: number | undefined;
  readonly capabilities: readonly string[] | undefined;
  readonly budget: unknown;
  readonly host: string | undefined;
}

const GRAPH_FORMATS = ["svg", "dot", "mermaid", "json"] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

/** `rlm-plan graph`'s arguments (after the word "graph"). */
export function parseGraphArgs(
  argv: readonly string[],
): GraphCommand | { readonly kind: "help" } | { readonly kind: "usage"; readonly message: string } {
  const options = readOptions(argv, SPECS.graph);
  if (typeof options === "string") return { kind: "usage", message: options };
  if (options.flags.has("--help") || options.flags.has("-h")) return { kind: "help" };
  if (options.flags.has("--json")) return { kind: "usage", message: "graph has no --json: use --format" };
  const files = options.positionals;
  if (files.length !== 1)
    return { kind: "usage", message: files.length === 0 ? "graph needs a FILE" : "graph takes one FILE" };
  const format = options.values.get("--format") ?? "svg";
  const known = GRAPH_FORMATS.find((name) => name === format);
  if (!known)
    return { kind: "usage", message: `--format: expected svg, dot, mermaid or json, not ${JSON.stringify(format)}` };
  const depthText = options.values.get("--collapse-depth");
  const collapseDepth = depthText === undefined ? undefined : Number(depthText);
  if (collapseDepth !== undefined && !(Number.isInteger(collapseDepth) && collapseDepth >= 1))
    return {
      kind: "usage",
      message: `--collapse-depth: expected a whole number from 1, not ${JSON.stringify(depthText)}`,
    };
  const budget = parseBudget(options.values.get("--budget"));
  if ("error" in budget) return { kind: "usage", message: budget.error };
  const capabilitiesText = options.values.get("--capabilities");
  const capabilities = capabilitiesText === undefined ? undefined : parseCapabilities(capabilitiesText);
  if (typeof capabilities === "string") return { kind: "usage", message: capabilities };
  return {
    kind: "graph",
    file: files[0] as string,
    format: known,
    output: options.values.get("--output") ?? options.values.get("-o"),
    collapseDepth,
    capabilities,
    budget: budget.value,
    host: options.values.get("--host"),
  };
}

function usage(message: string): ParsedArgs {
  return { kind: "usage", message };
}
