// The CLI tests' set-up: the built `rlm-plan` run in a child process (NO_COLOR, from a given
// folder), and a temporary folder to write plans and host profiles into, removed after the test
// file's tests.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after } from "node:test";
import { childOutput, type ChildOutput } from "./childOutput";

// Compiled to test/out/support: the repository root is three levels up.
export const ROOT = resolve(__dirname, "..", "..", "..");
/** The compiled CLI's entry: what most CLI tests run (no bundle needed). */
export const CLI = join(ROOT, "cli", "out", "main.js");
/** The committed shim users run (`npx rlm-plan`): the bundle when built, else the compiled entry. */
export const CLI_BIN = join(ROOT, "cli", "bin", "rlm-plan.js");
/** The compiled `run` command's module, for tests that drive `runCommand` in a child of their own. */
export const CLI_RUN_MODULE = join(ROOT, "cli", "out", "run.js");

/** What a static `check` says when a host profile applies: it started nothing, and what it left to --preflight. */
export const LEFT_TO_PREFLIGHT =
  "static check, no program started; left to --preflight: MCP tool lists and argument schemas, programs, provider keys, input files";

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What `--json` printed one object a line (`run --json`'s transitions, events and result), each parsed. */
export function jsonLines<T = Record<string, unknown>>(stdout: string): T[] {
  return stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as T);
}

/** Runs the CLI with `args` from the folder `cwd` and waits for it to exit. */
export function runCli(cwd: string, args: readonly string[]): CliRun {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The CLI as a child process that does not block this one (a server the test runs answers
 * from it), with `env` over the test's environment.
 */
export function runCliAsync(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ChildOutput> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childOutput(child);
}

export interface CliWorkspace {
  /** The temporary folder; `cli` and `check` run from it. */
  readonly dir: string;
  /** Writes `text` at `path` (relative to `dir`; folders made as needed); returns the absolute path. */
  write(path: string, text: string): string;
  /** The CLI with `args`, run from `dir`. */
  cli(...args: string[]): CliRun;
  /** `rlm-plan check` with `args`, run from `dir`. */
  check(...args: string[]): CliRun;
}

/** A fresh temporary folder named `rlm-plan-<name>-…`, removed after the calling file's tests. */
export function cliWorkspace(name: string): CliWorkspace {
  const dir = mkdtempSync(join(tmpdir(), `rlm-plan-${name}-`));
  after(() => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A path past PATH_MAX (check.watch-hostile's tree) is beyond rmSync, which goes by whole
      // paths; rm walks folder by folder.
      spawnSync("rm", ["-rf", dir]);
    }
  });
  return {
    dir,
    write(path, text) {
      const file = join(dir, path);
      mkdirSync(join(file, ".."), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    cli: (...args) => runCli(dir, args),
    check: (...args) => runCli(dir, ["check", ...args]),
  };
}
