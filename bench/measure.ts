// Timing with process.hrtime.bigint. Each subject is warmed up, then timed in samples of ≥ 10 ms
// (so the clock and single GC pauses average out) until its samples add up to ≥ 200 ms (or the
// budget a bench gives measureFor, for calls so slow that 200 ms is a handful of samples); the
// subjects of one comparison take turns sample by sample, so load from other processes on the
// machine hits the figure and its baseline alike. Reported: the median per call.

export interface Timing {
  /** Median time of one call, in milliseconds. */
  readonly ms: number;
  /** Interquartile range over the median: how much the samples disagree (0.05 = 5 %). */
  readonly spread: number;
  readonly samples: number;
  readonly callsPerSample: number;
}

/** Runs the subject `count` times. */
export type Subject = (count: number) => void | Promise<void>;

const WARMUP_MS = 50;
const MIN_WARMUP_CALLS = 3;
const MIN_SAMPLE_MS = 10;
const MIN_TOTAL_MS = 200;
const MIN_SAMPLES = 7;

/**
 * Results land here so the engine cannot drop a call whose value nobody reads. Exported so that
 * the value stays observable from outside the module.
 * @public
 */
export let sink: unknown;

export function calls(call: () => unknown): Subject {
  return (count) => {
    for (let i = 0; i < count; i++) sink = call();
  };
}

export function awaitedCalls(call: () => Promise<unknown>): Subject {
  return async (count) => {
    for (let i = 0; i < count; i++) sink = await call();
  };
}

/** Times the subjects together, their samples interleaved; one Timing per subject, in order. */
export function measure<T extends Subject[]>(...subjects: T): Promise<{ [K in keyof T]: Timing }> {
  return measureFor(MIN_TOTAL_MS, ...subjects);
}

/** measure, each subject's samples adding up to at least `minTotalMs`. */
export async function measureFor<T extends Subject[]>(
  minTotalMs: number,
  ...subjects: T
): Promise<{ [K in keyof T]: Timing }> {
  const plans: { subject: Subject; callsPerSample: number; samples: number; times: number[] }[] = [];
  for (const subject of subjects) plans.push({ subject, ...(await calibrate(subject, minTotalMs)), times: [] });
  const rounds = Math.max(...plans.map((p) => p.samples));
  for (let round = 0; round < rounds; round++) {
    for (const plan of plans) {
      // Spread a subject's samples evenly over the rounds when it needs fewer than the others.
      if (Math.floor(((round + 1) * plan.samples) / rounds) === Math.floor((round * plan.samples) / rounds)) continue;
      const start = now();
      await plan.subject(plan.callsPerSample);
      plan.times.push((now() - start) / plan.callsPerSample);
    }
  }
  const timings = plans.map(({ times, samples, callsPerSample }): Timing => {
    const sorted = times.sort((a, b) => a - b);
    const ms = quantile(sorted, 0.5);
    return { ms, spread: (quantile(sorted, 0.75) - quantile(sorted, 0.25)) / ms, samples, callsPerSample };
  });
  return timings as { [K in keyof T]: Timing };
}

/** Warms the subject up and sizes its samples from the warm-up's speed. */
async function calibrate(subject: Subject, minTotalMs: number): Promise<{ callsPerSample: number; samples: number }> {
  let warmCalls = 0;
  const warmStart = now();
  while (warmCalls < MIN_WARMUP_CALLS || now() - warmStart < WARMUP_MS) {
    await subject(1);
    warmCalls++;
  }
  const perCall = (now() - warmStart) / warmCalls;
  const callsPerSample = Math.max(1, Math.ceil(MIN_SAMPLE_MS / perCall));
  return { callsPerSample, samples: Math.max(MIN_SAMPLES, Math.ceil(minTotalMs / (perCall * callsPerSample))) };
}

/** Milliseconds one awaited call took. */
export async function timed(call: () => Promise<unknown>): Promise<number> {
  const start = now();
  await call();
  return now() - start;
}

/** Milliseconds from an arbitrary origin. */
export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Linear interpolation between the two nearest ranks of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)] as number;
  const high = sorted[Math.ceil(at)] as number;
  return low + (high - low) * (at - Math.floor(at));
}

/** Prints rows under a header, the first column left-aligned, the others right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
