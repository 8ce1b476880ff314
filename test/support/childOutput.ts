// A child process's exit status and everything it wrote, for tests of the real commands.

import type { ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";

export interface ChildOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Collects stdout and stderr as text until the child closes. */
export function childOutput(child: ChildProcessByStdio<null, Readable, Readable>): Promise<ChildOutput> {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.on("close", (code) => done({ code, stdout, stderr })));
}
