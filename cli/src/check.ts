// `rlm-plan check PATH...`: every problem of every plan and host profile, as lines for people, JSON,
// SARIF or GitHub annotations (and with --against, each plan's what-if: checkAgainst.ts). A CI gate:
// against a known host, whatever `run` would refuse before running is an error. Static: it starts no
// program a plan or profile names and leaves that to `--preflight` (each plan's preflight, as `run`'s).

import { readdirSync, watch, type FSWatcher } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { SKIPPED_FOLDERS, type UnreadableFolder } from "@rlm-plan/core/workspaceFiles";
import type { Command } from "./args";
import { githubAnnotations, sarifLog } from "./checkFormats";
import { approvalLines, approvalNotices, planApprovals, type PlanApprovals } from "./approvalLines";
import { noteLines, type CheckNotes } from "./checkNotes";
import { commandData } from "./sink";
import { expandTargets } from "./checkTargets";
import type { McpDiscovery } from "@rlm-plan/core/host";
import type { PreflightReport } from "@rlm-plan/core/run";
import { HOST_PROFILE_FILENAME, hostProfileOf, PREFLIGHT_ONLY_CHECKS } from "@rlm-plan/core/session";
import { hostErrorLines, sessionFor, type CheckSession } from "./checkSession";
import { fileJson, jsonText, problemLines, readErrorLine, summaryLine, type Io } from "./output";
import {
  readErrorOf,
  reportHostFile,
  reportMocksFile,
  reportTestFile,
  reportText,
  withPreflight,
  type CheckedFile,
} from "./report";
import { lineText } from "./guardedOutput";
import { AgainstRef, refRefused } from "./checkAgainst";

type CheckCommand = Extract<Command, { kind: "check" }>;

interface CheckRun {
  readonly code: number;
  /** Every file the result depends on (checked files and the host profiles used): --watch watches them. */
  readonly inputs: readonly string[];
}

/** What `check` says it did not check (plain) or what its preflight started (--preflight). */
/** A plan's session (or why there is none), opened once per check. */
interface PlanEntry {
  readonly file: string;
  readonly opened: CheckSession;
}

/** `rlm-plan check`: static, it starts no program a plan or host profile names. */
export function runCheck(command: CheckCommand, io: Io, version: string): number {
  return refRefused(command.against, io) ? 2 : checkOnce(command, io, version, { warned: new Set() }).code;
}

/**
 * `rlm-plan check --preflight`: the static check, then each plan's preflight exactly as `run`
 * does it before its first step (the session's one preflight): MCP servers the plan names are
 * started to list their tools, then stopped; no step executes.
 */
export async function runCheckWithPreflight(command: CheckCommand, io: Io, version: string): Promise<number> {
  if (refRefused(command.against, io)) return 2;
  const expansion = expandTargets(command.files);
  const refusals = new Map<string, PreflightReport>();
  // Each plan is then checked with the tools its MCP servers listed to that preflight (their
  // input and output schemas), as the editor does with listMcpTools, whether or not something
  // was refused: one session, one start of each server the plan calls, not a second listing.
  const discoveries = new Map<string, McpDiscovery>();
  for (const target of expansion.targets) {
    if (target.kind !== "plan") continue;
    const opened = sessionFor(target.file, command, io.sink.mask);
    const profile = opened.ok ? opened.session.profile : undefined;
    if (!opened.ok || profile === undefined) continue;
    const report = await opened.session.preflight();
    refusals.set(target.file, report);
    if (report.mcpListing) discoveries.set(target.file, report.mcpListing);
  }
  return checkOnce(command, io, version, { warned: new Set(), preflights: refusals, discoveries }).code;
}

/** What one check is given besides the command: what --preflight found, and the warnings said. */
interface CheckContext {
  /** Folders already warned about as unreadable (a watch warns once per folder). */
  readonly warned: Set<string>;
  readonly preflights?: ReadonlyMap<string, PreflightReport>;
  readonly discoveries?: ReadonlyMap<string, McpDiscovery>;
}

/** One check, start to end, synchronously (plain `check`, `--preflight`). */
function checkOnce(command: CheckCommand, io: Io, version: string, context: CheckContext): CheckRun {
  const steps = checkSteps(command, io, version, context);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** How long a `--watch` check runs before it lets Ctrl-C (and file events) in. */
const YIELD_EVERY_MS = 20;

/**
 * One check that yields to the event loop every YIELD_EVERY_MS, so Ctrl-C ends a long one (50,000
 * plans) at once; undefined when `signal` aborted it (nothing of it is printed then).
 */
async function checkYielding(
  command: CheckCommand,
  io: Io,
  version: string,
  context: CheckContext,
  signal: AbortSignal,
): Promise<CheckRun | undefined> {
  const steps = checkSteps(command, io, version, context);
  // Node's global `performance`, loaded on first use: a plain check loads no perf_hooks.
  let since = performance.now();
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    if (performance.now() - since < YIELD_EVERY_MS) continue;
    await new Promise((resume) => setImmediate(resume));
    since = performance.now();
    if (signal.aborted) {
      io.err(`rlm-plan: check stopped after ${step.value.done} of ${step.value.of} files\n`);
      return undefined;
    }
  }
}

