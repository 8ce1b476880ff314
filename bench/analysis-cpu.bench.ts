// The editor's analysis (`analyzePlanText`) in CPU time, beside `JSON.parse` of the same text and,
// with --before, another build of the core, the three interleaved call by call in one process:
// on a loaded machine CPU time (`process.cpuUsage`, which counts V8's collector threads too) and
// ratios within one process are what can be read. Node's defaults, as the language server runs.
// Checks that both builds give byte-identical problems. With the figures, the collector's work per
// analysis of this build (scavenges and mark-compacts, from `gc` performance entries), which a
// loaded machine does not change. Prints figures; asserts nothing.
//
//   node bench/out/analysis-cpu.bench.js                                 1k, 10k, 60k, flat and nested
//   node bench/out/analysis-cpu.bench.js --sizes 10000 --shapes flat     one plan
//   node bench/out/analysis-cpu.bench.js --checkpoints                   also the 5.8 MB plan of 60,000 checkpoints
//   node bench/out/analysis-cpu.bench.js --before /path/to/shared-runtime/out   another build beside this one
//   node bench/out/analysis-cpu.bench.js --allocations --sizes 60000   what one analysis allocates and keeps, by function
//       (V8's sampling heap profiler, with and without the objects the collector took)
//   node bench/out/analysis-cpu.bench.js --compare-flags ";--max-semi-space-size=32" --rounds 5
//                                     children with each set of flags in turn, medians over the rounds

import { spawnSync } from "node:child_process";
import * as os from "node:os";
import { join, resolve } from "node:path";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { Session } from "node:inspector";
import { pathToFileURL } from "node:url";
import { analyzePlanText, type AnalysisPolicy } from "@rlm-plan/core";
import { table } from "./measure";
import { CAPABILITIES, HUGE_BUDGET, planText, type PlanShape } from "./plans";

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const SIZES = (option("--sizes") ?? "1000,10000,60000").split(",").map(Number);
const SHAPES = (option("--shapes") ?? "flat,nested").split(",") as PlanShape[];
const SAMPLES = Number(option("--samples") ?? 11);
const BEFORE = option("--before");
const CHILD_MARK = "RLM_PLAN_BENCH_ANALYSIS_CHILD";

type Analyze = (text: string, policy: AnalysisPolicy) => { problems: readonly unknown[] };

interface Subject {
  readonly name: string;
  readonly run: (text: string) => unknown;
  readonly cpu: number[];
}

/** CPU milliseconds of `call`, repeated until it has used at least 10 ms, per call. */
function cpuPerCall(call: () => unknown, keep: (value: unknown) => void): number {
  let count = 0;
  const start = process.cpuUsage();
  let used = 0;
  do {
    keep(call());
    count++;
    used = cpuMs(process.cpuUsage(start));
  } while (used < 10);
  return used / count;
}

