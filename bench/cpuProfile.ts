// Reads a V8 .cpuprofile (what `node --cpu-prof` writes) and lists the functions that took the
// most time: self time (samples whose top frame is the function) and total time (samples with
// the function anywhere on the stack, counted once per sample even when it recurses).

import { readFileSync } from "node:fs";

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

interface FunctionTime {
  /** `name (file:line)`, the file relative to the repository when it is inside it. */
  readonly where: string;
  readonly selfMs: number;
  readonly totalMs: number;
}

export interface ProfileSummary {
  readonly sampledMs: number;
  /** Sampled time outside (idle) and (program)/(garbage collector). */
  readonly idleMs: number;
  readonly gcMs: number;
  readonly functions: readonly FunctionTime[];
}

function isCpuProfile(value: unknown): value is CpuProfile {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return Array.isArray(record.nodes) && Array.isArray(record.samples) && Array.isArray(record.timeDeltas);
}

export function summarizeCpuProfile(file: string, repoRoot: string): ProfileSummary {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!isCpuProfile(parsed)) throw new Error(`${file} is not a V8 CPU profile`);
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of parsed.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const keyOf = (frame: CallFrame): string => {
    const url = frame.url.replace(/^file:\/\//, "").replace(`${repoRoot}/`, "");
    const name = frame.functionName === "" ? "(anonymous)" : frame.functionName;
    return url === "" ? name : `${name} (${url}:${frame.lineNumber + 1})`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let sampledMs = 0;
  let idleMs = 0;
  let gcMs = 0;
  for (let i = 0; i < parsed.samples.length; i++) {
    // A sample's delta is the time since the previous sample: it belongs to this sample's stack.
    const ms = (parsed.timeDeltas[i] ?? 0) / 1000;
    const id = parsed.samples[i] as number;
    const node = byId.get(id);
    if (!node) continue;
    sampledMs += ms;
    const top = node.callFrame.functionName;
    if (top === "(idle)") {
      idleMs += ms;
      continue;
    }
    if (top === "(garbage collector)") gcMs += ms;
    const topKey = keyOf(node.callFrame);
    self.set(topKey, (self.get(topKey) ?? 0) + ms);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame && frame.functionName !== "(root)") onStack.add(keyOf(frame));
    }
    for (const key of onStack) total.set(key, (total.get(key) ?? 0) + ms);
  }
  const functions = [...total.entries()].map(([where, totalMs]) => ({ where, selfMs: self.get(where) ?? 0, totalMs }));
  return { sampledMs, idleMs, gcMs, functions };
}
