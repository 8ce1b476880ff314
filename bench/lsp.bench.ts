// The language server under a real LSP client, over stdio, on generated plans of 100, 1,000 and
// 10,000 steps: didChange -> publishDiagnostics, hover and completion latency, memory with 1,000
// open plans, and side by side in the same run the baseline: vscode-json-languageservice
// validating the same text against the published plan JSON Schema, in this process. Nothing
// here asserts on time: it prints figures, ratios and verdicts against the project's targets.
//
//   node bench/out/lsp.bench.js               the benchmark (about a minute)
//   node bench/out/lsp.bench.js --cpu-prof    the same with the server under `node --cpu-prof`,
//                                             then its top functions (timings are inflated)
//   node bench/out/lsp.bench.js --hostile     only the hostile documents (lspHostile.ts)
//   node bench/out/lsp.bench.js --sizes 10000 only the plans of those sizes (no hostile documents, no memory)
//   node bench/out/lsp.bench.js --memory      only (c), the memory of open plans
//   node bench/out/lsp.bench.js --full-text   each change sends the whole text (default: one range
//                                             edit, as an editor sends typing under incremental sync)

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { analyzePlanText } from "@rlm-plan/core";
import { getLanguageService, TextDocument, type JSONSchema, type LanguageService } from "vscode-json-languageservice";
import { analyzePlan } from "@rlm-plan/language-server/service/analyzedPlan";
import { planDiagnostics } from "@rlm-plan/language-server/service/diagnostics";
import { HostProfiles } from "@rlm-plan/language-server/lsp/hostProfiles";
import { LspClient, SERVER_MAIN, type ClientOptions, type HeapUsage } from "@rlm-plan/lsp-harness";
import { summarizeCpuProfile } from "./cpuProfile";
import { measureHostile, printHostile } from "./lspHostile";
import { now, timed } from "./measure";
import { edited, incrementalChange, pick, Positions, random } from "./lspEdits";
import { CAPABILITIES, HUGE_BUDGET, hostProfileText, planText, type PlanShape } from "./plans";

const SIZES = [100, 1_000, 10_000] as const;
/** `--full-text`: each change sends the whole text, as the benchmark did before 2026-12-02. */
const FULL_TEXT = process.argv.includes("--full-text");
const SHAPES: readonly PlanShape[] = ["flat", "nested"];
const WARMUP_CHANGES = 3;
/** Measured changes per plan size: more where each is quick, so the p95 means something. */
const CHANGES: Readonly<Record<(typeof SIZES)[number], number>> = { 100: 60, 1_000: 40, 10_000: 20 };
const HOVERS = 400;
const COMPLETIONS = 200;
const MEMORY_PLANS = 1_000;
const MEMORY_PLAN_STEPS = 100;
const HOVER_TARGET_MS = 5;
const RATIO_TARGET = 1.0;
/** Per-step cost at 10,000 steps over that at 1,000 above this is called superlinear. */
const LINEAR_TOLERANCE = 1.5;

const REPO = resolve(__dirname, "..", "..");
const SCHEMA_FILE = join(REPO, "shared-runtime", "schemas", "plan.schema.json");
/** What the server is told: check at once (the default is 150 ms after the last edit). */
const SETTINGS = { validationDelay: 0 };
/** The server measured: the build of this checkout, or another (a "before") named by RLM_PLAN_BENCH_SERVER. */
const SERVER = process.env.RLM_PLAN_BENCH_SERVER ?? SERVER_MAIN;
/** Plans of 10,000 steps and 1,000 plans at once take longer than a test's 10 s wait. */
const WAIT_MS = 60_000;
/** The policy the server gets from the host profile below, for the in-process analysis. */
const POLICY = { capabilities: CAPABILITIES, budget: HUGE_BUDGET };

// ---- statistics and printing --------------------------------------------------------------------

interface Stats {
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly count: number;
}

function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted[sorted.length - 1] ?? NaN,
    count: sorted.length,
  };
}

