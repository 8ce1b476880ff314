// Timing with process.hrtime.bigint: warm up, then time batches of calls (each batch ≥ 1 ms,
// so the clock's own cost vanishes) until the samples add up to ≥ 200 ms; report the median.

export interface Timing {
  /** Median time of one call, in milliseconds. */
  readonly ms: number;
  readonly samples: number;
  readonly callsPerSample: number;
}

const WARMUP_MS = 50;
const MIN_WARMUP_CALLS = 3;
const MIN_SAMPLE_MS = 1;
const MIN_TOTAL_MS = 200;
const MIN_SAMPLES = 5;

/** Results land here so the engine cannot drop a call whose value nobody reads. */
export let sink: unknown;

export function measure(call: () => unknown): Promise<Timing> {
  return timeBatches((calls) => {
    for (let i = 0; i < calls; i++) sink = call();
  });
}

export function measureAsync(call: () => Promise<unknown>): Promise<Timing> {
  return timeBatches(async (calls) => {
    for (let i = 0; i < calls; i++) sink = await call();
  });
}

async function timeBatches(batch: (calls: number) => void | Promise<void>): Promise<Timing> {
  let warmCalls = 0;
  const warmStart = now();
  while (warmCalls < MIN_WARMUP_CALLS || now() - warmStart < WARMUP_MS) {
    await batch(1);
    warmCalls++;
  }
  const perCall = (now() - warmStart) / warmCalls;
  const callsPerSample = Math.max(1, Math.ceil(MIN_SAMPLE_MS / perCall));
  const samples = Math.max(MIN_SAMPLES, Math.ceil(MIN_TOTAL_MS / (perCall * callsPerSample)));
  const times: number[] = [];
  for (let s = 0; s < samples; s++) {
    const start = now();
    await batch(callsPerSample);
    times.push((now() - start) / callsPerSample);
  }
  return { ms: median(times), samples, callsPerSample };
}

/** Milliseconds from an arbitrary origin. */
export function now(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
