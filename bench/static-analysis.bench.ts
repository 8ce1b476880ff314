// Static analysis, interpretation and hostile nesting, each timed beside a baseline measured in
// this same process: the ratios are the figures that matter. Nothing here asserts on time.

import * as os from "node:os";
import { analyzePlanText, type JsonValue } from "@rlm-plan/core";
import { estimatePlan } from "@rlm-plan/core/plan/estimate";
import { executePlan } from "@rlm-plan/core/run/interpreter";
import { parsePlan } from "@rlm-plan/core/plan/parse";
import { validatePlan, type ValidatedPlan } from "@rlm-plan/core/plan/validate";
import { type Plan } from "@rlm-plan/core/plan/ast";
import { type RunHost, type ToolHandler } from "@rlm-plan/core/run/host";
import { awaitedCalls, calls, measure, now, table, type Subject, type Timing } from "./measure";
import {
  CAPABILITIES,
  HUGE_BUDGET,
  countSteps,
  deepExpressionText,
  deepRlmText,
  flatPlan,
  nestedPlan,
  type PlanShape,
} from "./plans";

/** `--sizes 1000,10000,60000` times the static analysis alone on other plan sizes (issue 22 asks for growth up to 60,000 steps). */
const SIZES_ARG = process.argv.indexOf("--sizes");
const SIZES: readonly number[] =
  SIZES_ARG > 0 ? (process.argv[SIZES_ARG + 1] ?? "").split(",").map(Number) : [100, 1_000, 10_000];
const SHAPES: readonly PlanShape[] = ["flat", "nested"];
const TARGET_RATIO = 3;
/** The editor's analysis (ranges, every problem, the semantic model): issue 8's target. */
const EDITOR_TARGET_RATIO = 10;
const POLICY = { capabilities: CAPABILITIES, budget: HUGE_BUDGET };

/** What the host runs: parse the model's text, then validate (which computes the estimate). */
function fullAnalysis(text: string): ValidatedPlan {
  const parsed = parsePlan({ kind: "model", text });
  if (!parsed.plan) throw new Error(`bench plan did not parse: ${parsed.problems[0]?.message}`);
  const validation = validatePlan(parsed.plan, POLICY);
  if (!validation.ok) throw new Error(`bench plan is invalid: ${validation.problems[0]?.message}`);
  return validation.validated;
}

interface Row {
  readonly shape: PlanShape;
  readonly steps: number;
  readonly bytes: number;
  readonly jsonParse: Timing;
  readonly full: Timing;
  readonly parse: Timing;
  readonly validate: Timing;
  readonly estimate: Timing;
  readonly editor: Timing;
}

async function staticAnalysis(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const shape of SHAPES) {
    for (const steps of SIZES) {
      const json = shape === "flat" ? flatPlan(steps) : nestedPlan(steps);
      if (countSteps(json) !== steps) throw new Error(`generator made ${countSteps(json)} steps, not ${steps}`);
      const text = JSON.stringify(json, null, 2);
      const plan: Plan = fullAnalysis(text).plan;
      const [jsonParse, full, parse, validate, estimate, editor] = await measure(
        calls(() => JSON.parse(text)),
        calls(() => fullAnalysis(text)),
        calls(() => parsePlan({ kind: "model", text })),
        calls(() => validatePlan(plan, POLICY)),
        calls(() => estimatePlan(plan)),
        calls(() => analyzePlanText(text, POLICY)),
      );
      rows.push({ shape, steps, bytes: Buffer.byteLength(text), jsonParse, full, parse, validate, estimate, editor });
    }
  }
  return rows;
}

function withinTarget(row: Row): boolean {
  return row.full.ms / row.jsonParse.ms <= TARGET_RATIO;
}

