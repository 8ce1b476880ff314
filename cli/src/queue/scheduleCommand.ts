// `rlm-plan schedule add|list|remove`: plans the fleet runs on a cron expression (BullMQ job
// schedulers, schedules.ts). Everything is checked here before Redis is asked: the name, the
// cron expression (located at its field), the time zone, the plan (it must parse) and the job
// it becomes (readPlanJob, as a worker reads it). Output: one line per action on stdout, a
// table or one JSON document for `list`; problems on stderr, exit 2 for usage and Redis.

import { parsePlan } from "@rlm-plan/core/plan";
import { MAX_PLAN_BYTES, readTextFileSync } from "@rlm-plan/core/text";
import { addSessionSecrets } from "@rlm-plan/core/session";
import { lineText } from "../guardedOutput";
import { displayPath, usageErrorText } from "../output";
import { readOptions } from "../options";
import { INPUT_JSON_FORM, INPUT_TEXT_FORM, readInlineInputs } from "../runInputs";
import { openSink, type OutputSink } from "../sink";
import {
  parseQueueUrl,
  PASSWORD_FILE_OPTION,
  QUEUE_URL_FORM,
  REDIS_PASSWORD_ENV,
  withPassword,
  type QueueAddress,
} from "./queueUrl";
import {
  addSchedule,
  cronProblem,
  listSchedules,
  removeSchedule,
  scheduledJob,
  scheduleNameProblem,
  type ScheduleRow,
} from "./schedules";
import type { WorkerIo } from "./workerCommand";

export const SCHEDULE_HELP = `rlm-plan schedule: plans the fleet runs on a cron expression (BullMQ job schedulers)

usage: rlm-plan schedule add NAME --cron EXPR --plan FILE --queue URL [--tz ZONE]
                             [--inputs FILE.json] [--input-text NAME=VALUE]... [--input-json NAME=JSON]...
       rlm-plan schedule list --queue URL [--json]
       rlm-plan schedule remove NAME --queue URL
       (each takes --redis-password-file FILE)

Each time the cron expression comes due, one job is queued: the plan's text and its input
values, as \`rlm-plan run --queue\` sends them. Whichever \`rlm-plan worker\` takes it runs it
under its own host profile and journals it with origin schedule, labelled NAME
(\`rlm-plan runs list --origin schedule\`). Adding a NAME that exists replaces it.

options:
  --cron EXPR             5 fields (minute hour day-of-month month day-of-week), or 6 with a
                          second first; "0 9 * * 1-5" is 09:00 on weekdays
  --tz ZONE               read EXPR in this IANA time zone (default UTC)
  --plan FILE             the plan; its text is stored in the schedule (add it again to change it)
  --inputs, --input-text, --input-json
                          input values, as rlm-plan run takes them; judged by the worker's profile
  --queue URL             ${QUEUE_URL_FORM}
  --redis-password-file FILE
                          the Redis password: the file's first line (or set ${REDIS_PASSWORD_ENV})
  --json                  list: one JSON document
  -h, --help              show this help

A run missed while no worker runs is not made up: when a worker comes back, the one
iteration that waited runs once and the schedule goes on from then (docs/workers.md).

exit status: 0 done, 1 remove: no such schedule, 2 usage error or Redis unreachable`;

type ScheduleArgs =
  | {
      readonly kind: "add";
      readonly name: string;
      readonly cron: string;
      readonly tz?: string;
      readonly plan: string;
      readonly inputs?: import("@rlm-plan/core/json").JsonObject;
    }
  | { readonly kind: "list"; readonly json: boolean }
  | { readonly kind: "remove"; readonly name: string };

