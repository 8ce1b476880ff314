// `rlm-plan check PATH...`: every problem of every plan and host profile, as lines for people,
// JSON, SARIF or GitHub annotations. A CI gate: against a known host, whatever `run` would
// refuse before running is an error. Exit 1 when any file has an error or cannot be read.

import { watch, type FSWatcher } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "./args";
import { githubAnnotations, sarifLog } from "./checkFormats";
import { lineText } from "./guardedOutput";
import { expandTargets } from "./checkTargets";
import { discoverFor, hostErrorLines, policyFor, type Discoveries } from "./hostPolicy";
import { fileJson, jsonText, problemLines, readErrorLine, summaryLine, type Io } from "./output";
import { reportFile, reportHostFile, reportMocksFile, type CheckedFile } from "./report";
import { findHostProfile } from "@rlm-plan/core/host/profile";

type CheckCommand = Extract<Command, { kind: "check" }>;

interface CheckRun {
  readonly code: number;
  /** Every file the result depends on (checked files and the host profiles used): --watch watches them. */
  readonly inputs: readonly string[];
}

/** Without `discoveries`, MCP tools are trusted by name and their arguments are not typed. */
export function runCheck(command: CheckCommand, io: Io, version: string, discoveries: Discoveries = new Map()): number {
  return checkOnce(command, io, version, discoveries).code;
}

/** `rlm-plan check` with the tools of the profiles' MCP servers listed first (their schemas type arguments). */
export async function runCheckWithTools(command: CheckCommand, io: Io, version: string): Promise<number> {
  return runCheck(command, io, version, await discoveriesFor(command));
}

function discoveriesFor(command: CheckCommand): Promise<Discoveries> {
  const plans = expandTargets(command.files).targets.filter((target) => target.kind === "plan");
  return discoverFor(
    plans.map((target) => target.file),
    command.host,
  );
}

function checkOnce(command: CheckCommand, io: Io, version: string, discoveries: Discoveries): CheckRun {
  const expansion = expandTargets(command.files);
  for (const error of expansion.errors) io.err(`rlm-plan: ${lineText(error)}\n`);
  const checked: CheckedFile[] = [];
  const inputs = new Set<string>();
  let hostErrors = false;
  let warnedNoHost = false;
  for (const target of expansion.targets) {
    inputs.add(resolve(target.file));
    if (target.kind === "host") {
      checked.push(reportHostFile(target.file));
      continue;
    }
    if (target.kind === "mocks") {
      checked.push(reportMocksFile(target.file, command.host ?? findHostProfile(target.file)));
      continue;
    }
    const resolved = policyFor(target.file, command, discoveries);
    if (resolved.hostFile !== undefined) inputs.add(resolve(resolved.hostFile));
    if (!resolved.ok) {
      // A broken profile is reported once, where it is checked as a host profile, if it is.
      if (!expansion.targets.some((t) => t.kind === "host" && resolve(t.file) === resolve(resolved.hostFile)))
        io.err(hostErrorLines(resolved.errors));
      hostErrors = true;
      continue;
    }
    const gated = resolved.hostFile !== undefined || command.capabilities !== undefined || command.budget !== undefined;
    if (!gated && !warnedNoHost) {
      io.err("rlm-plan: no host profile (rlmplan.host.json) found: capabilities, tools and providers not checked\n");
      warnedNoHost = true;
    }
    checked.push(reportFile(target.file, resolved.policy, { hostGate: gated, modelText: command.modelText }));
  }
  print(command, io, checked, version);
  const failed =
    hostErrors ||
    expansion.errors.length > 0 ||
    checked.some((report) => report.readError !== undefined || report.errors > 0);
  return { code: failed ? 1 : 0, inputs: [...inputs] };
}

function print(command: CheckCommand, io: Io, checked: readonly CheckedFile[], version: string): void {
  const cwd = process.cwd();
  switch (command.format) {
    case "json":
      io.out(jsonText({ files: checked.map(fileJson) }));
      return;
    case "sarif":
      io.out(jsonText(sarifLog(checked, version, cwd)));
      return;
    case "github":
    case "text": {
      const lines: string[] = [];
      if (command.format === "github") for (const item of githubAnnotations(checked, cwd)) lines.push(item);
      for (const report of checked) {
        if (report.readError !== undefined) {
          if (command.format === "text") io.err(readErrorLine(report.file, report.readError));
          continue;
        }
        if (command.format === "text")
          for (const problem of report.problems)
            for (const item of problemLines(report.file, problem, io.style)) lines.push(item);
        lines.push(summaryLine(report, io.style));
      }
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
  // Each check lists the MCP tools afresh (a changed profile or server); checks never overlap.
  const check = async () => checkOnce(command, io, version, await discoveriesFor(command));
  let last = await check();
  let checking: Promise<void> = Promise.resolve();
  let watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | undefined;
  const rewatch = () => {
    for (const watcher of watchers) watcher.close();
    watchers = watchedFolders(command.files, last.inputs).flatMap(({ folder, recursive }) => {
      try {
        const watcher = watch(folder, { recursive }, () => schedule());
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
        last = await check();
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

/** Folder arguments recursively (new files count), and the folder of every other input. */
function watchedFolders(args: readonly string[], inputs: readonly string[]): { folder: string; recursive: boolean }[] {
  const folders = new Map<string, boolean>();
  for (const arg of args) {
    const absolute = resolve(arg);
    if (!inputs.includes(absolute)) folders.set(absolute, true);
  }
  for (const input of inputs) if (!folders.has(dirname(input))) folders.set(dirname(input), false);
  return [...folders].map(([folder, recursive]) => ({ folder, recursive }));
}