function printStaticAnalysis(rows: readonly Row[]): void {
  section("1. Static analysis vs JSON.parse of the same text (JSON.stringify(plan, null, 2))");
  console.log("full = parsePlan({kind:'model'}) + validatePlan (validatePlan runs estimatePlan itself; not run twice)");
  console.log(
    `editor = analyzePlanText(text, policy): every problem located, the semantic model (strict JSON by JSON.parse, ranges by a scan; the jsonc tree only when a feature asks); target ${EDITOR_TARGET_RATIO}x\n`,
  );
  table(
    ["plan", "text", "path", "ms", "±iqr", "JSON.parse ms", "±iqr", "ratio", `within ${TARGET_RATIO}x`],
    rows.flatMap((r) => {
      const cells = (path: string, t: Timing, verdict: string) => [
        `${r.shape} ${r.steps.toLocaleString("en-US")}`,
        `${(r.bytes / 1024).toFixed(0)} KB`,
        path,
        ms(t.ms),
        iqr(t),
        ms(r.jsonParse.ms),
        iqr(r.jsonParse),
        times(t.ms / r.jsonParse.ms),
        verdict,
      ];
      const editorWithin = r.editor.ms / r.jsonParse.ms <= EDITOR_TARGET_RATIO;
      return [
        cells("full", r.full, withinTarget(r) ? "yes" : "no"),
        cells("editor", r.editor, `${editorWithin ? "yes" : "no"} (≤ ${EDITOR_TARGET_RATIO}x)`),
      ];
    }),
  );

  const within = rows.filter(withinTarget).length;
  console.log(
    `\nfull analysis within ${TARGET_RATIO}x of JSON.parse: ${within === rows.length ? "yes" : "no"} (${within} of ${rows.length} plans)`,
  );
  console.log("\nWhere the full analysis goes (each part timed alone, same units):");
  table(
    ["plan", "JSON.parse ms", "parsePlan ms", "validatePlan ms", "of which estimatePlan ms"],
    rows.map((r) => [
      `${r.shape} ${r.steps.toLocaleString("en-US")}`,
      ms(r.jsonParse.ms),
      ms(r.parse.ms),
      ms(r.validate.ms),
      ms(r.estimate.ms),
    ]),
  );

  console.log(
    `\nPer-step cost (µs/step) and its growth ${SIZES.map((n) => n.toLocaleString("en-US")).join(" → ")} (×1.00 = linear):`,
  );
  const lines: string[][] = [];
  for (const shape of SHAPES) {
    const of = rows.filter((r) => r.shape === shape);
    const bytes = of.map((r) => r.bytes / r.steps);
    lines.push([`${shape} text bytes/step`, ...bytes.map((v) => v.toFixed(0)), ...growth(bytes)]);
    const series: [string, (r: Row) => number][] = [
      ["JSON.parse", (r) => r.jsonParse.ms],
      ["full", (r) => r.full.ms],
      ["editor", (r) => r.editor.ms],
    ];
    for (const [name, pick] of series) {
      const perStep = of.map((r) => (pick(r) * 1000) / r.steps);
      lines.push([`${shape} ${name}`, ...perStep.map((v) => v.toFixed(3)), ...growth(perStep)]);
    }
    const ratios = of.map((r) => r.full.ms / r.jsonParse.ms);
    lines.push([`${shape} full/JSON.parse`, ...ratios.map(times), ...growth(ratios)]);
  }
  const names = SIZES.map((n) => (n >= 1000 ? `${n / 1000}k` : String(n)));
  table(
    [
      "series",
      ...SIZES.map((n) => n.toLocaleString("en-US")),
      ...names.slice(1).map((name, i) => `${names[i]}→${name}`),
    ],
    lines,
  );
}

/** One row per plan size: µs per step of a subject and of its baseline, timed side by side. */
async function perStepTable(
  header: readonly [string, string],
  pair: (validated: ValidatedPlan, steps: number) => [Subject, Subject],
): Promise<void> {
  const lines: string[][] = [];
  for (const steps of SIZES) {
    const [subject, baseline] = await measure(...pair(fullAnalysis(JSON.stringify(flatPlan(steps))), steps));
    const perStep = (t: Timing) => ((t.ms * 1000) / steps).toFixed(3);
    lines.push([steps.toLocaleString("en-US"), perStep(subject), perStep(baseline), times(subject.ms / baseline.ms)]);
  }
  table(["steps", ...header, "ratio"], lines);
}