/** The warning for a folder a walk could not read, once per folder. */
function warnUnreadable(io: Io, warned: Set<string>): UnreadableFolder {
  return (folder, error) => {
    if (warned.has(folder)) return;
    warned.add(folder);
    io.err(
      `rlm-plan: warning: ${lineText(folder)}: cannot read this folder (${error.code ?? error.message}); the plans below it are not checked\n`,
    );
  };
}

/** A check as steps: one a file (`done` of `of`), then its result. */
function* checkSteps(
  command: CheckCommand,
  io: Io,
  version: string,
  context: CheckContext,
): Generator<{ done: number; of: number }, CheckRun> {
  const { preflights, discoveries } = context;
  const expansion = expandTargets(command.files, warnUnreadable(io, context.warned));
  for (const error of expansion.errors) io.err(`rlm-plan: ${lineText(error)}\n`);
  const checked: CheckedFile[] = [];
  const inputs = new Set<string>();
  let hostErrors = false;
  let warnedNoHost = false;
  let hosted = false;
  const started = new Map<string, readonly string[]>();
  const unsandboxed = new Map<string, string>();
  let unpinned: string | undefined;
  const against = command.against === undefined ? undefined : new AgainstRef(command.against);
  const approvals = new Map<string, PlanApprovals>();
  let done = 0;
  for (const target of expansion.targets) {
    if (done > 0) yield { done, of: expansion.targets.length };
    done++;
    inputs.add(resolve(target.file));
    if (target.kind === "host") {
      checked.push(reportHostFile(target.file));
      continue;
    }
    if (target.kind === "mocks") {
      checked.push(reportMocksFile(target.file, command.host ?? hostProfileOf(target.file)));
      continue;
    }
    if (target.kind === "test") {
      checked.push(reportTestFile(target.file));
      continue;
    }
    const entry: PlanEntry = {
      file: target.file,
      // The sink's mask: the profile's keys are masked in every format (an MCP server's message may hold one).
      opened: sessionFor(target.file, command, io.sink.mask, discoveries?.get(target.file)),
    };
    const { opened } = entry;
    if (opened.hostFile !== undefined) inputs.add(resolve(opened.hostFile));
    if (!opened.ok) {
      if ("readError" in opened) {
        checked.push({ file: target.file, readError: readErrorOf(opened.code, opened.readError) });
        continue;
      }
      // A broken profile is reported once, where it is checked as a host profile, if it is.
      if (!expansion.targets.some((t) => t.kind === "host" && resolve(t.file) === resolve(opened.hostFile)))
        io.err(hostErrorLines(opened.errors));
      hostErrors = true;
      continue;
    }
    const { session } = opened;
    const gated = opened.hostFile !== undefined || command.capabilities !== undefined || command.budget !== undefined;
    if (opened.hostFile !== undefined) hosted = true;
    if (!gated && !warnedNoHost) {
      io.err("rlm-plan: no host profile (rlmplan.host.json) found: capabilities, tools and providers not checked\n");
      warnedNoHost = true;
    }
    const report = reportText(target.file, session.text ?? "", session.policy, {
      hostGate: gated,
      modelText: command.modelText,
    });
    against?.compare(target.file, session);
    planApprovals(session, report, approvals);
    const preflight = preflights?.get(target.file);
    if (preflights !== undefined && opened.hostFile === undefined) {
      io.err(
        `rlm-plan: ${target.file}: no host profile, so no preflight: create ${HOST_PROFILE_FILENAME} or pass --host FILE\n`,
      );
      hostErrors = true;
    }
    if (preflight) {
      started.set(target.file, preflight.mcpServers);
      const notice = session.sandboxNotice();
      if (notice !== undefined) unsandboxed.set(target.file, notice);
      unpinned ??= session.lockNotice();
      const refusal = preflight.refusal;
      if (refusal?.stage === "host" && refusal.hostErrors) {
        io.err(hostErrorLines(refusal.hostErrors));
        hostErrors = true;
      } else {
        checked.push(withPreflight(report, session.text ?? "", preflight));
        continue;
      }
    }
    checked.push(report);
  }
  const notes: CheckNotes = {
    left: preflights === undefined && hosted ? PREFLIGHT_ONLY_CHECKS : [],
    started,
    unsandboxed,
    ...(unpinned !== undefined ? { unpinned } : {}),
    approvals,
  };
  print(command, io, checked, version, notes, against);
  const failed =
    hostErrors ||
    against?.failed ||
    expansion.errors.length > 0 ||
    checked.some((report) => report.readError !== undefined || report.errors > 0);
  return { code: failed ? 1 : 0, inputs: [...inputs] };
}

