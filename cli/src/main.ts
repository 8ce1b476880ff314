#!/usr/bin/env node
// rlm-plan: check, estimate, graph, run, propose and pin (lock) typed LLM plans from the command line. Results go
// to stdout, notes and failures to stderr. Exit status: 0 fine, 1 problems or a failed run, 2
// usage or internal error. Nothing throws past main: an unexpected error is one line on stderr.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { takeAllowPaths } from "./allowPaths";
import { CHECK_HELP, ESTIMATE_HELP, HELP, parseArgs } from "./args";
import { directOutput } from "./directOutput";
import { sinkIo, styleFor, usageErrorText, type Io } from "./output";
import { openSink } from "./sink";

// Each command's modules are required when that command runs, never at start: a `check` then
// loads no child_process, journal, OpenTelemetry or test runner, and `--version` none of them
// (a pre-commit hook or a `--watch` loop pays the start on every call). Plain requires, not
// import(): `check` runs synchronously, and in the bundle each stays a lazy module init.
/* eslint-disable @typescript-eslint/no-require-imports */
const commands = {
  check: () => require("./check") as typeof import("./check"),
  estimate: () => require("./estimate") as typeof import("./estimate"),
  graph: () => require("./graph") as typeof import("./graph"),
  lock: () => require("./lock") as typeof import("./lock"),
  propose: () => require("./propose") as typeof import("./propose"),
  run: () => require("./run") as typeof import("./run"),
  runs: () => require("./runs") as typeof import("./runs"),
  signals: () => require("./signals") as typeof import("./signals"),
  test: () => require("./planTests/testCommand") as typeof import("./planTests/testCommand"),
  worker: () => require("./queue/workerCommand") as typeof import("./queue/workerCommand"),
  ui: () => require("./ui/uiCommand") as typeof import("./ui/uiCommand"),
  export: () => require("./ui/htmlExport") as typeof import("./ui/htmlExport"),
  schedule: () => require("./queue/scheduleCommand") as typeof import("./queue/scheduleCommand"),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export function main(argv: readonly string[], io: Io): number {
  const command = parseArgs(argv);
  switch (command.kind) {
    case "usage":
      // check's and estimate's own mistakes point at their own help.
      io.err(usageErrorText(command.message, argv[0] === "check" || argv[0] === "estimate" ? argv[0] : undefined));
      return 2;
    case "help":
      io.out(`${command.topic === "check" ? CHECK_HELP : command.topic === "estimate" ? ESTIMATE_HELP : HELP}\n`);
      return 0;
    case "version":
      io.out(`rlm-plan ${version()}\n`);
      return 0;
    case "check":
      return commands.check().runCheck(command, io, version());
    case "estimate":
      return commands.estimate().runEstimate(command, io);
  }
}

/** The version of the package this file was built into: out/main.js -> package.json. */
function version(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as {
    version?: unknown;
  };
  if (typeof manifest.version !== "string") throw new Error("package.json has no version");
  return manifest.version;
}

/** Runs the CLI on this process: its arguments, streams and exit status. For a bin shim too. */
export function runCli(given: readonly string[] = process.argv.slice(2)): void {
  const internalError = (error: unknown) => {
    lastWords(`rlm-plan: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  };
  // Before any command reads a workspace file: the folders outside it the user allows.
  const allowed = takeAllowPaths(given);
  if ("error" in allowed) {
    lastWords(usageErrorText(allowed.error));
    process.exitCode = 2;
    return;
  }
  const argv = allowed.argv;
  // Commands that run plans (and check --watch) are asynchronous and own Ctrl-C: it cancels
  // the run, and tool processes are gone before they return. Plain `check` is synchronous and
  // starts nothing; `check --preflight` is asynchronous (it starts MCP servers to list tools).
  const asyncCommand = commandRunner(argv);
  if (asyncCommand) {
    stdout(); // they write to process.stdout themselves
    let running: Promise<number>;
    try {
      running = asyncCommand(argv.slice(1));
    } catch (error) {
      internalError(error);
      return;
    }
    running.then((code) => {
      process.exitCode = code;
    }, internalError);
    return;
  }
  // The synchronous commands print a few lines: written directly, without Node's streams (directOutput.ts).
  const out = directOutput(1, stdout);
  const sink = openSink({ stdout: out, stderr: directOutput(2, () => process.stderr) });
  try {
    process.exitCode = main(argv, sinkIo(sink, styleFor(out, process.env)));
  } catch (error) {
    internalError(error);
  } finally {
    sink.end();
  }
}

/** A line for stderr when nothing else can be said (an internal error, a broken stdout): through a sink too. */
function lastWords(text: string): void {
  const sink = openSink({ stdout: { write: () => true }, stderr: process.stderr });
  sink.stderr.write(text);
  sink.end();
}

/** process.stdout, with the handler of a closed pipe (`rlm-plan check ... | head`): no stack trace for it. */
function stdout(): NodeJS.WriteStream {
  const stream = process.stdout;
  if (stream.listeners("error").includes(onStdoutError)) return stream;
  return stream.on("error", onStdoutError);
}

function onStdoutError(error: NodeJS.ErrnoException): void {
  if (error.code === "EPIPE") return;
  lastWords(`rlm-plan: cannot write output: ${error.message}\n`);
  process.exitCode = 2;
}

/** A stream as the write function `propose` opens its output sink over. */
function writer(stream: NodeJS.WriteStream): (text: string) => void {
  return (text) => void stream.write(text);
}

/** The output sink of an asynchronous command that is given an Io: Node's streams; ended when the command is. */
async function withStreamIo(command: (io: Io) => Promise<number>, styleOf = stdout): Promise<number> {
  const sink = openSink({ stdout: stdout(), stderr: process.stderr });
  try {
    return await command(sinkIo(sink, styleFor(styleOf(), process.env)));
  } finally {
    sink.end();
  }
}

/** Runs a command that serves until Ctrl-C (or SIGTERM): the signal ends it, and it returns its status. */
async function untilSignal(command: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    return await command(controller.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

function commandRunner(argv: readonly string[]): ((args: readonly string[]) => Promise<number>) | undefined {
  switch (argv[0]) {
    case "check": {
      const command = parseArgs(argv);
      if (command.kind !== "check") return undefined;
      if (command.preflight)
        return () => withStreamIo((io) => commands.check().runCheckWithPreflight(command, io, version()));
      if (!command.watch) return undefined;
      return () =>
        withStreamIo((io) => {
          const controller = new AbortController();
          const stop = () => controller.abort();
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
          return commands
            .check()
            .watchCheck(command, io, version(), controller.signal)
            .finally(() => {
              process.off("SIGINT", stop);
              process.off("SIGTERM", stop);
            });
        });
    }
    case "run":
      return (args) => commands.run().runCommand(args, process);
    case "runs":
      return async (args) =>
        commands.export().isFormattedExport(args)
          ? commands.export().runsExportCommand(args.slice(1), process)
          : commands.runs().runsCommand(args, process);
    case "test":
      return (args) => commands.test().testCommand(args, process);
    case "worker":
      return (args) => commands.worker().workerCommand(args, process);
    case "ui":
      return (args) => untilSignal((signal) => commands.ui().uiCommand(args, process, signal));
    case "schedule":
      return (args) => commands.schedule().scheduleCommand(args, process);
    case "graph":
      // Its notes are styled for stderr: stdout holds the picture.
      return (args) =>
        withStreamIo(
          (io) => commands.graph().graphCommand(args, io),
          () => process.stderr,
        );
    case "lock":
      return (args) => withStreamIo((io) => commands.lock().lockCommand(args, io));
    case "propose":
      return async (args) => {
        const cancel = new (commands.signals().Cancellation)(process.stderr);
        try {
          // Writers the command opens its output sink over.
          const code = await commands.propose().proposeCommand(args, {
            stdout: writer(stdout()),
            stderr: writer(process.stderr),
            signal: cancel.signal,
          });
          return cancel.signal.aborted ? cancel.status : code;
        } finally {
          cancel.dispose();
        }
      };
    default:
      return undefined;
  }
}

if (require.main === module) runCli();
