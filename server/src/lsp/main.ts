#!/usr/bin/env node
// The `rlm-plan-language-server` command: starts the server on the transport the editor asks
// for (--stdio, --node-ipc, --socket=PORT or --pipe=NAME).

import { createConnection, ProposedFeatures, StreamMessageWriter } from "vscode-languageserver/node";
import { FramedMessageReader } from "./framedReader";
import { describeError } from "./guard";
import { SERVER_NAME, serverVersion, startServer } from "./server";
import { exitWithoutLeftovers } from "./shutdown";

const USAGE = `Usage: ${SERVER_NAME} --stdio | --node-ipc | --socket=PORT | --pipe=NAME

Language server for typed LLM plans (*.rlmplan.json, *.rlmplan) and their host profiles
(rlmplan.host.json): diagnostics, worst-case cost hovers, completion and more, over LSP.

  --stdio          talk LSP over standard input and output (what most editors use)
  --node-ipc       talk over Node's IPC channel (when started by a Node client with fork)
  --socket=PORT    connect to a client listening on a TCP port
  --pipe=NAME      connect to a client listening on a named pipe
  --version        print the version
  --help           print this help

Settings (section "rlmPlan"): hostProfile, hostProblemsAsErrors, validationDelay, listMcpTools,
maxAnalyzedSize, largePlanSize.
`;

const args = process.argv.slice(2);
const TRANSPORTS = ["--stdio", "--node-ipc", "--socket", "--pipe"];

if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(USAGE);
} else if (args.includes("--version")) {
  process.stdout.write(`${serverVersion()}\n`);
} else if (!args.some((arg) => TRANSPORTS.some((t) => arg === t || arg.startsWith(`${t}=`)))) {
  process.stderr.write(`${SERVER_NAME}: choose a transport\n\n${USAGE}`);
  process.exitCode = 2;
} else {
  // Over stdio the messages are read by our framer, which survives malformed frames (framedReader.ts).
  const connection = args.includes("--stdio")
    ? createConnection(
        ProposedFeatures.all,
        new FramedMessageReader(process.stdin),
        new StreamMessageWriter(process.stdout),
      )
    : createConnection(ProposedFeatures.all);
  // The guard catches what handlers throw; anything that still escapes is reported, loudly, and
  // the server keeps serving the other documents.
  process.on("uncaughtException", (error) => {
    process.stderr.write(`${SERVER_NAME}: uncaught exception: ${describeError(error)}\n`);
  });
  process.on("unhandledRejection", (reason) => {
    process.stderr.write(`${SERVER_NAME}: unhandled rejection: ${describeError(reason)}\n`);
  });
  exitWithoutLeftovers(args.includes("--stdio"));
  startServer(connection);
}