async function interpreter(): Promise<void> {
  section("2. Interpreter cost per trivial step: executePlan on the flat plans");
  const echo: ToolHandler = (args: JsonValue) => args;
  const host: RunHost = { tools: new Map([["echo", echo]]) };
  const context = { signal: new AbortController().signal, tool: "echo" };
  console.log('host tool "echo" = (a) => a; baseline = a plain async loop doing N times');
  console.log("  value = await Promise.resolve(echo(value, context))  (N = the plan's steps)\n");
  const check = await executePlan(fullAnalysis(JSON.stringify(flatPlan(SIZES[0] ?? 100))), host);
  if (!check.ok) throw new Error(`bench plan failed to run: ${check.error.message}`);
  await perStepTable(["executePlan µs/step", "baseline µs/step"], (validated, steps) => [
    awaitedCalls(() => executePlan(validated, host)),
    awaitedCalls(async () => {
      let value: JsonValue = "seed";
      for (let i = 0; i < steps; i++) value = await Promise.resolve(echo(value, context));
      return value;
    }),
  ]);
}

/** What an attached debugger costs when it does not stop: a beforeStep that returns nothing. */
async function debuggerHooks(): Promise<void> {
  section("2b. A debugger attached but not stopping: executePlan with a no-op beforeStep");
  const host: RunHost = { tools: new Map([["echo", (args: JsonValue) => args]]) };
  console.log("baseline = the same executePlan without hooks\n");
  await perStepTable(["with beforeStep µs/step", "without µs/step"], (validated) => [
    awaitedCalls(() => executePlan(validated, host, { beforeStep: () => undefined })),
    awaitedCalls(() => executePlan(validated, host)),
  ]);
}

async function deepNesting(): Promise<void> {
  section("3. Hostile nesting: a structured problem, not a stack overflow");
  const cases: [string, string][] = [
    ["rlm nested 10,000 deep", deepRlmText(10_000)],
    ["list literal nested 100,000 deep", deepExpressionText(100_000)],
  ];
  const lines: string[][] = [];
  for (const [name, text] of cases) {
    const paths: [string, () => string][] = [
      ["parsePlan", () => outcome(() => parsePlan({ kind: "model", text }).problems[0])],
      ["analyzePlanText", () => outcome(() => analyzePlanText(text, POLICY).problems[0])],
    ];
    for (const [path, run] of paths) {
      const start = now();
      const result = run();
      const once = now() - start;
      const [timing] = await measure(calls(run));
      lines.push([name, path, result, ms(once), ms(timing.ms)]);
    }
  }
  table(["text", "path", "result (phase/kind/reason)", "first call ms", "median ms"], lines);
}

/** The first problem as phase/kind/reason, or what was thrown: a crash would show here. */
function outcome(first: () => { phase: string; kind: string; reason?: string } | undefined): string {
  try {
    const problem = first();
    return problem ? `${problem.phase}/${problem.kind}/${problem.reason ?? "-"}` : "no problem (!)";
  } catch (error) {
    return `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
}

function section(title: string): void {
  console.log(`\n${title}\n${"-".repeat(title.length)}`);
}

function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(4);
}

function iqr(timing: Timing): string {
  return `${(timing.spread * 100).toFixed(0)}%`;
}

function times(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}

function growth(values: readonly number[]): string[] {
  return values.slice(1).map((v, i) => `×${(v / (values[i] as number)).toFixed(2)}`);
}

async function main(): Promise<void> {
  const started = now();
  console.log("rlm-plan benchmark: static analysis, interpreter, hostile nesting");
  console.log(`node ${process.version} · ${os.cpus()[0]?.model ?? "unknown CPU"} · ${os.cpus().length} logical CPUs`);
  console.log("each figure: median of ≥ 7 samples covering ≥ 200 ms, after warm-up, interleaved with its baseline;");
  console.log("±iqr = interquartile range of the samples over their median (how noisy the figure is)");
  printStaticAnalysis(await staticAnalysis());
  // Other sizes are asked for the static analysis's growth alone.
  if (SIZES_ARG > 0) return;
  await interpreter();
  await debuggerHooks();
  await deepNesting();
  console.log(`\ntotal ${((now() - started) / 1000).toFixed(1)} s`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
