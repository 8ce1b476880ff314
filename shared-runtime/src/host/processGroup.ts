// A command tool's process and everything it starts, as one unit to kill: the child is spawned
// detached, so it leads a new process group, and signals go to the whole group (-pid). A tool
// that forks a helper therefore leaves nothing running behind when it is cancelled, times out,
// or even exits normally. Where the tool has a cgroup (host/toolCgroup.ts), that is killed too,
// so a helper that left the group with `setsid` goes as well. Every group still running when
// this process exits, however it exits, gets SIGKILL from the exit hook below.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cgroupPids, killCgroup, killCgroupLater, removeCgroup, removeCgroupLater, signalCgroup } from "./toolCgroup";

/** How long SIGTERM has to work before SIGKILL. */
export const KILL_GRACE_MS = 500;
const POLL_MS = 20;

/** Groups started by this process and not known to be gone: the exit hook's list. */
const LIVE = new Set<ProcessGroup>();
let exitHookInstalled = false;

/** SIGKILL to every tool group (and cgroup) this process started that may still run. */
export function killAllGroupsNow(): void {
  for (const group of LIVE) {
    group.killNow({ exiting: true });
    // A removal still queued off the event loop would not happen once this process is gone.
    if (group.cgroup !== undefined) removeCgroup(group.cgroup);
  }
}

export class ProcessGroup {
  private terminating: Promise<void> | undefined;
  /** What else must be gone before the group is (a sandbox's limit cgroups): release() waits for it. */
  private leftovers: Promise<void> | undefined;

  constructor(
    readonly pgid: number,
    /** The tool's cgroup folder, when it has one. */
    readonly cgroup?: string,
  ) {
    LIVE.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", killAllGroupsNow);
    }
  }

  /** Whether any process of the group (or its cgroup) still runs (zombies do not count). */
  running(): boolean {
    const running = groupRunning(this.pgid) || (this.cgroup !== undefined && cgroupRunning(this.cgroup));
    if (!running) this.forget();
    return running;
  }

  /**
   * Done with the group (the call settled): its cgroup folder goes once nothing is in it (tried
   * again for a while, without keeping the process alive). Resolves when it is gone, or given up.
   */
  async release(): Promise<void> {
    const cgroup = this.cgroup;
    for (let tries = 0; cgroup !== undefined && !(await removeCgroupLater(cgroup)) && tries < 20; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100).unref());
    // Bounded: a leftover that never settles must not hold whoever waits for the group.
    if (this.leftovers !== undefined)
      await Promise.race([this.leftovers, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    LIVE.delete(this);
  }

  /** Makes release() wait, too, for `leftovers` to be removed (bubblewrap's limit cgroups). */
  waitFor(leftovers: Promise<void>): void {
    this.leftovers = leftovers;
  }

  private forget(): void {
    LIVE.delete(this);
    // Off the event loop: it is asked at every tool's exit, and removing a used cgroup takes time.
    if (this.cgroup !== undefined) void removeCgroupLater(this.cgroup);
  }

  /**
   * SIGTERM to the group, SIGKILL after KILL_GRACE_MS if anything still runs; resolves when
   * nothing of the group runs any more (at most a little after the grace period).
   */
  terminate(): Promise<void> {
    this.terminating ??= this.kill();
    return this.terminating;
  }

  /**
   * SIGKILL now, for leftovers of a tool that already exited. The cgroup folder is left to
   * release(), unless the process is `exiting`: then it is removed before this returns.
   */
  killNow(options: { exiting?: boolean } = {}): void {
    if (!this.running()) return;
    signalGroup(this.pgid, "SIGKILL");
    if (this.cgroup === undefined) return;
    // Waiting here would hold the event loop (a sandbox's init often leaves a moment after).
    if (options.exiting) killCgroup(this.cgroup);
    else signalCgroup(this.cgroup);
  }

  private async kill(): Promise<void> {
    if (!this.running()) return;
    signalGroup(this.pgid, "SIGTERM");
    const deadline = Date.now() + KILL_GRACE_MS;
    while (Date.now() < deadline) {
      await delay(POLL_MS);
      if (!this.running()) return;
    }
    signalGroup(this.pgid, "SIGKILL");
    if (this.cgroup !== undefined) killCgroup(this.cgroup);
    // SIGKILL cannot be caught; only a process stuck in the kernel survives it for long.
    const hardDeadline = Date.now() + KILL_GRACE_MS;
    while (Date.now() < hardDeadline && this.running()) await delay(POLL_MS);
  }
}