const OPTIONS = {
  values: {
    "--cron": "a cron EXPR (5 fields, or 6 with seconds first)",
    "--tz": "an IANA time ZONE (Europe/Paris)",
    "--plan": "a plan FILE",
    "--inputs": "a FILE.json holding an object of input name -> value",
    "--input-text": INPUT_TEXT_FORM,
    "--input-json": INPUT_JSON_FORM,
    "--queue": QUEUE_URL_FORM,
    [PASSWORD_FILE_OPTION]: "a FILE",
  },
  flags: ["--json", "--help", "-h"],
  nonEmpty: ["--cron", "--tz", "--plan", "--inputs", "--queue", PASSWORD_FILE_OPTION],
};

/** Which options each subcommand takes (beyond --queue and the password file). */
const OWN: Readonly<Record<string, readonly string[]>> = {
  add: ["--cron", "--tz", "--plan", "--inputs", "--input-text", "--input-json"],
  list: ["--json"],
  remove: [],
};

/** Runs `rlm-plan schedule`. Never throws; resolves to the exit status. */
export async function scheduleCommand(argv: readonly string[], unguarded: WorkerIo): Promise<number> {
  const env = unguarded.env ?? process.env;
  const sink = openSink(unguarded, { env });
  try {
    return await schedule(argv, env, sink);
  } catch (error) {
    sink.stderr.write(
      `rlm-plan: internal error: ${lineText(error instanceof Error ? error.message : String(error))}\n`,
    );
    return 2;
  } finally {
    sink.end();
  }
}