function print(
  command: CheckCommand,
  io: Io,
  checked: readonly CheckedFile[],
  version: string,
  notes: CheckNotes,
  against: AgainstRef | undefined,
): void {
  const cwd = process.cwd();
  const said = noteLines(notes);
  switch (command.format) {
    case "json":
      io.sink.stdout.json(
        jsonText({
          files: checked.map((report) => fileJson(report, notes.approvals?.get(report.file)?.forecast)),
          ...(said.length > 0 ? { notes: said } : {}),
          ...(notes.left.length > 0 ? { leftToPreflight: notes.left } : {}),
          ...(notes.started.size > 0
            ? {
                preflight: Object.fromEntries(
                  [...notes.started].map(([file, servers]) => [file, { mcpServersStarted: servers }]),
                ),
              }
            : {}),
          ...(against ? { against: against.json() } : {}),
        }),
      );
      return;
    case "sarif":
      io.sink.stdout.json(jsonText(sarifLog(checked, version, cwd, said, against)));
      return;
    case "github":
    case "text": {
      const lines: string[] = [];
      if (command.format === "github") {
        // Our own words, but they name servers and files from the profile: escaped like annotations.
        for (const note of said) io.sink.stdout.workflowCommand(`::notice title=rlm-plan::${commandData(note)}`);
        for (const item of githubAnnotations(checked, cwd)) io.sink.stdout.workflowCommand(item);
        for (const item of against?.githubLines(cwd) ?? []) io.sink.stdout.workflowCommand(item);
        for (const item of approvalNotices(notes.approvals, cwd)) io.sink.stdout.workflowCommand(item);
      } else for (const note of said) io.err(`rlm-plan: ${lineText(note)}\n`);
      for (const report of checked) {
        if (report.readError !== undefined) {
          if (command.format === "text") io.err(readErrorLine(report.file, report.readError));
          continue;
        }
        if (command.format === "text")
          for (const problem of report.problems)
            for (const item of problemLines(report.file, problem, io.style)) lines.push(item);
        if (command.format === "text") lines.push(...approvalLines(notes.approvals?.get(report.file)));
        lines.push(summaryLine(report, io.style));
      }
      if (command.format === "text" && against) for (const line of against.textLines()) lines.push(line);
      if (lines.length > 0) io.out(`${lines.join("\n")}\n`);
    }
  }
}

/**
 * `check --watch`: check, then again after every change to a checked file, a host profile it
 * used or a folder argument (new plans are picked up), until `signal` aborts. Changes within
 * DEBOUNCE_MS are one check. Returns the last check's exit status.
 */
export async function watchCheck(command: CheckCommand, io: Io, version: string, signal: AbortSignal): Promise<number> {
  const DEBOUNCE_MS = 120;
  // Static like every plain check: it starts no program; checks never overlap.
  const warned = new Set<string>();
  const check = () => checkYielding(command, io, version, { warned }, signal);
  const first = await check();
  // Stopped during the first check: the status a shell shows for Ctrl-C.
  if (!first) return 130;
  let last = first;
  let checking: Promise<void> = Promise.resolve();
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  const rewatch = () => {
    for (const watcher of watchers) watcher.close();
    watchers = watchedFolders(command.files, last.inputs, warnUnreadable(io, warned)).flatMap((folder) => {
      try {
        const watcher = watch(folder, () => schedule());
        watcher.on("error", () => undefined);
        return [watcher];
      } catch {
        return [];
      }
    });
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      checking = checking.then(async () => {
        if (signal.aborted) return;
        io.err(`rlm-plan: change seen, checking again (${new Date().toLocaleTimeString()})\n`);
        last = (await check()) ?? last;
        rewatch();
      });
    }, DEBOUNCE_MS);
  };
  rewatch();
  io.err("rlm-plan: watching for changes (Ctrl-C to stop)\n");
  await new Promise<void>((done) => {
    if (signal.aborted) done();
    else signal.addEventListener("abort", () => done(), { once: true });
  });
  if (timer) clearTimeout(timer);
  await checking;
  for (const watcher of watchers) watcher.close();
  return last.code;
}

/**
 * Every folder below a folder argument (new files and folders count), and the folder of every
 * other input, each watched alone. Node's recursive watch on Linux puts a watcher on every file:
 * over 50,000 plans it took 11 s and 180 MB to start and 1.6 s to close (SIGINT exited late);
 * one watcher a folder sees the same changes, and the folders are walked again after each check.
 */
function watchedFolders(args: readonly string[], inputs: readonly string[], unreadable: UnreadableFolder): string[] {
  const folders = new Set<string>();
  for (const arg of args) {
    const absolute = resolve(arg);
    if (!inputs.includes(absolute)) for (const folder of foldersBelow(absolute, unreadable)) folders.add(folder);
  }
  for (const input of inputs) folders.add(dirname(input));
  return [...folders];
}

/** `root` and the folders below it that a check walks (SKIPPED_FOLDERS left out), breadth first. */
function foldersBelow(root: string, unreadable: UnreadableFolder): string[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    let entries;
    try {
      entries = readdirSync(found[i] as string, { withFileTypes: true });
    } catch (error) {
      unreadable(found[i] as string, error as NodeJS.ErrnoException);
      continue;
    }
    for (const entry of entries)
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) found.push(join(found[i] as string, entry.name));
  }
  return found;
}
