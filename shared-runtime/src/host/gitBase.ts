// A plan file's text at a git base (a commit-ish such as HEAD or origin/main), for the what-if
// comparison (plan/whatIf.ts) of `check --against` and the editor's lens. Reading git objects
// executes nothing of the workspace: git runs as a child without a shell, with the ref checked
// first (never an option), through plumbing that applies no filter, text conversion or hook
// (`rev-parse`, `ls-tree`, `cat-file blob`), with the fsmonitor hook off, a timeout and the
// plan-size cap read from the tree's entry before a byte of the blob is.

import type { ExecFileOptions, ExecFileSyncOptions } from "node:child_process";
import { basename, dirname } from "node:path";
import { MAX_PLAN_BYTES } from "../text/boundedFile";

/** A file's version at the base: its text and blob id, no such file there, or why git could not say. */
export type BaseVersion =
  | { readonly kind: "found"; readonly text: string; readonly blob: string }
  | { readonly kind: "absent" }
  | { readonly kind: "error"; readonly message: string };

/** A blob id at the base, before its text is read (the editor caches texts by it). */
export type BaseEntry =
  | { readonly kind: "found"; readonly blob: string; readonly size: number }
  | { readonly kind: "absent" }
  | { readonly kind: "error"; readonly message: string };

const GIT_TIMEOUT_MS = 10_000;
// Before any subcommand: no fsmonitor hook (the one hook a read could start), no pager.
const GIT_PREFIX = ["-c", "core.fsmonitor=false", "--no-pager"];

/**
 * Why `ref` cannot name a commit, or undefined: it is given to git as a revision only, so it may
 * not look like an option, nor hold a space, a control character or a `:` path part.
 */
export function baseRefProblem(ref: string): string | undefined {
  if (ref === "") return "expected a git commit-ish (HEAD, main, origin/main, a commit id), got nothing";
  if (ref.startsWith("-")) return `${JSON.stringify(ref)} looks like an option, not a git commit-ish`;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f:]/.test(ref) || ref.length > 256)
    return `${JSON.stringify(ref)} is not a git commit-ish (no spaces, control characters or ":")`;
  return undefined;
}

