// `rlm-plan worker --queue redis://HOST:PORT/QUEUE`: a long-running worker that takes plan-run
// jobs from a BullMQ queue and runs each under its OWN host profile (--host, or the nearest
// rlmplan.host.json), --concurrency at a time. It says what it does on stderr (ready, each job,
// a health line every --health-interval seconds); a malformed job is refused (failed, never
// retried) and the worker goes on; SIGTERM or SIGINT stop taking jobs and finish the ones in
// flight; a second signal cancels them and hands them back to the queue for another worker.

import { hostname } from "node:os";
import type { Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { journalDirOf, JournalStore } from "@rlm-plan/core/journal";
import { addSessionSecrets, openPlanSessionSync } from "@rlm-plan/core/session";
import { lineText } from "../guardedOutput";
import { openSink, type OutputSink } from "../sink";
import { displayPath, usageErrorText } from "../output";
import { readOptions } from "../options";
import { answeredWithin, connectClient, connectionOf, KEY_PREFIX, REDIS_TIMEOUT_MS } from "./bullmq";
import { planWorkerClass } from "./planWorker";
import {
  parseQueueUrl,
  PASSWORD_FILE_OPTION,
  QUEUE_URL_FORM,
  REDIS_PASSWORD_ENV,
  type QueueAddress,
  withPassword,
} from "./queueUrl";
import { awaitsApproval, runPlanJob, type WorkerContext } from "./workerJob";
import { handBackWaiting } from "./approvalWait";
import type { PlanJobResult } from "./planJob";

export const WORKER_USAGE =
  "usage: rlm-plan worker --queue redis://HOST:PORT/QUEUE [--redis-password-file FILE] [--host FILE] [--concurrency N]\n                       [--name NAME] [--journal DIR | --no-journal] [--lock-ms N] [--health-interval SECONDS]";

export const WORKER_HELP = `rlm-plan worker: run plan jobs from a queue (BullMQ on Redis), under this machine's host profile

${WORKER_USAGE}

Any number of workers, on any machines, take jobs from one queue: \`rlm-plan run --queue URL\`
and \`rlm-plan test --queue URL\` put them there. A job names a plan (its text) and its inputs
and mocks; what the plan may use (capabilities, budget, tools, providers, keys) is this
worker's host profile, never the job's.

options:
  --queue URL             ${QUEUE_URL_FORM}; a password in it is shown as ***
  --redis-password-file FILE
                          the Redis password: the file's first line (or set ${REDIS_PASSWORD_ENV};
                          either keeps it out of ps, which shows a URL's password)
  --host FILE             the host profile (default: the nearest ${"rlmplan.host.json"} in this folder or above)
  --concurrency N         run N jobs at a time (default 1)
  --name NAME             how this worker is named in results and logs (default HOST:PID)
  --journal DIR           record each job's run in the journal in DIR (default: .rlm-plan/ beside
                          the host profile); workers sharing one journal resume a dead worker's
                          job from its recorded steps
  --no-journal            record nothing (a retried job then runs again from the start)
  --lock-ms N             how long a job stays taken without news from its worker (default 30000):
                          a worker that dies, its jobs go to another worker after about this long
  --health-interval S     a health line every S seconds (default 60; 0: none)
  -h, --help              show this help

SIGTERM or SIGINT: take no new job, finish the jobs in flight, exit 0. A second signal cancels
them and hands them back to the queue (another worker runs them again). Redis then has 5 s to
take their ends; if it does not answer, the worker stops without it (exit 1).

exit status: 0 stopped by a signal after its jobs, 1 stopped by a signal with Redis not answering,
             2 usage error, bad host profile or Redis unreachable`;

interface WorkerArgs {
  readonly address: QueueAddress;
  /** --redis-password-file FILE. */
  readonly passwordFile?: string;
  readonly host?: string;
  readonly concurrency: number;
  readonly name: string;
  readonly journal?: string;
  readonly noJournal: boolean;
  readonly lockMs: number;
  readonly healthSeconds: number;
}

export interface WorkerIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: NodeJS.ProcessEnv;
}