/** Linear interpolation between the two nearest ranks of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)] as number;
  const high = sorted[Math.ceil(at)] as number;
  return low + (high - low) * (at - Math.floor(at));
}

function section(title: string): void {
  console.log(`\n${title}\n${"-".repeat(title.length)}`);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function times(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}

function growth(values: readonly number[]): string[] {
  return values.slice(1).map((v, i) => `×${(v / (values[i] as number)).toFixed(2)}`);
}

function label(shape: PlanShape, steps: number): string {
  return `${shape} ${steps.toLocaleString("en-US")}`;
}

function mib(kib: number): string {
  return `${(kib / 1024).toFixed(1)} MiB`;
}

// ---- documents and positions ---------------------------------------------------------------------

/** Where a request goes, by kind: each kind gets an equal share of the requests. */
interface Target {
  readonly kind: string;
  readonly offsets: readonly number[];
}

function hoverTargets(positions: Positions): Target[] {
  return [
    { kind: "step (on op)", offsets: positions.after(/"op": "/g, 1) },
    { kind: "variable reference", offsets: positions.after(/"ref": "var",\s*"name": "/g, 1) },
    { kind: "binding", offsets: positions.after(/"bind": "/g, 1) },
    { kind: "tool name", offsets: positions.after(/"name": "echo"/g, -3) },
    { kind: "plan top (steps)", offsets: positions.after(/"steps"/g, -3).slice(0, 1) },
  ];
}

function completionTargets(positions: Positions): Target[] {
  return [
    { kind: "operation", offsets: positions.after(/"op": "/g, 2) },
    { kind: "variable in scope", offsets: positions.after(/"ref": "var",\s*"name": "/g, 1) },
    { kind: "tool name", offsets: positions.after(/"name": "echo"/g, -3) },
    { kind: "reference kind", offsets: positions.after(/"ref": "/g, 1) },
  ];
}

// ---- the baseline: vscode-json-languageservice with the published schema -------------------------

class SchemaBaseline {
  private readonly service: LanguageService;
  readonly schemaUri = pathToFileURL(SCHEMA_FILE).href;

  constructor() {
    const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as JSONSchema;
    this.service = getLanguageService({
      schemaRequestService: (uri) => Promise.resolve(readFileSync(new URL(uri), "utf8")),
    });
    this.service.configure({
      validate: true,
      allowComments: false,
      schemas: [{ uri: this.schemaUri, fileMatch: ["*.rlmplan.json"], schema }],
    });
  }

  /** What a JSON server does on a full-text change: a document, a parse, schema validation. */
  async validate(name: string, version: number, text: string): Promise<number> {
    const document = TextDocument.create(`file:///bench/${name}.rlmplan.json`, "json", version, text);
    const json = this.service.parseJSONDocument(document);
    const diagnostics = await this.service.doValidation(document, json);
    return diagnostics.length;
  }
}

// ---- the runs ------------------------------------------------------------------------------------

interface PlanRow {
  readonly shape: PlanShape;
  readonly steps: number;
  readonly bytes: number;
  readonly openMs: number;
  readonly serverProblems: number;
  readonly schemaProblems: number;
  readonly change: Stats;
  readonly analyze: Stats;
  readonly pipeline: Stats;
  readonly schema: Stats;
  readonly hoverAfterEdit: Stats;
  readonly hover: Stats;
  readonly hoverAnswered: number;
  readonly hoverByKind: ReadonlyMap<string, Stats>;
  readonly completion: Stats;
  readonly completionByKind: ReadonlyMap<string, { stats: Stats; items: number }>;
}

/** The server on `root` with the bench's settings (sent in initialize and answered when asked). */
function startServer(root: string, options: Pick<ClientOptions, "cpuProfileDir" | "memoryHook">): Promise<LspClient> {
  return LspClient.start({
    root,
    settings: SETTINGS,
    initializationOptions: { rlmPlan: SETTINGS },
    serverMain: SERVER,
    waitMs: WAIT_MS,
    ...options,
  });
}

async function measurePlan(
  session: LspClient,
  baseline: SchemaBaseline,
  root: string,
  shape: PlanShape,
  steps: (typeof SIZES)[number],
): Promise<PlanRow> {
  const name = `${shape}-${steps}`;
  const original = planText(shape, steps);
  const opened = await timed(() => session.openChecked(join(root, "plans", `${name}.rlmplan.json`), original));
  const uri = pathToFileURL(join(root, "plans", `${name}.rlmplan.json`)).href;
  const next = random(steps + (shape === "flat" ? 1 : 2));

  const file = join(root, "plans", `${name}.rlmplan.json`);
  // The server's own pipeline in this process: the host profile (read once, as the server caches
  // it), the document, analyzePlan (jsonc tree + analyzePlanText + host preflight), diagnostics.
  const hostStatus = new HostProfiles(() => undefined).statusFor(file);
  if (hostStatus.kind !== "ok") throw new Error(`bench host profile: ${hostStatus.kind}`);
  const change: number[] = [];
  const pipeline: number[] = [];
  const analyze: number[] = [];
  const schema: number[] = [];
  const hoverAfterEdit: number[] = [];
  let serverProblems = -1;
  let schemaProblems = -1;
  let text = original;
  for (let i = 0; i < WARMUP_CHANGES + CHANGES[steps]; i++) {
    const before = text;
    text = edited(original, i + 1);
    const positions = new Positions(text);
    const ops = positions.after(/"op": "/g, 1);
    const result = FULL_TEXT
      ? await session.changeTimed(uri, text)
      : await session.editTimed(uri, ...incrementalChange(before, text));
    serverProblems = result.published.diagnostics.length;
    // The first hover after an edit: whatever the server computes lazily, it computes now.
    const hoverMs = await timed(() => session.hover(uri, positions.at(pick(ops, next))));
    let schemaStart = now();
    schemaProblems = await baseline.validate(name, i + 2, text);
    const schemaMs = now() - schemaStart;
    schemaStart = now();
    const analysis = analyzePlanText(text, POLICY);
    const analyzeMs = now() - schemaStart;
    if (analysis.problems.length !== 0) throw new Error(`${name}: ${analysis.problems[0]?.message}`);
    schemaStart = now();
    const document = TextDocument.create(uri, "rlm-plan", i + 2, text);
    const diagnostics = planDiagnostics(analyzePlan(document, hostStatus), { hostProblemsAsErrors: false });
    const pipelineMs = now() - schemaStart;
    if (diagnostics.length !== serverProblems)
      throw new Error(`${name}: in-process diagnostics differ from the server's`);
    if (i < WARMUP_CHANGES) continue;
    change.push(result.ms);
    hoverAfterEdit.push(hoverMs);
    schema.push(schemaMs);
    analyze.push(analyzeMs);
    pipeline.push(pipelineMs);
  }

  // Hovers and completions on the last version, at varied places, one request at a time.
  const positions = new Positions(text);
  const hoverKinds = hoverTargets(positions);
  const hoverTimes: number[] = [];
  const hoverByKind = new Map<string, number[]>();
  let hoverAnswered = 0;
  for (let i = 0; i < HOVERS; i++) {
    const target = hoverKinds[i % hoverKinds.length] as Target;
    const position = positions.at(pick(target.offsets, next));
    const start = now();
    const hover = await session.hover(uri, position);
    const elapsed = now() - start;
    if (hover !== null) hoverAnswered++;
    hoverTimes.push(elapsed);
    hoverByKind.set(target.kind, [...(hoverByKind.get(target.kind) ?? []), elapsed]);
  }
  const completionKinds = completionTargets(positions);
  const completionTimes: number[] = [];
  const completionByKind = new Map<string, { times: number[]; items: number[] }>();
  for (let i = 0; i < COMPLETIONS; i++) {
    const target = completionKinds[i % completionKinds.length] as Target;
    const position = positions.at(pick(target.offsets, next));
    const start = now();
    const items = await session.completion(uri, position);
    const elapsed = now() - start;
    completionTimes.push(elapsed);
    const entry = completionByKind.get(target.kind) ?? { times: [], items: [] };
    entry.times.push(elapsed);
    entry.items.push(items.length);
    completionByKind.set(target.kind, entry);
  }
  await session.close(uri);

  return {
    shape,
    steps,
    bytes: Buffer.byteLength(original),
    openMs: opened,
    serverProblems,
    schemaProblems,
    change: stats(change),
    analyze: stats(analyze),
    pipeline: stats(pipeline),
    schema: stats(schema),
    hoverAfterEdit: stats(hoverAfterEdit),
    hover: stats(hoverTimes),
    hoverAnswered,
    hoverByKind: new Map([...hoverByKind].map(([kind, values]) => [kind, stats(values)])),
    completion: stats(completionTimes),
    completionByKind: new Map(
      [...completionByKind].map(([kind, entry]) => [
        kind,
        { stats: stats(entry.times), items: stats(entry.items).median },
      ]),
    ),
  };
}

interface MemoryRow {
  readonly idleKiB: number;
  readonly openKiB: number;
  readonly peakKiB: number;
  /** After a full garbage collection, idle and with every plan open. */
  readonly idleGc: { readonly rssKiB: number; readonly heap: HeapUsage };
  readonly openGc: { readonly rssKiB: number; readonly heap: HeapUsage };
  readonly openAllMs: number;
  readonly textBytes: number;
  readonly problems: number;
}

/** A fresh server; 1,000 different 100-step plans (flat and nested in turn) opened and checked. */
async function memory(root: string): Promise<MemoryRow> {
  const session = await startServer(root, { memoryHook: true });
  try {
    // Let the server settle after initialize (settings pulled).
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));
    const idle = session.memory();
    const idleHeap = await session.collectGarbage();
    const idleGc = { rssKiB: session.memory().rssKiB, heap: idleHeap };
    const bases = { flat: planText("flat", MEMORY_PLAN_STEPS), nested: planText("nested", MEMORY_PLAN_STEPS) };
    const start = now();
    const opens: Promise<{ uri: string; published: { diagnostics: readonly unknown[] } }>[] = [];
    let textBytes = 0;
    for (let i = 0; i < MEMORY_PLANS; i++) {
      const shape: PlanShape = i % 2 === 0 ? "flat" : "nested";
      const text = edited(bases[shape], i);
      textBytes += Buffer.byteLength(text);
      opens.push(session.openChecked(join(root, "many", `plan-${i}.rlmplan.json`), text));
    }
    const opened = await Promise.all(opens);
    const openAllMs = now() - start;
    const problems = opened.reduce((sum, o) => sum + o.published.diagnostics.length, 0);
    const open = session.memory();
    const openHeap = await session.collectGarbage();
    const openGc = { rssKiB: session.memory().rssKiB, heap: openHeap };
    return {
      idleKiB: idle.rssKiB,
      openKiB: open.rssKiB,
      peakKiB: open.peakKiB,
      idleGc,
      openGc,
      openAllMs,
      textBytes,
      problems,
    };
  } finally {
    await session.stop();
  }
}

// ---- reporting -----------------------------------------------------------------------------------

function printChanges(rows: readonly PlanRow[]): void {
  section("(a) didChange -> publishDiagnostics, beside vscode-json-languageservice + plan.schema.json");
  console.log(
    [
      FULL_TEXT
        ? "ours     = ms from writing a textDocument/didChange (version n, one full-text change) to the server's"
        : "ours     = ms from writing a textDocument/didChange (version n, one range edit, as an editor sends) to the server's",
      FULL_TEXT
        ? "           stdin until publishDiagnostics for version n arrives: JSON-RPC both ways (the whole text"
        : "           stdin until publishDiagnostics for version n arrives: JSON-RPC both ways (the edit one way,",
      FULL_TEXT
        ? "           crosses the pipe), the server's document update, its timer (validationDelay 0, which Node"
        : "           the diagnostics back), the server's document update, its timer (validationDelay 0, which Node",
      "           clamps to 1 ms), analysis, diagnostics. The server got rlmPlan.validationDelay = 0 in",
      "           initializationOptions and again from workspace/configuration, which it pulls after",
      "           initialized (workspace.ts readSettings; without it every change waits 150 ms).",
      "server   = the server's own pipeline in this process, no IPC: TextDocument.create + analyzePlan",
      "           (jsonc tree, analyzePlanText, host preflight) + planDiagnostics, from server/out.",
      "analyze  = analyzePlanText(text, policy) from shared-runtime in this process (the core of it).",
      "schema   = vscode-json-languageservice in this process: TextDocument.create + parseJSONDocument +",
      "           doValidation against shared-runtime/schemas/plan.schema.json (no IPC: favours the baseline).",
      `${CHANGES[100]} / ${CHANGES[1_000]} / ${CHANGES[10_000]} measured changes per plan of 100 / 1,000 / 10,000 steps, after ${WARMUP_CHANGES} warm-up ones;`,
      "each change edits the seed string near the top; all four are timed on the same text, one after",
      "another, change by change. med = median, p95 = 95th percentile, ratios = ours (or in-process) / schema.",
    ].join("\n"),
  );
  console.log("");
  table(
    [
      "plan",
      "text",
      "ours med",
      "p95",
      "server med",
      "p95",
      "analyze med",
      "schema med",
      "p95",
      "ours/schema",
      "p95",
      "server/schema",
      "analyze/schema",
      "problems",
    ],
    rows.map((r) => [
      label(r.shape, r.steps),
      `${(r.bytes / 1024).toFixed(0)} KB`,
      ms(r.change.median),
      ms(r.change.p95),
      ms(r.pipeline.median),
      ms(r.pipeline.p95),
      ms(r.analyze.median),
      ms(r.schema.median),
      ms(r.schema.p95),
      times(r.change.median / r.schema.median),
      times(r.change.p95 / r.schema.p95),
      times(r.pipeline.median / r.schema.median),
      times(r.analyze.median / r.schema.median),
      `${r.serverProblems}/${r.schemaProblems}`,
    ]),
  );
  console.log("(problems = diagnostics ours/schema on the valid generated plans: both must be 0)");
  console.log(
    "(open -> first diagnostics, one sample each, ms: " +
      rows.map((r) => `${label(r.shape, r.steps)} ${ms(r.openMs)}`).join(", ") +
      ")",
  );

  console.log("\nPer-step cost (µs/step, medians) and its growth 100 -> 1,000 -> 10,000 (×1.00 = linear; 100-step");
  console.log("figures carry the fixed cost of a round trip, so 100 -> 1k growth below ×1 is expected):");
  const lines: string[][] = [];
  for (const shape of SHAPES) {
    const of = rows.filter((r) => r.shape === shape);
    const series: [string, (r: PlanRow) => number][] = [
      ["ours didChange->diagnostics", (r) => r.change.median],
      ["server pipeline in-process", (r) => r.pipeline.median],
      ["analyzePlanText in-process", (r) => r.analyze.median],
      ["schema (json-languageservice)", (r) => r.schema.median],
    ];
    for (const [name, pickValue] of series) {
      const perStep = of.map((r) => (pickValue(r) * 1000) / r.steps);
      lines.push([`${shape} ${name}`, ...perStep.map((v) => v.toFixed(2)), ...growth(perStep)]);
    }
    const hover = of.map((r) => r.hover.p95);
    lines.push([`${shape} hover p95 (ms, not per step)`, ...hover.map((v) => v.toFixed(2)), ...growth(hover)]);
  }
  table(["series", "100", "1,000", "10,000", "100->1k", "1k->10k"], lines);
}

function printRequests(rows: readonly PlanRow[]): void {
  section(
    `(b) hover and completion latency (${HOVERS} hovers, ${COMPLETIONS} completions per plan, one at a time, on the last version)`,
  );
  console.log("ms from sending the request to its response; positions spread evenly over the kinds below,");
  console.log("each at a random occurrence in the plan (fixed seed). 'after edit' = the first hover after each");
  console.log(`of the measured changes in (a), when the server may still build lazily computed indexes.\n`);
  table(
    ["plan", "hover med", "p95", "max", "answered", "after edit med", "p95", "completion med", "p95", "max"],
    rows.map((r) => [
      label(r.shape, r.steps),
      ms(r.hover.median),
      ms(r.hover.p95),
      ms(r.hover.max),
      `${r.hoverAnswered}/${HOVERS}`,
      ms(r.hoverAfterEdit.median),
      ms(r.hoverAfterEdit.p95),
      ms(r.completion.median),
      ms(r.completion.p95),
      ms(r.completion.max),
    ]),
  );
  console.log("\nBy kind on the 10,000-step plans (median / p95 ms; completion: median items returned):");
  const big = rows.filter((r) => r.steps === 10_000);
  const hoverKinds = [...(big[0]?.hoverByKind.keys() ?? [])];
  table(
    ["hover at", ...big.map((r) => label(r.shape, r.steps))],
    hoverKinds.map((kind) => [
      kind,
      ...big.map((r) => {
        const s = r.hoverByKind.get(kind);
        return s ? `${ms(s.median)} / ${ms(s.p95)}` : "-";
      }),
    ]),
  );
  const completionKinds = [...(big[0]?.completionByKind.keys() ?? [])];
  table(
    ["completion at", ...big.map((r) => label(r.shape, r.steps))],
    completionKinds.map((kind) => [
      kind,
      ...big.map((r) => {
        const c = r.completionByKind.get(kind);
        return c ? `${ms(c.stats.median)} / ${ms(c.stats.p95)} (${c.items} items)` : "-";
      }),
    ]),
  );
}

function printMemory(row: MemoryRow): void {
  section(
    `(c) server memory with ${MEMORY_PLANS.toLocaleString("en-US")} open ${MEMORY_PLAN_STEPS}-step plans (a fresh server)`,
  );
  console.log("VmRSS from /proc/<pid>/status; plans alternate flat and nested, each text different; every one");
  console.log("opened (validationDelay 0) and its diagnostics received before reading. The server runs with");
  console.log(
    "--expose-gc and a preloaded hook (test/support/lsp/src/serverMemoryHook.ts) so a full GC can be asked for by",
  );
  console.log("signal: the 'after full GC' rows tell live memory from garbage not yet collected.\n");
  const perPlan = (kib: number): string => `${(kib / MEMORY_PLANS).toFixed(0)} KiB/plan`;
  const heapKiB = (h: HeapUsage): number => h.heapUsed / 1024;
  table(
    ["server", "VmRSS", "V8 heap used", "note"],
    [
      ["after initialize", mib(row.idleKiB), "", ""],
      ["  after full GC", mib(row.idleGc.rssKiB), mib(heapKiB(row.idleGc.heap)), ""],
      [
        `${MEMORY_PLANS} plans open`,
        mib(row.openKiB),
        "",
        `+${mib(row.openKiB - row.idleKiB)} = ${perPlan(row.openKiB - row.idleKiB)}; texts ${(row.textBytes / 1024 / 1024).toFixed(1)} MiB in all (${(row.textBytes / MEMORY_PLANS / 1024).toFixed(0)} KiB/plan)`,
      ],
      [
        "  after full GC",
        mib(row.openGc.rssKiB),
        mib(heapKiB(row.openGc.heap)),
        `live heap +${mib(heapKiB(row.openGc.heap) - heapKiB(row.idleGc.heap))} = ${perPlan(heapKiB(row.openGc.heap) - heapKiB(row.idleGc.heap))}`,
      ],
      ["peak (VmHWM)", mib(row.peakKiB), "", ""],
    ],
  );
  console.log(
    `opening all ${MEMORY_PLANS} (sent back to back) and receiving their diagnostics: ${ms(row.openAllMs)} ms (${ms(row.openAllMs / MEMORY_PLANS)} ms/plan); problems reported: ${row.problems}`,
  );
}

function printVerdicts(rows: readonly PlanRow[]): void {
  section("Verdicts");
  const ratioOk = rows.filter((r) => r.change.median / r.schema.median <= RATIO_TARGET);
  const pipelineOk = rows.filter((r) => r.pipeline.median / r.schema.median <= RATIO_TARGET);
  const inProcOk = rows.filter((r) => r.analyze.median / r.schema.median <= RATIO_TARGET);
  console.log(
    `didChange->diagnostics median within ${RATIO_TARGET.toFixed(1)}x of schema validation: ${ratioOk.length === rows.length ? "yes" : "no"} (${ratioOk.length} of ${rows.length} plans; worst ${times(Math.max(...rows.map((r) => r.change.median / r.schema.median)))})`,
  );
  console.log(
    `server pipeline in-process median within ${RATIO_TARGET.toFixed(1)}x of schema validation: ${pipelineOk.length === rows.length ? "yes" : "no"} (${pipelineOk.length} of ${rows.length}; worst ${times(Math.max(...rows.map((r) => r.pipeline.median / r.schema.median)))})`,
  );
  console.log(
    `in-process analyzePlanText median within ${RATIO_TARGET.toFixed(1)}x of schema validation: ${inProcOk.length === rows.length ? "yes" : "no"} (${inProcOk.length} of ${rows.length}; worst ${times(Math.max(...rows.map((r) => r.analyze.median / r.schema.median)))})`,
  );
  for (const r of rows.filter((row) => row.steps === 10_000)) {
    console.log(
      `hover p95 on ${label(r.shape, r.steps)}: ${ms(r.hover.p95)} ms -> under ${HOVER_TARGET_MS} ms: ${r.hover.p95 < HOVER_TARGET_MS ? "yes" : "no"} (first hover after an edit p95 ${ms(r.hoverAfterEdit.p95)} ms)`,
    );
    const over = [...r.hoverByKind].filter(([, s]) => s.p95 >= HOVER_TARGET_MS);
    console.log(
      `  hover kinds with p95 ≥ ${HOVER_TARGET_MS} ms there: ${over.length === 0 ? "none" : over.map(([kind, s]) => `${kind} ${ms(s.p95)} ms`).join(", ")}`,
    );
  }
  for (const shape of SHAPES) {
    const of = rows.filter((r) => r.shape === shape);
    const perStep = (r: PlanRow | undefined): number => (r ? r.change.median / r.steps : NaN);
    const g = perStep(of.find((r) => r.steps === 10_000)) / perStep(of.find((r) => r.steps === 1_000));
    if (Number.isNaN(g)) {
      console.log(`linear growth, ${shape}: not measured (it needs the 1,000- and 10,000-step plans)`);
      continue;
    }
    console.log(
      `linear growth, ${shape} (didChange->diagnostics per step, 1k -> 10k ×${g.toFixed(2)}; ≤ ×${LINEAR_TOLERANCE} counts as linear): ${g <= LINEAR_TOLERANCE ? "yes" : "no"}`,
    );
  }
}

function printProfile(directory: string): void {
  const files = readdirSync(directory).filter((f) => f.endsWith(".cpuprofile"));
  section("Server CPU profile (node --cpu-prof, the run above)");
  for (const file of files) {
    const summary = summarizeCpuProfile(join(directory, file), REPO);
    const busy = summary.sampledMs - summary.idleMs;
    console.log(
      `${file}: ${ms(summary.sampledMs)} ms sampled, ${ms(busy)} ms busy (${ms(summary.gcMs)} ms garbage collection)\n`,
    );
    const top = (order: (f: { selfMs: number; totalMs: number }) => number, count: number): string[][] =>
      [...summary.functions]
        .sort((a, b) => order(b) - order(a))
        .slice(0, count)
        .map((f) => [
          f.where,
          ms(f.selfMs),
          `${((f.selfMs / busy) * 100).toFixed(1)}%`,
          ms(f.totalMs),
          `${((f.totalMs / busy) * 100).toFixed(1)}%`,
        ]);
    console.log("top by self time:");
    table(
      ["function", "self ms", "of busy", "total ms", "of busy"],
      top((f) => f.selfMs, 25),
    );
    console.log("\ntop by total time (inclusive):");
    table(
      ["function", "self ms", "of busy", "total ms", "of busy"],
      top((f) => f.totalMs, 30),
    );
  }
}

async function main(): Promise<void> {
  const started = now();
  const profile = process.argv.includes("--cpu-prof");
  // `--sizes 10000` measures only those plans (and skips the hostile documents); `--memory` only (c).
  const sizesArg = process.argv[process.argv.indexOf("--sizes") + 1];
  const sizes = process.argv.includes("--sizes")
    ? SIZES.filter((size) => (sizesArg ?? "").split(",").map(Number).includes(size))
    : SIZES;
  const memoryOnly = process.argv.includes("--memory");
  console.log("rlm-plan benchmark: the language server over stdio with a real LSP client");
  console.log(
    `node ${process.version} · ${os.cpus()[0]?.model ?? "unknown CPU"} · ${os.cpus().length} logical CPUs · ${os.platform()} ${os.release()}`,
  );
  console.log(`load average at start: ${loadAverage()} (other work on the machine widens the p95 figures)`);
  console.log(
    `server: node ${SERVER.replace(`${REPO}/`, "")} --stdio${profile ? " under --cpu-prof (figures inflated by the profiler)" : ""}`,
  );
  console.log(
    "client: the LSP harness of test/protocol (test/support/lsp), vscode-languageserver-protocol over the child's stdin/stdout",
  );
  console.log(
    `settings: rlmPlan = ${JSON.stringify(SETTINGS)}; host profile: capabilities ${JSON.stringify(CAPABILITIES)}, tool echo, budgets no plan reaches`,
  );

  const root = mkdtempSync(join(os.tmpdir(), "rlm-plan-lsp-bench-"));
  writeFileSync(join(root, "rlmplan.host.json"), hostProfileText());
  const profileDir = profile ? mkdtempSync(join(os.tmpdir(), "rlm-plan-lsp-prof-")) : undefined;
  try {
    const baseline = new SchemaBaseline();
    const broken = await baseline.validate("sanity", 1, '{"steps": [{"op": "contxt", "bind": 3}]}');
    console.log(
      `baseline: vscode-json-languageservice ${jsonServiceVersion()}, schema ${SCHEMA_FILE.replace(`${REPO}/`, "")} (sanity: a broken plan gets ${broken} schema diagnostics)`,
    );

    if (memoryOnly) {
      printMemory(await memory(root));
      return;
    }
    const session = await startServer(root, profileDir ? { cpuProfileDir: profileDir } : {});
    const rows: PlanRow[] = [];
    const hostileOnly = process.argv.includes("--hostile");
    try {
      if (!hostileOnly)
        for (const shape of SHAPES)
          for (const steps of sizes) rows.push(await measurePlan(session, baseline, root, shape, steps));
      if (sizes.length === SIZES.length) printHostile(await measureHostile(session, root));
    } finally {
      await session.stop();
    }
    if (hostileOnly) return;
    if (session.stderr.trim() !== "") console.log(`\nserver stderr:\n${session.stderr.trim()}`);
    printChanges(rows);
    printRequests(rows);
    if (sizes.length === SIZES.length) printMemory(await memory(root));
    printVerdicts(rows);
    if (profileDir) printProfile(profileDir);
  } finally {
    rmSync(root, { recursive: true, force: true });
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  }
  console.log(`\ntotal ${((now() - started) / 1000).toFixed(1)} s; load average at the end: ${loadAverage()}`);
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((v) => v.toFixed(2))
    .join(" / ");
}

function jsonServiceVersion(): string {
  const file = join(REPO, "node_modules", "vscode-json-languageservice", "package.json");
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  return typeof parsed === "object" && parsed !== null && "version" in parsed && typeof parsed.version === "string"
    ? parsed.version
    : "(unknown version)";
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