/** The commit `ref` names in the repository holding `folder` (its full id), or why not. */
export function resolveBaseCommit(
  ref: string,
  folder: string,
): { readonly ok: true; readonly commit: string } | { readonly ok: false; readonly message: string } {
  const problem = baseRefProblem(ref);
  if (problem !== undefined) return { ok: false, message: problem };
  const result = gitSync(["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], folder, 4096);
  if (result.ok) return { ok: true, commit: result.stdout.toString("latin1").trim() };
  if (result.missing) return { ok: false, message: "git is not installed: it is needed to read the base version" };
  return notARepository(result.stderr)
    ? { ok: false, message: `${folder} is not in a git repository` }
    : { ok: false, message: `${JSON.stringify(ref)} names no commit in the repository of ${folder}` };
}

/** `file`'s text at `commit` (resolved by resolveBaseCommit), synchronously (the CLI's check is). */
export function readBaseVersionSync(commit: string, file: string): BaseVersion {
  const listed = gitSync(lsTreeArgs(commit, file), dirname(file), 64 * 1024);
  const entry = entryOf(listed);
  if (entry.kind !== "found") return entry;
  const read = gitSync(["cat-file", "blob", entry.blob], dirname(file), entry.size + 1);
  if (!read.ok) return { kind: "error", message: gitError(read) };
  return { kind: "found", text: decoded(read.stdout), blob: entry.blob };
}

/** `file`'s blob id at `ref` (any commit-ish, checked here), without blocking: one git process. */
export async function baseEntry(ref: string, file: string): Promise<BaseEntry> {
  const problem = baseRefProblem(ref);
  if (problem !== undefined) return { kind: "error", message: problem };
  return entryOf(await gitAsync(lsTreeArgs(`${ref}^{commit}`, file), dirname(file), 64 * 1024));
}

/** A blob's text (its id from baseEntry), without blocking. */
export async function readBlob(
  folder: string,
  entry: { readonly blob: string; readonly size: number },
): Promise<BaseVersion> {
  const read = await gitAsync(["cat-file", "blob", entry.blob], folder, entry.size + 1);
  return read.ok
    ? { kind: "found", text: decoded(read.stdout), blob: entry.blob }
    : { kind: "error", message: gitError(read) };
}

/** `ls-tree -l` of the one file, by its name relative to its own folder (git reads it from there). */
function lsTreeArgs(treeish: string, file: string): string[] {
  return ["ls-tree", "-l", "-z", "--end-of-options", treeish, "--", `./${basename(file)}`];
}

function entryOf(listed: GitResult): BaseEntry {
  if (!listed.ok) return { kind: "error", message: listed.missing ? "git is not installed" : gitError(listed) };
  // "<mode> <type> <object> <size>\t<path>\0": nothing listed means no such file at the base.
  const line = listed.stdout.toString("utf8").split("\0")[0] ?? "";
  if (line === "") return { kind: "absent" };
  const [mode, type, blob, size] = line.slice(0, line.indexOf("\t")).split(/ +/);
  if (type !== "blob" || blob === undefined || mode === "120000") return { kind: "absent" };
  const bytes = Number(size);
  if (!(bytes <= MAX_PLAN_BYTES))
    return { kind: "error", message: `the base version is larger than ${MAX_PLAN_BYTES} bytes, the plan size limit` };
  return { kind: "found", blob, size: bytes };
}

function decoded(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

type GitResult =
  | { readonly ok: true; readonly stdout: Buffer }
  | { readonly ok: false; readonly stderr: string; readonly missing: boolean };

function notARepository(stderr: string): boolean {
  return /not a git repository/i.test(stderr);
}

function gitError(result: Extract<GitResult, { ok: false }>): string {
  const first = result.stderr.split("\n").find((line) => line.trim() !== "") ?? "git failed";
  return notARepository(result.stderr) ? "not in a git repository" : first.replace(/^fatal: /, "").slice(0, 300);
}

function gitOptions(cwd: string, maxBuffer: number): ExecFileOptions & ExecFileSyncOptions {
  return {
    cwd,
    maxBuffer,
    timeout: GIT_TIMEOUT_MS,
    windowsHide: true,
    // Never a prompt for credentials; no lock taken on the index by a read; a file name with `*`
    // or `:(` is that file, never a pattern.
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", GIT_LITERAL_PATHSPECS: "1" },
  };
}

// node:child_process is required on first use: a check without --against never loads it.
type ChildProcess = typeof import("node:child_process");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const childProcess = (): ChildProcess => require("node:child_process") as ChildProcess;

function gitSync(args: readonly string[], cwd: string, maxBuffer: number): GitResult {
  try {
    const stdout = childProcess().execFileSync("git", [...GIT_PREFIX, ...args], {
      ...gitOptions(cwd, maxBuffer),
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { ok: true, stdout: stdout as Buffer };
  } catch (error) {
    return failure(error);
  }
}

function gitAsync(args: readonly string[], cwd: string, maxBuffer: number): Promise<GitResult> {
  return new Promise((done) => {
    childProcess().execFile(
      "git",
      [...GIT_PREFIX, ...args],
      { ...gitOptions(cwd, maxBuffer), encoding: "buffer" },
      (error, stdout, stderr) => done(error ? failure(Object.assign(error, { stderr })) : { ok: true, stdout }),
    );
  });
}

function failure(error: unknown): Extract<GitResult, { ok: false }> {
  const failed = error as NodeJS.ErrnoException & { stderr?: Buffer | string };
  if (failed.code === "ENOENT") return { ok: false, stderr: "", missing: true };
  if (failed.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER" || failed.code === "ENOBUFS")
    return { ok: false, stderr: "the base version is larger than its tree entry said", missing: false };
  const stderr = failed.stderr === undefined ? failed.message : String(failed.stderr);
  return { ok: false, stderr, missing: false };
}