async function schedule(argv: readonly string[], env: NodeJS.ProcessEnv, sink: OutputSink): Promise<number> {
  const { stdout, stderr } = sink;
  const usage = (message: string) => (stderr.write(usageErrorText(message, "schedule")), 2);
  const options = readOptions(argv, OPTIONS);
  if (typeof options === "string") return usage(options);
  if (options.flags.has("--help") || options.flags.has("-h") || argv.length === 0) {
    (argv.length === 0 ? stderr : stdout).write(`${SCHEDULE_HELP}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const [sub, ...rest] = options.positionals;
  const own = sub === undefined ? undefined : OWN[sub];
  if (sub === undefined || own === undefined)
    return usage(`unknown schedule command ${JSON.stringify(sub ?? "")}: add, list or remove`);
  const given = [...options.values.keys(), ...options.flags];
  const foreign = given.find((o) => !own.includes(o) && o !== "--queue" && o !== PASSWORD_FILE_OPTION);
  if (foreign !== undefined) return usage(`schedule ${sub} takes no ${foreign}`);
  const queueText = options.values.get("--queue");
  if (queueText === undefined) return usage(`schedule ${sub} needs --queue ${QUEUE_URL_FORM}`);
  const parsed = parseQueueUrl(queueText);
  if (typeof parsed === "string") return usage(parsed);
  const address = withPassword(parsed, options.values.get(PASSWORD_FILE_OPTION), env);
  if (typeof address === "string") return usage(address);
  if (address.password !== undefined) addSessionSecrets(sink.mask, { env, clientValues: [address.password] });

  const args = scheduleArgs(sub, rest, options);
  if (typeof args === "string") return usage(args);
  try {
    switch (args.kind) {
      case "add":
        return await add(args, address, sink);
      case "list":
        return await list(args.json, address, sink);
      case "remove": {
        if (await removeSchedule(address, args.name)) {
          stdout.write(`removed schedule ${args.name} from ${address.shown}\n`);
          return 0;
        }
        stderr.write(
          `rlm-plan: ${address.shown} has no schedule ${JSON.stringify(args.name)} (rlm-plan schedule list)\n`,
        );
        return 1;
      }
    }
  } catch (error) {
    stderr.write(
      `rlm-plan: cannot reach Redis at ${address.shown}: ${lineText(error instanceof Error ? error.message : String(error))}\n`,
    );
    return 2;
  }
}

function scheduleArgs(
  sub: string,
  rest: readonly string[],
  options: Exclude<ReturnType<typeof readOptions>, string>,
): ScheduleArgs | string {
  if (sub === "list")
    return rest.length > 0 ? `schedule list takes no ${rest[0]}` : { kind: "list", json: options.flags.has("--json") };
  if (rest.length !== 1) return `schedule ${sub} takes one NAME`;
  const name = rest[0] as string;
  const badName = scheduleNameProblem(name);
  if (badName) return badName;
  if (sub === "remove") return { kind: "remove", name };
  const cron = options.values.get("--cron");
  const plan = options.values.get("--plan");
  if (cron === undefined) return "schedule add needs --cron EXPR";
  if (plan === undefined) return "schedule add needs --plan FILE";
  const tz = options.values.get("--tz");
  const badCron = cronProblem(cron, tz);
  if (badCron) return badCron;
  const inline = readInlineInputs(
    options.repeated.get("--input-text") ?? [],
    options.repeated.get("--input-json") ?? [],
    options.values.get("--inputs"),
    {},
  );
  if (typeof inline === "string") return inline;
  return {
    kind: "add",
    name,
    cron,
    plan,
    ...(tz !== undefined ? { tz } : {}),
    ...(Object.keys(inline.values).length > 0 ? { inputs: inline.values } : {}),
  };
}

async function add(
  args: Extract<ScheduleArgs, { kind: "add" }>,
  address: QueueAddress,
  sink: OutputSink,
): Promise<number> {
  const shown = displayPath(args.plan);
  let text: string;
  try {
    text = readTextFileSync(args.plan, MAX_PLAN_BYTES);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    sink.stderr.write(`rlm-plan: cannot read the plan ${shown}${code !== undefined ? ` (${code})` : ""}\n`);
    return 2;
  }
  // A plan that does not parse would be refused by every worker at every iteration: said now.
  const problem = parsePlan({ kind: "document", text }).problems[0];
  if (problem) {
    sink.stderr.write(
      `rlm-plan: ${shown} is not a valid plan (${lineText(problem.message)}); rlm-plan check ${shown} says where\n`,
    );
    return 2;
  }
  const spec = {
    name: args.name,
    cron: args.cron,
    ...(args.tz !== undefined ? { tz: args.tz } : {}),
    plan: { name: shown, text },
    ...(args.inputs ? { inputs: args.inputs } : {}),
  };
  const job = scheduledJob(spec);
  if (typeof job === "string") {
    sink.stderr.write(`rlm-plan: ${lineText(job)}\n`);
    return 2;
  }
  const { next, workers } = await addSchedule(address, spec, job);
  sink.stdout.write(
    `scheduled ${args.name} on ${address.shown}: ${shown} at "${args.cron}" (${args.tz ?? "UTC"}), next run ${next === undefined ? "-" : timeText(next)}\n`,
  );
  if (workers === 0)
    sink.stderr.write(
      `rlm-plan: no worker listens on ${address.shown} yet: its runs wait for one (rlm-plan worker --queue URL)\n`,
    );
  return 0;
}

async function list(json: boolean, address: QueueAddress, sink: OutputSink): Promise<number> {
  const rows = await listSchedules(address);
  if (json) {
    sink.stdout.write(`${JSON.stringify({ queue: address.shown, schedules: rows.map(rowJson) }, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    sink.stdout.write(
      `no schedules on ${address.shown} (rlm-plan schedule add NAME --cron EXPR --plan FILE --queue URL)\n`,
    );
    return 0;
  }
  const table = [
    ["NAME", "CRON", "TZ", "PLAN", "NEXT RUN"],
    ...rows.map((r) => [r.name, r.cron, r.tz, r.plan, r.next === undefined ? "-" : timeText(r.next)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table)
    sink.stdout.write(
      `${lineText(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  "))}\n`,
    );
  return 0;
}

function rowJson(row: ScheduleRow) {
  return {
    name: row.name,
    cron: row.cron,
    tz: row.tz,
    plan: row.plan,
    next: row.next === undefined ? null : timeText(row.next),
    iterations: row.iterations,
  };
}

/** A due time as UTC ISO 8601 to the second. */
function timeText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}
