// `rlm-plan run`'s side of a run's life, which the session owns: who starts the run and what the
// user opted out of (--no-journal, --journal DIR, --otlp URL), the options recorded for a resume,
// and the recorded run of `--resume RUN` and `--from RUN` (found and read by the core) as arguments.

import { relative, resolve } from "node:path";
import { newJsonObject, type JsonObject } from "@rlm-plan/core/json";
import type * as Journal from "@rlm-plan/core/journal";

/** The journal's modules (its store, its recorder's node:crypto) for a run that records or resumes only. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const journal = () => require("@rlm-plan/core/journal") as typeof Journal;
import type { ParallelMode } from "@rlm-plan/core/run";
import { openRecordedRun, type RecordedRef, type RecordedRun, type RunLife } from "@rlm-plan/core/session";

export interface JournalArgs {
  readonly plan: string;
  readonly host: string | undefined;
  readonly inputs: Record<string, string>;
  /** Inline input values (--input-text, --input-json, --inputs). */
  readonly inputValues: JsonObject;
  readonly mocks: string | undefined;
  readonly parallel: ParallelMode | undefined;
  /** --journal DIR. */
  readonly journal: string | undefined;
  /** --no-journal. */
  readonly noJournal: boolean;
  /** --resume RUN. */
  readonly resume: number | undefined;
  /** --otlp URL. */
  readonly otlp: string | undefined;
  /** --as NAME. */
  readonly as?: string;
  /** --wait: this process waits for the approvers (`runs approve` then leaves the resume to it). */
  readonly wait?: boolean;
}

interface Writer {
  write(text: string): unknown;
}

/**
 * For --resume (and --from, `fork`): the run's recorded plan, host profile and options as
 * arguments, with the recorded run for the session to resume (its journal open) or fork; or an
 * exit status after saying why not.
 */
export function resumeArgs<A extends JournalArgs>(
  args: A,
  stderr: Writer,
  fork?: number,
): { args: A; resuming: RecordedRun } | number {
  const id = fork ?? (args.resume as number);
  const option = fork === undefined ? "--resume" : "--from";
  const verb = fork === undefined ? "resume" : "fork";
  const dir =
    args.journal !== undefined
      ? journal().namedJournalDir(args.journal)
      : journal().journalFrom(process.cwd(), args.plan || undefined);
  if (typeof dir !== "string") {
    stderr.write(
      dir.length === 0
        ? `rlm-plan: ${option}: no run journal here (.rlm-plan/ in this folder, above it or below it, or beside a host profile); pass --journal DIR\n`
        : `rlm-plan: ${option}: no run journal here, and ${dir.length} below: ${dir.map(shown).join(", ")}; pass --journal DIR\n`,
    );
    return 2;
  }
  const found = openRecordedRun(
    dir,
    id,
    fork === undefined ? "resume" : "fork",
    (notice) => void stderr.write(`rlm-plan: ${notice}\n`),
  );
  const plan = found.ok ? (found.run.planFile as string) : "";
  if (found.ok && args.plan !== "" && relative(args.plan, plan) !== "") {
    found.run.store?.close();
    stderr.write(`rlm-plan: cannot resume: run ${id} ran the plan ${plan}, not ${args.plan}\n`);
    return 1;
  }
  if (!found.ok) {
    stderr.write(`rlm-plan: ${found.kind === "refused" ? `cannot ${verb}: ` : ""}${found.message}\n`);
    return found.kind === "refused" ? 1 : 2;
  }
  const { run } = found;
  const { options } = run;
  return {
    args: {
      ...args,
      plan,
      host: run.hostFile,
      inputs: Object.assign(Object.create(null) as Record<string, string>, options.inputs ?? {}),
      inputValues: Object.assign(newJsonObject(), options.inputValues ?? {}),
      mocks: options.mocks,
      parallel: options.parallel,
    },
    resuming: run,
  };
}

/** Who starts the run and what the user asked of its journal and trace: the session attaches them. */
export function runLife(args: JournalArgs, stderr: Writer): RunLife {
  return {
    origin: "cli",
    given: recordedOptions(args),
    ...(args.noJournal
      ? { journal: false as const }
      : args.journal !== undefined
        ? { journal: { dir: args.journal } }
        : {}),
    ...(args.otlp !== undefined ? { otlp: args.otlp } : {}),
    ...(args.as !== undefined ? { startedBy: args.as } : {}),
    onNotice: (message) => void stderr.write(`rlm-plan: ${message}\n`),
  };
}

/** What the run's last lines say of its journal entry (RunArgs' recorded fields). */
export function recordedArgs(recorded: Pick<RecordedRef, "dir" | "id">): {
  recordedAs: number;
  recordedWhere: string;
  recordedJournal: string;
} {
  // What `runs show N` and `run --resume N` typed here would read.
  const found = journal().journalFrom(process.cwd());
  const journalOption =
    typeof found === "string" && resolve(found) === resolve(recorded.dir)
      ? ""
      : ` --journal ${shellWord(shown(recorded.dir))}`;
  return {
    recordedAs: recorded.id,
    recordedWhere: `run ${recorded.id} in ${shown(recorded.dir)}`,
    recordedJournal: journalOption,
  };
}

/**
 * What a resume needs to run the same way again: inputs, mocks and parallel mode as given. Files
 * under `inputs` (paths), values under `input_values`, the key a test case's run uses too.
 */
function recordedOptions(args: JournalArgs): JsonObject {
  const inputs: JsonObject = {};
  for (const [name, file] of Object.entries(args.inputs)) inputs[name] = resolve(file);
  return {
    ...(Object.keys(inputs).length > 0 ? { inputs } : {}),
    ...(Object.keys(args.inputValues).length > 0 ? { input_values: args.inputValues } : {}),
    ...(args.mocks !== undefined ? { mocks: resolve(args.mocks) } : {}),
    ...(args.parallel !== undefined ? { parallel: args.parallel } : {}),
    ...(args.wait ? { wait: true } : {}),
  };
}

function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel !== "" && !rel.startsWith("..") ? rel : dir;
}

/** A path as a shell reads it back whole: quoted when it holds anything but plain path characters. */
function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
