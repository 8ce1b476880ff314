// The arguments of `rlm-plan run`: read, checked against each other (--resume, --from, --queue, --events),
// and turned into the RunArgs the command runs with, or the one-line usage error it prints.

import type * as Journal from "@rlm-plan/core/journal";
import { PARALLEL_MODES, type ParallelMode } from "@rlm-plan/core/run";
import { parseQueueUrl, PASSWORD_FILE_OPTION, QUEUE_URL_FORM, type QueueAddress } from "./queue/queueUrl";
import { readOptions, type OptionSpec, type Options } from "./options";
import { INPUT_JSON_FORM, INPUT_TEXT_FORM, jsonObjectFromFile, readInlineInputs } from "./runInputs";
import { isJsonObject, parseStepPath, type JsonObject, type JsonPath, type JsonValue } from "@rlm-plan/core/json";
import { parseJsonText } from "@rlm-plan/core/text";

export interface RunArgs {
  readonly plan: string;
  /** The journal's id of the run and where it is, once recorded. */
  readonly recordedAs?: number;
  readonly recordedWhere?: string;
  /** " --journal DIR" when `runs` and `--resume` from this folder would not find that journal themselves. */
  readonly recordedJournal?: string;
  /** The host profile in force, as shown (set once it is found). */
  readonly hostProfile?: string;
  readonly host: string | undefined;
  /** --input NAME=PATH: text files. */
  readonly inputs: Record<string, string>;
  /** --input-text, --input-json and --inputs FILE: values, checked by the core's rule once the profile is known. */
  readonly inputValues: JsonObject;
  /** Which option gave each value ("--input-json limit"), for the messages that locate a refused one. */
  readonly inputOrigins?: ReadonlyMap<string, string>;
  readonly mocks: string | undefined;
  readonly parallel: ParallelMode | undefined;
  readonly json: boolean;
  readonly events: boolean;
  readonly journal: string | undefined;
  readonly noJournal: boolean;
  readonly resume: number | undefined;
  /** --from RUN --step PATH [--set NAME=JSON]... [--allow-changed]: a fork of a recorded run. */
  readonly fork?: ForkArgs;
  /** PLAN --step PATH --bindings JSON: one step run alone. */
  readonly only?: StepArgs;
  readonly otlp: string | undefined;
  /** --as NAME: who starts the run (approval rules may forbid them to approve it); default the OS user. */
  readonly as?: string;
  /** --wait: a run held for approval waits here for the decision and goes on (docs/approvals.md). */
  readonly wait?: boolean;
  readonly queue?: QueueAddress;
  /** --redis-password-file FILE (with --queue). */
  readonly queuePasswordFile?: string;
}

export interface ForkArgs {
  readonly from: number;
  readonly step: JsonPath;
  readonly set: ReadonlyMap<string, JsonValue>;
  readonly allowChanged: boolean;
}

export interface StepArgs {
  readonly step: JsonPath;
  readonly bindings: JsonObject;
}

const BINDINGS_FORM = `a JSON object of binding name -> value ('{"name":"Ada"}'), or @FILE.json holding one`;
const INPUT_FORM = "NAME=PATH, for example --input haystack=data/big.txt";
const SET_FORM = "BINDING=JSON, for example --set count=3";
const STEP_FORM = 'a step PATH as rlm-plan runs show prints it (steps/2), a JSON Pointer (/steps/2) or ["steps",2]';
const RUN_OPTIONS: OptionSpec = {
  values: {
    "--host": "a FILE",
    "--mocks": "a FILE",
    "--parallel": PARALLEL_MODES.join(" or "),
    "--input": INPUT_FORM,
    "--input-text": INPUT_TEXT_FORM,
    "--input-json": INPUT_JSON_FORM,
    "--inputs": "a FILE.json holding an object of input name -> value",
    "--journal": "a DIR",
    "--resume": "a RUN number (rlm-plan runs list)",
    "--from": "a RUN number (rlm-plan runs list)",
    "--step": STEP_FORM,
    "--set": SET_FORM,
    "--bindings": BINDINGS_FORM,
    "--otlp": "an OTLP/HTTP traces URL (http://127.0.0.1:4318/v1/traces)",
    "--queue": QUEUE_URL_FORM,
    [PASSWORD_FILE_OPTION]: "a FILE",
    "--as": "a NAME (who starts the run)",
  },
  flags: ["--json", "--events", "--no-journal", "--allow-changed", "--wait", "--help", "-h"],
  nonEmpty: ["--inputs", "--host", "--mocks", "--journal", "--otlp", "--queue", PASSWORD_FILE_OPTION, "--as"],
};