/** Scavenges and mark-compacts per call of `call`, over 10 calls. */
async function collectorWork(call: () => void): Promise<{ scavenges: number; markCompacts: number }> {
  let scavenges = 0;
  let markCompacts = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) markCompacts++;
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  const calls = 10;
  for (let i = 0; i < calls; i++) call();
  // Entries are delivered after the calls, on a later turn of the event loop.
  await new Promise((done) => setTimeout(done, 50));
  observer.disconnect();
  return { scavenges: scavenges / calls, markCompacts: markCompacts / calls };
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The 5.8 MB plan of issue 22 (big-documents.bench.ts's): 60,000 checkpoints, none granted. */
function checkpointText(): string {
  const steps = Array.from(
    { length: 60_000 },
    (_, i) => `{"op": "checkpoint", "label": "step ${i} of a plan that is five megabytes long, give or take"}`,
  );
  return `{"steps": [\n${steps.join(",\n")},\n{"op": "final", "value": 1}]}\n`;
}

async function run(): Promise<void> {
  const policy = { capabilities: CAPABILITIES, budget: HUGE_BUDGET };
  const before = BEFORE
    ? ((await import(pathToFileURL(join(resolve(BEFORE), "index.js")).href)) as { analyzePlanText: Analyze })
        .analyzePlanText
    : undefined;
  console.log(
    `node ${process.version} ${process.execArgv.join(" ") || "(no flags)"} · ${os.cpus()[0]?.model ?? "?"} · load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const plans: { name: string; steps: number; text: string; policy: AnalysisPolicy }[] = [];
  for (const shape of SHAPES)
    for (const steps of SIZES)
      plans.push({ name: `${shape} ${steps.toLocaleString("en-US")}`, steps, text: planText(shape, steps), policy });
  if (argv.includes("--checkpoints"))
    plans.push({
      name: "5.8 MB, checkpoints",
      steps: 60_001,
      text: checkpointText(),
      policy: { capabilities: CAPABILITIES },
    });
  const rows: string[][] = [];
  const perStep = new Map<string, number>();
  const results: Record<string, number> = {};
  const gcRows: string[][] = [];
  for (const plan of plans) {
    // What the server holds: the previous analysis of each document, alive while the next runs.
    const held = new Map<string, unknown>();
    const subjects: Subject[] = [
      { name: "JSON.parse", run: (text) => JSON.parse(text), cpu: [] },
      { name: "after", run: (text) => analyzePlanText(text, plan.policy), cpu: [] },
      ...(before ? [{ name: "before", run: (text: string) => before(text, plan.policy), cpu: [] }] : []),
    ];
    if (before) {
      const a = JSON.stringify(analyzePlanText(plan.text, plan.policy).problems);
      const b = JSON.stringify(before(plan.text, plan.policy).problems);
      if (a !== b) throw new Error(`${plan.name}: the problems differ between the builds`);
    }
    // Warm-up: the compiler's threads count in the process's CPU time until the code is optimized.
    for (const subject of subjects) {
      const start = process.cpuUsage();
      for (let i = 0; i < 5 || cpuMs(process.cpuUsage(start)) < 300; i++)
        held.set(subject.name, subject.run(plan.text));
    }
    for (let round = 0; round < SAMPLES; round++) {
      // Each round starts with another subject, so none always runs after the same one.
      for (let k = 0; k < subjects.length; k++) {
        const subject = subjects[(round + k) % subjects.length] as Subject;
        subject.cpu.push(
          cpuPerCall(
            () => subject.run(plan.text),
            (value) => held.set(subject.name, value),
          ),
        );
      }
    }
    const [parse, after, old] = subjects.map((s) => median(s.cpu)) as [number, number, number | undefined];
    const gc = await collectorWork(() => held.set("after", analyzePlanText(plan.text, plan.policy)));
    results[`${plan.name} scavenges`] = gc.scavenges;
    results[`${plan.name} mark-compacts`] = gc.markCompacts;
    gcRows.push([plan.name, gc.scavenges.toFixed(1), gc.markCompacts.toFixed(1)]);
    results[plan.name] = after;
    perStep.set(`${plan.name} after`, after / plan.steps);
    if (old !== undefined) perStep.set(`${plan.name} before`, old / plan.steps);
    perStep.set(`${plan.name} JSON.parse`, parse / plan.steps);
    rows.push([
      plan.name,
      `${parse.toFixed(2)} ms`,
      ...(old !== undefined ? [`${old.toFixed(1)} ms (${(old / parse).toFixed(2)}x)`] : []),
      `${after.toFixed(1)} ms (${(after / parse).toFixed(2)}x)`,
      ...(old !== undefined ? [(after / old).toFixed(2)] : []),
    ]);
  }
  const header = ["plan", "JSON.parse", ...(before ? ["before"] : []), "after", ...(before ? ["after / before"] : [])];
  table(header, rows);
  const growth: string[][] = [];
  for (const shape of SHAPES)
    for (const who of ["JSON.parse", ...(before ? ["before"] : []), "after"]) {
      const series = SIZES.map((n) => perStep.get(`${shape} ${n.toLocaleString("en-US")} ${who}`) as number);
      growth.push([`${shape} ${who}`, ...series.slice(1).map((v, i) => `×${(v / (series[i] as number)).toFixed(2)}`)]);
    }
  if (SIZES.length > 1) {
    console.log(`\nper-step growth (CPU; ×1.00 = linear)`);
    table(["series", ...SIZES.slice(1).map((n, i) => `${SIZES[i]} → ${n}`)], growth);
  }
  console.log(`\nthe collector's work per analysis (this build; 10 analyses, the previous one held):`);
  table(["plan", "scavenges", "mark-compacts"], gcRows);
  console.log(
    `\nmedians of ${SAMPLES} CPU samples each; load at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const maxRssMiB = process.resourceUsage().maxRSS / 1024;
  console.log(`peak resident memory ${maxRssMiB.toFixed(0)} MiB`);
  if (argv.includes("--json")) console.log(`${JSON_MARK}${JSON.stringify({ ...results, "peak RSS MiB": maxRssMiB })}`);
}

const JSON_MARK = "analysis-cpu.bench: ";

/**
 * `--compare-flags "A;B"`: each round runs one child per set of flags (the order turned each
 * round), so load hits every set alike; prints each plan's median over the rounds.
 */
function compareFlags(sets: readonly string[], rounds: number): void {
  const figures = sets.map(() => new Map<string, number[]>());
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sets.length; k++) {
      const at = (round + k) % sets.length;
      const flags = (sets[at] as string).split(",").filter((f) => f !== "");
      const rest = argv.filter(
        (a, i) =>
          a !== "--compare-flags" &&
          argv[i - 1] !== "--compare-flags" &&
          a !== "--rounds" &&
          argv[i - 1] !== "--rounds",
      );
      const child = spawnSync(process.execPath, [...flags, __filename, ...rest, "--json"], {
        encoding: "utf8",
        env: { ...process.env, [CHILD_MARK]: "1" },
        maxBuffer: 1 << 24,
      });
      const line = child.stdout.split("\n").find((l) => l.startsWith(JSON_MARK));
      if (!line) throw new Error(`child with ${sets[at]} gave no figures: ${child.stderr}`);
      for (const [name, value] of Object.entries(JSON.parse(line.slice(JSON_MARK.length)) as Record<string, number>)) {
        const list = (figures[at] as Map<string, number[]>).get(name) ?? [];
        list.push(value);
        (figures[at] as Map<string, number[]>).set(name, list);
      }
      console.log(`round ${round + 1}: ${sets[at] || "(no flags)"} done; load ${os.loadavg()[0]?.toFixed(1)}`);
    }
  }
  const names = [...(figures[0] as Map<string, number[]>).keys()];
  const rows = names.map((name) => {
    const base = median((figures[0] as Map<string, number[]>).get(name) ?? []);
    return [
      name,
      ...figures.map((f) => {
        const value = median(f.get(name) ?? []);
        return `${value.toFixed(1)} (${(value / base).toFixed(2)})`;
      }),
    ];
  });
  console.log(
    `\nCPU ms of the analysis (scavenges and mark-compacts per analysis, peak RSS), median of ${rounds} child processes per set; (ratio to the first set)`,
  );
  table(["plan", ...sets.map((set) => set || "(no flags)")], rows);
}

interface SamplingNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly SamplingNode[];
}

/** Bytes one analysis allocates (`collected`: also what the collector took) by allocating function. */
async function sampledAllocations(
  text: string,
  policy: AnalysisPolicy,
  collected: boolean,
): Promise<Map<string, number>> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((done, fail) =>
      session.post(method, params, (error, result) => (error ? fail(error) : done(result))),
    );
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: collected,
    includeObjectsCollectedByMinorGC: collected,
  });
  const kept = analyzePlanText(text, policy);
  const { profile } = (await post("HeapProfiler.stopSampling")) as { profile: { head: SamplingNode } };
  session.disconnect();
  void kept;
  const bySite = new Map<string, number>();
  const pending = [profile.head];
  for (let node = pending.pop(); node; node = pending.pop()) {
    const frame = node.callFrame;
    const site = `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(shared-runtime\/out\/)/, "")}:${frame.lineNumber + 1}`;
    if (node.selfSize > 0) bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    pending.push(...node.children);
  }
  return bySite;
}

async function allocations(): Promise<void> {
  const policy = { capabilities: CAPABILITIES, budget: HUGE_BUDGET };
  for (const shape of SHAPES)
    for (const steps of SIZES) {
      const text = planText(shape, steps);
      for (let i = 0; i < 3; i++) analyzePlanText(text, policy);
      for (const collected of [true, false]) {
        const sites = [...(await sampledAllocations(text, policy, collected))].sort((a, b) => b[1] - a[1]);
        const total = sites.reduce((sum, [, bytes]) => sum + bytes, 0);
        const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
        console.log(
          `\n${shape} ${steps.toLocaleString("en-US")}: ${collected ? "allocated" : "kept after it"} ${mb(total)}`,
        );
        table(
          ["function (file:line of its start)", "bytes"],
          sites.slice(0, 8).map(([site, bytes]) => [site, mb(bytes)]),
        );
      }
    }
}

if (argv.includes("--allocations")) {
  void allocations();
} else if (option("--compare-flags") !== undefined) {
  compareFlags((option("--compare-flags") as string).split(";"), Number(option("--rounds") ?? 3));
} else {
  void run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