/** Runs `rlm-plan worker` until a signal stops it. Never throws; resolves to the exit status. */
export async function workerCommand(argv: readonly string[], unguarded: WorkerIo): Promise<number> {
  const env = unguarded.env ?? process.env;
  // A stderr whose reader has gone (`worker ... 2>&1 | head`) fails every write with EPIPE: left
  // unhandled, each became an uncaught error the worker reported on stderr again, a busy loop
  // that never saw SIGTERM. The worker goes on unheard and still stops on a signal.
  (unguarded.stderr as Partial<NodeJS.EventEmitter>).on?.("error", () => undefined);
  const sink = openSink(unguarded, { env });
  try {
    return await startWorker(argv, env, sink);
  } finally {
    sink.end();
    // A stopped worker leaves no process behind: what BullMQ and ioredis may still hold (timers
    // reconnecting to a Redis that is gone) does not keep it alive past this second. Unref'd, so
    // a worker whose connections all closed exits at once, by itself.
    setTimeout(() => process.exit(), 1000).unref();
  }
}

async function startWorker(argv: readonly string[], env: NodeJS.ProcessEnv, sink: OutputSink): Promise<number> {
  const { stderr, mask } = sink;
  const say = (line: string) => void stderr.write(`rlm-plan worker: ${lineText(line)}\n`);
  const parsed = parseWorkerArgs(argv);
  if (parsed === "help") {
    sink.stdout.write(`${WORKER_HELP}\n`);
    return 0;
  }
  if (typeof parsed === "string") {
    stderr.write(usageErrorText(parsed, "worker"));
    return 2;
  }
  const address = withPassword(parsed.address, parsed.passwordFile, env);
  if (typeof address === "string") {
    stderr.write(usageErrorText(address, "worker"));
    return 2;
  }
  const args: WorkerArgs = { ...parsed, address };
  if (args.address.password !== undefined) addSessionSecrets(mask, { env, clientValues: [args.address.password] });
  const opened = openPlanSessionSync({ ...(args.host !== undefined ? { hostProfile: args.host } : {}), env, mask });
  if (!opened.ok) {
    const { failure } = opened;
    if (failure.kind === "invalid_host_profile")
      for (const e of failure.errors)
        stderr.write(`${displayPath(e.file)}:${e.line}:${e.column}: ${lineText(e.message)}\n`);
    else
      stderr.write(
        `rlm-plan: ${failure.kind === "no_host_profile" ? `${failure.message}; pass --host FILE` : failure.kind}\n`,
      );
    return 2;
  }
  const profileFile = opened.session.hostProfile as string;
  const profile = opened.session.profile;
  // Each job's session records its run; the journal is opened once here so that a journal that
  // cannot be used is said once, and the jobs then run unrecorded.
  let journal: WorkerContext["journal"] = false;
  if (!args.noJournal && (profile?.journal?.enabled !== false || args.journal !== undefined)) {
    try {
      const store = JournalStore.open(args.journal ?? journalDirOf(profileFile));
      for (const notice of store.notices) say(notice);
      journal = { dir: store.dir };
      store.close();
    } catch (error) {
      say(`jobs are not recorded: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let redis: Redis;
  try {
    redis = await connectClient(args.address);
  } catch (error) {
    say(`cannot reach Redis at ${args.address.shown}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  if (!profile) return 2;
  const context: WorkerContext = {
    profileFile,
    profile,
    name: args.name,
    queue: args.address.queue,
    env,
    mask,
    redis,
    journal,
    say,
  };
  try {
    return await serve(args, context, say);
  } finally {
    redis.disconnect();
  }
}

async function serve(args: WorkerArgs, context: WorkerContext, say: (line: string) => void): Promise<number> {
  const Worker = planWorkerClass();
  const running = new Map<string, AbortController>();
  let onIdle: (() => void) | undefined;
  const counts = { done: 0, failed: 0, refused: 0 };
  let stopping = 0;
  const processor = async (job: Job, token?: string): Promise<PlanJobResult> => {
    const id = job.id ?? "?";
    // Said once when it began waiting; each later look is silent.
    if (awaitsApproval(job, context)) return handBackWaiting(job, token);
    const controller = new AbortController();
    running.set(id, controller);
    say(`job ${id}: attempt ${Math.max(1, job.attemptsStarted)} started (${running.size} running)`);
    try {
      const result = await runPlanJob(job, token, context, controller.signal);
      if (controller.signal.aborted)
        throw new Error(`handed back: the worker ${args.name} stopped before the job ended; another worker runs it`);
      return result;
    } finally {
      running.delete(id);
      if (running.size === 0) onIdle?.();
    }
  };
  const worker: Worker = new Worker(args.address.queue, processor, {
    connection: connectionOf(args.address, "blocking"),
    prefix: KEY_PREFIX,
    concurrency: args.concurrency,
    lockDuration: args.lockMs,
    stalledInterval: Math.max(500, Math.floor(args.lockMs / 2)),
    maxStalledCount: 3,
    name: args.name,
    autorun: false,
  });
  worker.on("completed", (job: Job, result: PlanJobResult) => {
    if (result.kind === "refused") {
      counts.refused++;
      const { error } = result.report.outcome as { error?: { phase: string; kind: string; message: string } };
      say(
        `job ${job.id ?? "?"}: refused: the plan failed its check on this worker${error ? ` (${error.phase}/${error.kind}: ${error.message})` : ""}`,
      );
      return;
    }
    counts.done++;
    const verdict =
      result.kind === "case"
        ? result.verdict.ok
          ? "passed"
          : "failed"
        : result.report.outcome.ok
          ? "ok"
          : "run failed";
    say(
      `job ${job.id ?? "?"}: done (${verdict}${result.resumed !== undefined ? `, resumed journal run ${result.resumed}` : ""})`,
    );
  });
  worker.on("failed", (job: Job | undefined, error: Error) => {
    const malformed = error.name === "UnrecoverableError";
    if (malformed) counts.refused++;
    else counts.failed++;
    say(`job ${job?.id ?? "?"}: ${malformed ? "refused" : "failed"}: ${error.message.slice(0, 2000)}`);
  });
  worker.on("error", (error: Error) => say(`queue error (the worker goes on): ${error.message}`));

  const started = Date.now();
  const health = () =>
    say(
      `health: ${running.size} running, ${counts.done} done, ${counts.failed} failed, ${counts.refused} refused; up ${Math.round((Date.now() - started) / 1000)} s${stopping ? "; stopping" : ""}`,
    );
  const timer = args.healthSeconds > 0 ? setInterval(health, args.healthSeconds * 1000) : undefined;
  timer?.unref();

  const stopped = new Promise<number>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      stopping++;
      if (stopping === 1) {
        say(`${signal}: taking no new job; finishing the ${running.size} in flight (a second signal hands them back)`);
        const idle = new Promise<void>((done) => (running.size === 0 ? done() : (onIdle = done)));
        void closeWithin(worker, idle).then((closed) => {
          health();
          if (!closed)
            say(
              `Redis at ${args.address.shown} did not answer within ${REDIS_TIMEOUT_MS / 1000} s: stopped without it (a job whose end it did not store goes to another worker after --lock-ms)`,
            );
          say("stopped");
          resolve(closed ? 0 : 1);
        });
        return;
      }
      say(`${signal}: cancelling the ${running.size} jobs in flight; they go back to the queue`);
      for (const controller of running.values()) controller.abort();
    };
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, onSignal);
  });
  // A failure of one job's code must not take the worker (and the other jobs) down.
  const stray = (error: unknown) =>
    say(`internal error (the worker goes on): ${error instanceof Error ? error.message : String(error)}`);
  process.on("uncaughtException", stray);
  process.on("unhandledRejection", stray);

  void worker.run().catch((error: unknown) => stray(error));
  try {
    await answeredWithin(args.address, worker.waitUntilReady(), () => void worker.disconnect());
  } catch (error) {
    say(`cannot reach Redis at ${args.address.shown}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  say(
    `ready: queue ${args.address.shown}, host profile ${displayPath(context.profileFile)}, concurrency ${args.concurrency}, worker ${args.name}, journal ${context.journal ? displayPath(context.journal.dir) : "off"}`,
  );
  const code = await stopped;
  if (timer) clearInterval(timer);
  return code;
}

/**
 * Closes the worker: its jobs in flight end first (their runs need no Redis), then Redis has
 * REDIS_TIMEOUT_MS to take their ends and let go. Without an answer the worker's connections are
 * dropped and it stops anyway: SIGTERM is honoured whatever Redis does. True when Redis answered.
 */
async function closeWithin(worker: Worker, idle: Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const silent = idle.then(
    () => new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), REDIS_TIMEOUT_MS))),
  );
  const closed = await Promise.race([worker.close().then(() => true as const), silent]);
  clearTimeout(timer);
  if (!closed) void worker.disconnect().catch(() => undefined);
  return closed;
}

function parseWorkerArgs(argv: readonly string[]): WorkerArgs | "help" | string {
  const options = readOptions(argv, {
    values: {
      "--queue": QUEUE_URL_FORM,
      "--host": "a FILE",
      "--concurrency": "a number",
      "--name": "a NAME",
      "--journal": "a DIR",
      "--lock-ms": "milliseconds",
      "--health-interval": "seconds",
      [PASSWORD_FILE_OPTION]: "a FILE",
    },
    flags: ["--no-journal", "--help", "-h"],
    nonEmpty: [
      "--queue",
      "--host",
      "--concurrency",
      "--name",
      "--journal",
      "--lock-ms",
      "--health-interval",
      PASSWORD_FILE_OPTION,
    ],
  });
  if (typeof options === "string") return options;
  if (options.flags.has("--help") || options.flags.has("-h")) return "help";
  if (options.positionals.length > 0) return `worker takes no ${options.positionals[0]}: the jobs name the plans`;
  const url = options.values.get("--queue");
  if (url === undefined) return `worker needs --queue ${QUEUE_URL_FORM}`;
  const address = parseQueueUrl(url);
  if (typeof address === "string") return address;
  const number = (flag: string, fallback: number, min: number, max: number): number | string => {
    const text = options.values.get(flag);
    if (text === undefined) return fallback;
    const value = Number(text);
    return /^[0-9]+$/.test(text) && value >= min && value <= max
      ? value
      : `${flag} needs a number from ${min} to ${max}`;
  };
  const concurrency = number("--concurrency", 1, 1, 256);
  const lockMs = number("--lock-ms", 30_000, 1000, 3_600_000);
  const healthSeconds = number("--health-interval", 60, 0, 86_400);
  for (const n of [concurrency, lockMs, healthSeconds]) if (typeof n === "string") return n;
  const journal = options.values.get("--journal");
  const noJournal = options.flags.has("--no-journal");
  if (journal !== undefined && noJournal) return "--journal and --no-journal cannot be given together";
  const host = options.values.get("--host");
  const passwordFile = options.values.get(PASSWORD_FILE_OPTION);
  return {
    address,
    ...(passwordFile !== undefined ? { passwordFile } : {}),
    concurrency: concurrency as number,
    lockMs: lockMs as number,
    healthSeconds: healthSeconds as number,
    name: options.values.get("--name") ?? `${hostname()}:${process.pid}`,
    noJournal,
    ...(host !== undefined ? { host } : {}),
    ...(journal !== undefined ? { journal } : {}),
  };
}