export function parseRunArgs(argv: readonly string[]): RunArgs | "help" | string {
  const options = readOptions(argv, RUN_OPTIONS);
  if (typeof options === "string") return options;
  if (options.flags.has("--help") || options.flags.has("-h")) return "help";
  const { positionals } = options;
  const parallelText = options.values.get("--parallel");
  const parallel = PARALLEL_MODES.find((mode) => mode === parallelText);
  if (parallelText !== undefined && parallel === undefined) return `--parallel needs ${PARALLEL_MODES.join(" or ")}`;
  const inputs: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const spec of options.repeated.get("--input") ?? []) {
    const split = spec.indexOf("=");
    if (split <= 0 || split === spec.length - 1) return `--input needs ${INPUT_FORM}`;
    inputs[spec.slice(0, split)] = spec.slice(split + 1);
  }
  const inline = readInlineInputs(
    options.repeated.get("--input-text") ?? [],
    options.repeated.get("--input-json") ?? [],
    options.values.get("--inputs"),
    inputs,
  );
  if (typeof inline === "string") return inline;
  const inputValues = inline.values;
  const givenValues = Object.keys(inputValues).length > 0;
  const host = options.values.get("--host");
  const mocks = options.values.get("--mocks");
  const json = options.flags.has("--json");
  const events = options.flags.has("--events");
  const journal = options.values.get("--journal");
  const noJournal = options.flags.has("--no-journal");
  const otlp = options.values.get("--otlp");
  if (otlp !== undefined && !/^https?:\/\/[^/]/.test(otlp))
    return "--otlp needs an http(s) URL of an OTLP/HTTP traces endpoint";
  const resumeText = options.values.get("--resume");
  let resume: number | undefined;
  if (resumeText !== undefined) {
    // The journal's modules only for a resume: a run that records nothing loads none of them.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parseRunId, runIdRefusal } = require("@rlm-plan/core/journal") as typeof Journal;
    resume = parseRunId(resumeText);
    if (resume === undefined) return runIdRefusal("--resume", resumeText);
  }
  if (journal !== undefined && noJournal) return "--journal and --no-journal cannot be given together";
  const queueText = options.values.get("--queue");
  const queue = queueText === undefined ? undefined : parseQueueUrl(queueText);
  if (typeof queue === "string") return queue;
  const queuePasswordFile = options.values.get(PASSWORD_FILE_OPTION);
  if (queuePasswordFile !== undefined && !queue) return `${PASSWORD_FILE_OPTION} is the password of --queue's Redis`;
  if (queue) {
    const local = [
      ["--resume", resumeText],
      ["--otlp", otlp],
      ["--input", Object.keys(inputs).length > 0 ? "" : undefined],
    ].find(([, v]) => v !== undefined);
    // The worker's journal entry is the run's one record: nothing is recorded here.
    const journalOption = journal !== undefined ? "--journal" : noJournal ? "--no-journal" : undefined;
    if (journalOption)
      return `${journalOption} cannot be given with --queue: the worker records the run in its own journal (rlm-plan worker --journal DIR or --no-journal), and the last line names it`;
    // A path here names nothing on the worker's machine; values travel in the job.
    if (local)
      return `${local[0]} cannot be given with --queue: the worker runs the plan with its own host profile's inputs and telemetry${local[0] === "--input" ? " (give values with --input-text, --input-json or --inputs: they travel in the job)" : ""}`;
  }
  // What a run given its options anew would take, and a recorded run (resumed, forked) may not.
  const ownOption = (): string | undefined =>
    (
      [
        ["--host", host],
        ["--mocks", mocks],
        ["--parallel", parallelText],
      ] as const
    ).find(([, v]) => v !== undefined)?.[0] ??
    (Object.keys(inputs).length > 0 ? "--input" : givenValues ? "input values" : undefined);
  const as = options.values.get("--as");
  const wait = options.flags.has("--wait");
  if (queue && (as !== undefined || wait))
    return `${as !== undefined ? "--as" : "--wait"} cannot be given with --queue`;
  if (resume !== undefined && as !== undefined)
    return "--resume keeps the run's recorded starter; --as cannot be given";
  // What every form of `run` carries as the options gave it.
  const common = {
    host,
    inputs,
    inputValues,
    mocks,
    parallel,
    json,
    events,
    journal,
    noJournal,
    otlp,
    ...(as !== undefined ? { as } : {}),
    ...(wait ? { wait } : {}),
  };
  const fork = forkArgs(options);
  if (typeof fork === "string") return fork;
  if (fork !== undefined) {
    if (queue) return "--from cannot be given with --queue: a fork runs here, from this journal's run";
    if (resume !== undefined) return "--from and --resume cannot be given together";
    const own = ownOption();
    if (own !== undefined)
      return `--from runs with the options the run was recorded with (change a binding with --set); ${own} cannot be given`;
    if (positionals.length > 0) return "--from runs the recorded run's plan; give no PLAN file";
    if (events && !json) return "--events needs --json";
    return { ...common, plan: "", resume, fork };
  }
  const only = stepArgs(options);
  if (typeof only === "string") return only;
  if (only !== undefined) {
    if (queue) return "--step with --bindings runs one step here; it cannot be given with --queue";
    if (resume !== undefined) return "--step with --bindings runs one step anew; --resume cannot be given";
    if (positionals.length === 0) return "run --step PATH --bindings JSON needs a PLAN file";
    if (positionals.length > 1) return "run takes one PLAN file";
    if (events && !json) return "--events needs --json";
    return { ...common, plan: positionals[0] as string, inputOrigins: inline.origins, resume, only };
  }
  if (resume !== undefined) {
    const own = ownOption();
    if (own !== undefined) return `--resume runs with the options the run was recorded with; ${own} cannot be given`;
    if (noJournal) return "--resume continues the run's journal entry; --no-journal cannot be given";
    if (positionals.length > 1) return "run takes one PLAN file";
    const plan = positionals[0] ?? "";
    return { ...common, plan, resume };
  }
  if (positionals.length === 0) return "run needs a PLAN file";
  if (positionals.length > 1) return "run takes one PLAN file";
  if (events && !json) return "--events needs --json";
  return {
    ...(queue ? { queue } : {}),
    ...(queuePasswordFile !== undefined ? { queuePasswordFile } : {}),
    ...common,
    plan: positionals[0] as string,
    inputOrigins: inline.origins,
    resume,
  };
}

