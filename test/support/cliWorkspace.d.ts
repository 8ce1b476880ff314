import { type ChildOutput } from "./childOutput";
export declare const ROOT: string;
export declare const CLI: string;
/** What a static `check` says when a host profile applies: it started nothing, and what it left to --preflight. */
export declare const LEFT_TO_PREFLIGHT = "static check, no program started; left to --preflight: MCP tool lists and argument schemas, programs, provider keys, input files";
export interface CliRun {
    readonly code: number | null;
    readonly stdout: string;
    readonly stderr: string;
}
/** Runs the CLI with `args` from the folder `cwd` and waits for it to exit. */
export declare function runCli(cwd: string, args: readonly string[]): CliRun;
/**
 * The CLI as a child process that does not block this one (a server the test runs answers
 * from it), with `env` over the test's environment.
 */
export declare function runCliAsync(cwd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<ChildOutput>;
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
export declare function cliWorkspace(name: string): CliWorkspace;
