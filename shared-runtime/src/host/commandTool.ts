// Command tools: a trusted program run without a shell. The tool's arguments go to its stdin as
// JSON, its result comes back as one JSON value on stdout. It sees only the environment the
// profile gives it, is killed with everything it started on timeout or cancellation, and every
// failure becomes an Error whose message is safe to show (the runtime reports it as tool_error).

import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, resolve } from "node:path";
import type { JsonValue } from "../json";
import type { ToolContext, ToolHandler } from "../run/host";
import { hugeArgumentsReason } from "../run/toolArgumentLimit";
import { parseJsonText } from "../text/jsonText";
import { shownPath } from "../text/shownPath";
import type { ProcessTracker } from "./processGroup";
import { SpareSandbox } from "./sandbox/spareSandbox";
import { sandboxHint, toolSandbox, type SandboxHost, type ToolSandbox } from "./sandbox/toolSandbox";
import { SandboxRefusal, spawnSupervised, type SupervisedProcess } from "./supervisedSpawn";
import type { CommandToolSpec } from "./profile";

export const COMMAND_TOOL_DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  maxStdoutBytes: 1024 * 1024,
  maxStderrBytes: 64 * 1024,
});

export interface CommandToolOptions {
  /** Where inheritEnv names are copied from, and PATH for finding the program; default process.env. */
  readonly hostEnv?: NodeJS.ProcessEnv;
  /** Records running processes so a host can kill them all when it closes. */
  readonly tracker?: ProcessTracker;
}

/**
 * A handler that runs `spec.command` once per call, in the sandbox `profile` gives it. Paths are
 * relative to the profile's folder.
 */
export function createCommandTool(
  spec: CommandToolSpec,
  profile: SandboxHost,
  options: CommandToolOptions = {},
): ToolHandler {
  const hostEnv = options.hostEnv ?? process.env;
  const cwd = resolve(profile.dir, spec.cwd ?? ".");
  const sandbox = toolSandbox(profile, spec);
  const env = toolEnv(spec, hostEnv);
  // Each call after the first finds its sandbox started (only for a tool whose owner ends it).
  const spares = sandbox !== undefined && options.tracker !== undefined ? new SpareSandbox(options.tracker) : undefined;
  const limits = {
    timeoutMs: spec.timeoutMs ?? COMMAND_TOOL_DEFAULTS.timeoutMs,
    maxStdoutBytes: spec.maxStdoutBytes ?? COMMAND_TOOL_DEFAULTS.maxStdoutBytes,
    maxStderrBytes: spec.maxStderrBytes ?? COMMAND_TOOL_DEFAULTS.maxStderrBytes,
  };
  return async (args, context) => {
    const program = findProgram(spec.command[0] ?? "", cwd, env.PATH ?? hostEnv.PATH ?? "");
    return runProgram(program, spec.command.slice(1), {
      shown: shownCommand(spec.command[0] ?? ""),
      cwd,
      env,
      args,
      context,
      limits,
      tracker: options.tracker,
      sandbox,
      spares,
    });
  };
}

/** Only spec.env and the inherited names: nothing else of the host's environment leaks. */
export function toolEnv(
  spec: Pick<CommandToolSpec, "env" | "inheritEnv">,
  hostEnv: NodeJS.ProcessEnv,
): Record<string, string> {
  const env = Object.create(null) as Record<string, string>;
  const set = (key: string, value: string) =>
    Object.defineProperty(env, key, { value, enumerable: true, writable: true, configurable: true });
  for (const name of spec.inheritEnv ?? []) {
    const value = Object.prototype.hasOwnProperty.call(hostEnv, name) ? hostEnv[name] : undefined;
    if (value !== undefined) set(name, value);
  }
  for (const [key, value] of Object.entries(spec.env ?? {})) set(key, value);
  return env;
}

/**
 * The program to run: a name with a slash is a path (relative to cwd); a bare name is looked up
 * on PATH here, so a tool without PATH in its environment can still be `node`.
 */
export function findProgram(name: string, cwd: string, path: string): string {
  if (name.includes("/") || isAbsolute(name)) return name;
  const found = programOnPath(name, cwd, path);
  if (found === undefined) throw new Error(`command ${JSON.stringify(name)} was not found on PATH`);
  return found;
}

/**
 * Why a command tool's program cannot run, checked before the run's first side effect (the
 * same resolution a call makes), or undefined when it resolves to an executable file.
 */
export function programProblem(
  spec: CommandToolSpec,
  profileDir: string,
  hostEnv: NodeJS.ProcessEnv,
): string | undefined {
  const name = spec.command[0] ?? "";
  const cwd = resolve(profileDir, spec.cwd ?? ".");
  if (name.includes("/") || isAbsolute(name)) {
    const file = resolve(cwd, name);
    try {
      if (!statSync(file).isFile()) return `its program ${JSON.stringify(name)} is not a file`;
      accessSync(file, constants.X_OK);
      return undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === "EACCES"
        ? `its program ${JSON.stringify(name)} is not executable`
        : `its program ${JSON.stringify(name)} does not exist (relative paths are relative to the tool's folder)`;
    }
  }
  const path = toolEnv(spec, hostEnv).PATH ?? hostEnv.PATH ?? "";
  return programOnPath(name, cwd, path) === undefined
    ? `its program ${JSON.stringify(name)} was not found on PATH`
    : undefined;
}

function programOnPath(name: string, cwd: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = resolve(cwd, dir, name);
    try {
      if (statSync(candidate).isFile()) {
        accessSync(candidate, constants.X_OK);
        return candidate;
      }
    } catch {
      // not here
    }
  }
  return undefined;
}