/** Something started ahead of need (a sandbox held ready for a tool's next call). */
export interface Spare {
  /** Ends it at once (nothing in it has started work); resolves when it and its cgroups are gone. */
  discard(): Promise<void>;
}

/**
 * The groups of one host's tools that may still run, and its spares, so a host can be closed
 * cleanly. Once closing, it takes no more spares: nothing is started ahead for a host that ends.
 */
export class ProcessTracker {
  private readonly groups = new Set<ProcessGroup>();
  private readonly spares = new Set<Spare>();
  private closing = false;

  add(group: ProcessGroup): void {
    this.groups.add(group);
  }

  delete(group: ProcessGroup): void {
    this.groups.delete(group);
  }

  /** Keeps `spare` until it is dropped or the tracker closes; false (keep nothing) once closing. */
  keepSpare(spare: Spare): boolean {
    if (this.closing) return false;
    this.spares.add(spare);
    return true;
  }

  dropSpare(spare: Spare): void {
    this.spares.delete(spare);
  }

  /** SIGKILL to every group still tracked and every spare, without waiting: for a process about to exit. */
  killAllNow(): void {
    this.closing = true;
    for (const spare of this.takeSpares()) void spare.discard();
    for (const group of this.groups) group.killNow({ exiting: true });
  }

  /** Kills every group still tracked and every spare, and waits until none runs and their cgroups are gone. */
  async closeAll(): Promise<void> {
    this.closing = true;
    const ended = async (group: ProcessGroup) => {
      await group.terminate();
      // release() tries again on timers that do not keep the process alive: this waits.
      if (group.cgroup !== undefined) await killCgroupLater(group.cgroup);
      await group.release();
    };
    await Promise.all([...this.takeSpares().map((spare) => spare.discard()), ...[...this.groups].map(ended)]);
    this.groups.clear();
  }

  private takeSpares(): Spare[] {
    const spares = [...this.spares];
    this.spares.clear();
    return spares;
  }
}

/** Whether a cgroup holds a process that is not a zombie. */
function cgroupRunning(folder: string): boolean {
  return cgroupPids(folder).some((pid) => processState(pid) === "running");
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === "win32" ? pgid : -pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const HAS_PROC = (() => {
  try {
    readFileSync("/proc/self/stat", "utf8");
    return true;
  } catch {
    return false;
  }
})();

/**
 * Where /proc exists (Linux), a group runs when a member is in any state but zombie: a killed
 * process whose parent already exited stays a zombie until init collects it, which some init
 * processes do only every few seconds. Elsewhere, signal 0 to the group tells.
 */
export function groupRunning(pgid: number): boolean {
  const reached = signalReaches(-pgid);
  // No member at all, not even a zombie (the usual case once a call is over): nothing to scan.
  if (!HAS_PROC || !reached) return reached;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return signalReaches(-pgid);
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") return true;
  }
  return false;
}

/** "running", "zombie" (dead, not yet collected by its parent) or "gone", for one process. */
export function processState(pid: number): "running" | "zombie" | "gone" {
  if (!signalReaches(pid)) return "gone";
  const stat = HAS_PROC ? procStat(pid) : undefined;
  if (stat && (stat.state === "Z" || stat.state === "X")) return "zombie";
  return HAS_PROC && !stat ? "gone" : "running";
}

function signalReaches(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * When the process started, in clock ticks since boot (`/proc/PID/stat`'s starttime): with the
 * pid, it names one process even after the pid is reused. Undefined without /proc or the process.
 */
export function processStartTicks(pid: number): string | undefined {
  return HAS_PROC ? procStat(pid)?.start : undefined;
}

/**
 * The pids whose parent is `pid`: from its children file (Linux 3.5+ with CONFIG_PROC_CHILDREN,
 * a hundredth of a millisecond) where the kernel has one, else from one scan of /proc (milliseconds);
 * empty without /proc.
 */
export function childPids(pid: number): number[] {
  if (HAS_CHILDREN_FILE) {
    try {
      // The main thread's children: bubblewrap, the one caller, clones from its main thread.
      return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
        .split(" ")
        .filter((entry) => entry.trim() !== "")
        .map(Number);
    } catch {
      return [];
    }
  }
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    if (procStat(Number(entry))?.ppid === pid) children.push(Number(entry));
  }
  return children;
}

const HAS_CHILDREN_FILE = HAS_PROC && existsSync(`/proc/self/task/${process.pid}/children`);

function procStat(pid: number): { state: string; ppid: number; pgrp: number; start: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", ppid: Number(fields[1]), pgrp: Number(fields[2]), start: fields[19] ?? "" };
}
