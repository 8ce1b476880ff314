// The server's memory as a benchmark reads it: resident set from /proc (Linux), and the heap
// after a full garbage collection as the preloaded serverMemoryHook.ts reports it on stderr.

import { readFileSync } from "node:fs";

/** What serverMemoryHook.ts writes on stderr, before the JSON of process.memoryUsage(). */
const MEMORY_LINE_PREFIX = "rlm-plan-bench-memory ";

/** process.memoryUsage() of the server after a full garbage collection, in bytes. */
export interface HeapUsage {
  readonly rss: number;
  readonly heapTotal: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

export interface Memory {
  /** Resident set size now, in KiB (VmRSS). */
  readonly rssKiB: number;
  /** Peak resident set size, in KiB (VmHWM). */
  readonly peakKiB: number;
}

/** VmRSS and VmHWM of a process, from /proc/<pid>/status. */
export function processMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
    if (!match?.[1]) throw new Error(`no ${name} in /proc/${pid}/status`);
    return Number(match[1]);
  };
  return { rssKiB: field("VmRSS"), peakKiB: field("VmHWM") };
}

/** The first memory line in `text`: where it starts and ends (its newline) and the usage it reports. */
export function findMemoryLine(text: string): { start: number; end: number; usage: HeapUsage } | undefined {
  const start = text.indexOf(MEMORY_LINE_PREFIX);
  const end = start < 0 ? -1 : text.indexOf("\n", start);
  if (end < 0) return undefined;
  return { start, end, usage: JSON.parse(text.slice(start + MEMORY_LINE_PREFIX.length, end)) as HeapUsage };
}