interface RunRequest {
  /** The program as messages name it (shownCommand). */
  readonly shown: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly args: JsonValue;
  readonly context: ToolContext;
  readonly limits: { readonly timeoutMs: number; readonly maxStdoutBytes: number; readonly maxStderrBytes: number };
  readonly tracker: ProcessTracker | undefined;
  readonly sandbox: ToolSandbox | undefined;
  readonly spares: SpareSandbox | undefined;
}

function runProgram(program: string, argv: readonly string[], request: RunRequest): Promise<JsonValue> {
  const { shown, cwd, env, args, context, limits, tracker, sandbox, spares } = request;
  if (context.signal.aborted) return Promise.reject(new Error("was cancelled before it started"));
  if (!isFolder(cwd))
    return Promise.reject(new Error(`its working folder ${JSON.stringify(shownPath(cwd))} does not exist`));
  const tooBig = hugeArgumentsReason(args);
  if (tooBig !== undefined) return Promise.reject(new Error(tooBig));

  return new Promise<JsonValue>((resolvePromise, rejectPromise) => {
    let supervised: SupervisedProcess;
    try {
      supervised = spawnSupervised({
        program,
        argv,
        cwd,
        env,
        sandbox,
        signal: context.signal,
        ...(spares ? { spares } : {}),
      });
    } catch (error) {
      rejectPromise(new Error(spawnErrorText(shown, error)));
      return;
    }
    const { child, group } = supervised;
    if (group) tracker?.add(group);

    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = Buffer.alloc(0);
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let failure: string | undefined;
    let settled = false;

    const settle = (result: { value: JsonValue } | { error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      context.signal.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const done = () => {
        // Tracked until its cgroup folder is gone, so that closing the host waits for that too.
        if (group) void group.release().then(() => tracker?.delete(group));
        if ("error" in result) rejectPromise(new Error(result.error));
        else resolvePromise(result.value);
      };
      // Whatever happened, nothing the tool started outlives the call.
      if (group && failure !== undefined) void group.terminate().then(done, done);
      else {
        group?.killNow();
        done();
      }
    };

    /** Stops the tool for `reason`; the call fails with it once the group is gone. */
    const stop = (reason: string) => {
      if (failure !== undefined || settled) return;
      failure = reason;
      settle({ error: reason });
    };

    const timer = setTimeout(() => stop(`timed out after ${limits.timeoutMs} ms`), limits.timeoutMs);
    const onAbort = () => stop("was cancelled");
    context.signal.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error) => {
      if (failure === undefined && !settled) {
        failure = spawnErrorText(shown, error);
        settle({ error: failure });
      }
    });
    child.stdin?.on("error", () => {
      // EPIPE: the tool exited without reading its arguments; its exit status tells the story.
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > limits.maxStdoutBytes) {
        stop(
          `wrote more than ${limits.maxStdoutBytes} bytes to stdout: raise maxStdoutBytes or make the tool print less`,
        );
        return;
      }
      stdout.push(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderrTail = Buffer.concat([stderrTail, chunk]);
      if (stderrTail.length > limits.maxStderrBytes)
        stderrTail = stderrTail.subarray(stderrTail.length - limits.maxStderrBytes);
    });
    child.on("exit", (code, signal) => {
      exit = supervised.status(code, signal);
      // Helpers the tool left behind would keep its pipes open: end them now.
      group?.killNow();
    });
    child.on("close", (code, signal) => {
      if (settled) return;
      const startError = supervised.startError();
      if (startError !== undefined) return settle({ error: spawnErrorText(shown, { code: startError }) });
      const status = exit ?? supervised.status(code, signal);
      const stderr = stderrTail.toString("utf8");
      const detail = lastLine(stderr);
      const suffix = `${detail ? `: ${detail}` : ""}${sandboxHint(stderr, sandbox)}`;
      const memory = supervised.memoryLimitHit();
      if (memory !== undefined)
        return settle({
          error: `went over the sandbox's memory limit of ${memory / 1048576} MiB (with everything it started) and was killed`,
        });
      if (status.signal) return settle({ error: `was killed by signal ${status.signal}${suffix}` });
      if (status.code !== 0) return settle({ error: `exited with status ${status.code}${suffix}` });
      settle(resultOf(Buffer.concat(stdout).toString("utf8")));
    });

    child.stdin?.end(JSON.stringify(args));
  });
}

function resultOf(text: string): { value: JsonValue } | { error: string } {
  if (text.trim() === "") return { error: "printed nothing on stdout: a command tool must print one JSON value" };
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return {
      error: `printed something that is not JSON on stdout (${parsed.error.message}): a command tool must print one JSON value`,
    };
  }
  return { value: parsed.value };
}

/**
 * A program as messages name it: as the host profile writes it, quoted, so the user finds the
 * entry to fix (`/opt/mcp/server`, not `server`); never the path PATH resolved it to, which
 * would show the user's folders.
 */
export function shownCommand(written: string): string {
  return JSON.stringify(written);
}

export function spawnErrorText(shown: string, error: unknown): string {
  if (error instanceof SandboxRefusal) return `command ${shown} was not started: ${error.message}`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT") return `command ${shown} was not found`;
  if (code === "EACCES") return `command ${shown} is not executable (EACCES)`;
  return `command ${shown} could not be started${code ? ` (${code})` : ""}`;
}

/** The last non-empty line of stderr, cut to a readable length. */
export function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  const line = (lines[lines.length - 1] ?? "").trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
