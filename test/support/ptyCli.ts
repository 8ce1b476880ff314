// The CLI as a real process on a pseudo-terminal, as a person at a terminal meets it: util-linux's
// `script` (in bsdutils, which Debian and Ubuntu install on every machine) runs the command on a
// new terminal, copies what the test types to it and what it shows back. Waits are on what the
// screen shows, never on time.

import { spawn } from "node:child_process";
import { CLI } from "./cliWorkspace";

export interface PtyCli {
  /** Everything the terminal showed so far, line ends as "\n". */
  screen(): string;
  /** Resolves to the screen once `pattern` matches it; rejects, with the screen, if the CLI exits first. */
  until(pattern: RegExp): Promise<string>;
  /** Types a line and Enter. */
  type(line: string): void;
  /** Ctrl-C, as the terminal sends it. */
  interrupt(): void;
  /** The CLI's exit status and the whole screen. */
  readonly exit: Promise<{ readonly code: number | null; readonly screen: string }>;
  /** Ends the terminal (the CLI gets its hang-up) if it still runs: for a test that failed halfway. */
  stop(): void;
}

/**
 * Runs `rlm-plan ARGS` in `cwd` on a terminal; `shell` (when given) is the command line instead,
 * with `$CLI` the CLI's command, to give it a stdin of its own. The environment is the test's
 * without CI (a person is at this terminal), plus `env`.
 */
export function ptyCli(
  cwd: string,
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly shell?: string } = {},
): PtyCli {
  const command = [process.execPath, CLI, ...args].map(quoted).join(" ");
  const line = options.shell === undefined ? command : options.shell.replace("$CLI", command);
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", SHELL: "/bin/sh", ...options.env };
  if (options.env?.["CI"] === undefined) delete env["CI"];
  // -q: no "Script started" lines; -e: script's status is the command's; /dev/null: no typescript file.
  const child = spawn("script", ["-qec", line, "/dev/null"], { cwd, env, stdio: ["pipe", "pipe", "inherit"] });
  let shown = "";
  const waiters = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    shown += chunk.replace(/\r\n/g, "\n");
    for (const check of waiters) check();
  });
  const exit = new Promise<{ code: number | null; screen: string }>((done) =>
    child.on("close", (code) => {
      for (const check of waiters) check();
      done({ code, screen: shown });
    }),
  );
  let exited = false;
  void exit.then(() => (exited = true));
  child.stdin.on("error", () => undefined); // typed after the exit: nothing reads it
  return {
    screen: () => shown,
    until(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(shown)) {
            waiters.delete(check);
            resolve(shown);
          } else if (exited || child.exitCode !== null) {
            waiters.delete(check);
            reject(new Error(`the CLI exited before the terminal showed ${pattern}:\n${shown}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    type: (text) => void child.stdin.write(`${text}\r`),
    interrupt: () => void child.stdin.write("\u0003"),
    exit: exit.finally(() => child.stdin.end()),
    stop: () => void (child.exitCode === null && child.signalCode === null && child.kill("SIGTERM")),
  };
}

function quoted(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