/** --from, --step, --set and --allow-changed read together; undefined when none is given. */
function forkArgs(options: Options): ForkArgs | string | undefined {
  const fromText = options.values.get("--from");
  const stepText = options.values.get("--step");
  const sets = options.repeated.get("--set") ?? [];
  const allowChanged = options.flags.has("--allow-changed");
  if (fromText === undefined) {
    // --step with --bindings (and no --from) runs that step alone: stepArgs reads it.
    const alone = stepText !== undefined && options.values.has("--bindings");
    const stray =
      stepText !== undefined && !alone ? "--step" : sets.length > 0 ? "--set" : allowChanged ? "--allow-changed" : "";
    if (stray === "--step")
      return `--step needs --from RUN (the recorded run to fork) or --bindings JSON (to run that step alone)`;
    return stray === "" ? undefined : `${stray} needs --from RUN (the recorded run to fork)`;
  }
  if (options.values.has("--bindings"))
    return "--bindings runs one step of a PLAN alone; a fork (--from) changes bindings with --set";
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parseRunId, runIdRefusal } = require("@rlm-plan/core/journal") as typeof Journal;
  const from = parseRunId(fromText);
  if (from === undefined) return runIdRefusal("--from", fromText);
  if (stepText === undefined) return `--from needs --step PATH: ${STEP_FORM}`;
  const step = parseStepPath(stepText);
  if (step === undefined) return `--step needs ${STEP_FORM}, not ${JSON.stringify(stepText)}`;
  const set = new Map<string, JsonValue>();
  for (const spec of sets) {
    const split = spec.indexOf("=");
    if (split <= 0) return `--set needs ${SET_FORM}`;
    const name = spec.slice(0, split);
    const parsed = parseJsonText(spec.slice(split + 1));
    if (!parsed.ok)
      return `--set ${name}: not JSON at column ${parsed.error.offset + 1} (${parsed.error.message}); a text is quoted: --set ${name}='"text"'`;
    if (set.has(name)) return `--set ${name} is given twice`;
    set.set(name, parsed.value);
  }
  return { from, step, set, allowChanged };
}

/** --step PATH --bindings JSON|@FILE without --from: one step run alone; undefined when not asked. */
function stepArgs(options: Options): StepArgs | string | undefined {
  const text = options.values.get("--bindings");
  const stepText = options.values.get("--step");
  if (options.values.has("--from")) return undefined;
  if (text === undefined) return undefined;
  if (stepText === undefined) return `--bindings needs --step PATH: ${STEP_FORM}`;
  const step = parseStepPath(stepText);
  if (step === undefined) return `--step needs ${STEP_FORM}, not ${JSON.stringify(stepText)}`;
  if (text.startsWith("@")) {
    const read = jsonObjectFromFile(text.slice(1), "--bindings", "a JSON object of binding name -> value");
    return typeof read === "string" ? read : { step, bindings: read };
  }
  const parsed = parseJsonText(text);
  // The column only: a value may be a secret.
  if (!parsed.ok)
    return `--bindings: not JSON at column ${parsed.error.offset + 1} (${parsed.error.message}); it takes ${BINDINGS_FORM}`;
  if (!isJsonObject(parsed.value)) return `--bindings takes ${BINDINGS_FORM}`;
  return { step, bindings: parsed.value };
}
