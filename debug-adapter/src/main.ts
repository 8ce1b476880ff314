// `rlm-plan-debug-adapter`: the debug adapter over stdin/stdout, for any DAP client. Messages are
// read by the core's Content-Length framer, not the library's: a malformed frame (a body that is
// not JSON, `null`, a negative or missing length) is skipped and said on stderr, where the
// library's reader ended the adapter (exit 0) or lost every later message.

import { PassThrough } from "node:stream";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ContentLengthFrames } from "@rlm-plan/core/text";
import { adapterCommand } from "./commandLine";
import { RlmPlanDebugSession } from "./session";

/** The largest message read: a launch's arguments or a setBreakpoints' source are far smaller. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function runDebugAdapter(argv: readonly string[] = process.argv.slice(2)): void {
  const command = adapterCommand(argv);
  if (command.kind === "print") {
    (command.stream === "stdout" ? process.stdout : process.stderr).write(command.text);
    process.exitCode = command.status;
    return;
  }
  const session = new RlmPlanDebugSession();
  process.on("SIGTERM", () => session.shutdown());
  // The library writes to stdout; its own reader is given a stream that never speaks.
  session.start(new PassThrough(), process.stdout);
  const frames = new ContentLengthFrames(MAX_MESSAGE_BYTES);
  process.stdin.on("data", (chunk: Buffer) => {
    for (const frame of frames.push(chunk)) {
      if (frame.kind === "malformed") process.stderr.write(`rlm-plan-debug-adapter: ${frame.reason}\n`);
      else session.handleMessage(frame.message as DebugProtocol.ProtocolMessage);
    }
  });
  process.stdin.on("close", () => session.shutdown());
  process.stdin.resume();
}

if (require.main === module) runDebugAdapter();
