// The editor's view of a test file (`*.rlmplan.test.json`): what the loader reports (errors and
// warnings, with offsets), the cases as written (for code lenses and the Testing view), and what
// hover and completion say at a place, all from the loader and the plan it names, so the language
// server restates no rule: steps an expectation may name are the plan's steps, inputs are the
// inputs the plan reads, mocked names are the tools and providers the plan calls.

import { resolve } from "node:path";
import { MAX_PLAN_BYTES, readTextFileSync } from "../text/boundedFile";
import { findNodeAtLocation, findNodeAtOffset, getLocation, parseTree, type Node } from "jsonc-parser";
import type { Step } from "../plan/ast";
import { planSteps } from "../plan/walk";
import { OPERATION_HELP } from "../plan/vocabularyHelp";
import { parsePlan } from "../plan/parse";
import { planNeeds } from "../plan/needs";
import { pointer, type HostProfileError } from "../host/profile";
import { workspacePath } from "../host/workspaceBoundary";
import type { Count } from "../plan/count";
import { caseWorstCase } from "./testRun";
import { parseTestFile, type TestCase, type TestFileOptions, type TestSuite } from "./testFile";

export interface TestFileProblem {
  readonly severity: "error" | "warning";
  readonly offset: number;
  readonly length: number;
  readonly message: string;
  /** When the problem is in another file (a dataset's line, a mocks file): that file and line. */
  readonly elsewhere?: { readonly file: string; readonly line: number; readonly column: number };
}

/** A case as written: an entry of "cases", or the dataset (all its lines). */
export interface WrittenCase {
  readonly name: string;
  readonly kind: "case" | "dataset";
  /** The case's object in the test file. */
  readonly offset: number;
  readonly length: number;
}

export interface PlanStepInfo {
  readonly pointer: string;
  readonly op: Step["op"];
  readonly bind?: string;
}

export interface TestFileView {
  readonly file: string;
  readonly problems: readonly TestFileProblem[];
  readonly cases: readonly WrittenCase[];
  /** The suite, when the file loads (no error). */
  readonly suite?: TestSuite;
  /** The plan's steps, inputs and calls, when the plan named parses. */
  readonly plan?: {
    readonly file: string;
    readonly steps: readonly PlanStepInfo[];
    readonly inputs: readonly string[];
    readonly tools: readonly string[];
    readonly providers: readonly string[];
  };
}

/** The test file `text` at `file` (absolute), its plan read through `options.readPlan` first. */
export function testFileView(text: string, file: string, options: TestFileOptions = {}): TestFileView {
  const loaded = parseTestFile(text, file, options);
  const own = resolve(file);
  const problem =
    (severity: TestFileProblem["severity"]) =>
    (error: HostProfileError): TestFileProblem => {
      const mine = resolve(error.file) === own;
      return {
        severity,
        offset: mine ? error.offset : 0,
        length: mine ? error.length : 0,
        message: error.message,
        ...(mine ? {} : { elsewhere: { file: error.file, line: error.line, column: error.column } }),
      };
    };
  const problems = loaded.ok
    ? loaded.suite.warnings.map(problem("warning"))
    : [...loaded.errors.map(problem("error")), ...(loaded.warnings ?? []).map(problem("warning"))];
  const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  // The plan's facts even when the file does not load yet (completion while typing).
  const plan = loaded.ok ? planFacts(loaded.suite.planFile, loaded.suite.planText) : namedPlan(tree, file, options);
  return {
    file,
    problems,
    cases: writtenCases(tree),
    ...(loaded.ok ? { suite: loaded.suite } : {}),
    ...(plan ? { plan } : {}),
  };
}

/** The runs of a written case: its repeats, or every line of the dataset. */
export function casesOf(view: TestFileView, written: Pick<WrittenCase, "name" | "kind">): TestCase[] {
  const cases = view.suite?.cases ?? [];
  if (written.kind === "case")
    return cases.filter((c) => c.name === written.name && c.location.file === view.suite?.file);
  return cases.filter((c) => c.location.file !== view.suite?.file && c.name.startsWith(`${written.name}:`));
}

export interface TestFileCompletion {
  readonly label: string;
  readonly kind: "step" | "input" | "tool" | "provider";
  readonly detail: string;
  /** What replaces the range: the label, quoted as JSON where the cursor is not inside a string. */
  readonly insertText: string;
  readonly offset: number;
  readonly length: number;
}

/** What may be written at `offset`: the plan's steps where an expectation names one, its inputs, its calls. */
export function testFileCompletions(view: TestFileView, text: string, offset: number): TestFileCompletion[] {
  const plan = view.plan;
  if (!plan) return [];
  const location = getLocation(text, offset);
  const path = location.path;
  const node = stringAt(text, offset);
  const inString = node !== undefined;
  const range = inString && node ? { offset: node.offset, length: node.length } : { offset, length: 0 };
  const quoted = (label: string) => JSON.stringify(label);
  const slot = slotAt(path, location.isAtPropertyKey);
  if (slot === "step")
    return plan.steps.map((step) => ({
      label: step.pointer,
      kind: "step",
      detail: stepLabel(step),
      insertText: quoted(step.pointer),
      ...range,
    }));
  if (slot === undefined) return [];
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const container = tree ? findNodeAtLocation(tree, path.slice(0, -1)) : undefined;
  const present = new Set(
    (container?.children ?? []).flatMap((p) =>
      p.children?.[0]?.value !== undefined ? [String(p.children[0].value)] : [],
    ),
  );
  const names = slot === "input" ? plan.inputs : slot === "tool" ? plan.tools : plan.providers;
  const detail = {
    input: "an input the plan reads",
    tool: "a tool the plan calls",
    provider: "a provider the plan calls",
  }[slot];
  return names
    .filter((name) => !present.has(name) || (inString && node?.value === name))
    .map((name) => ({ label: name, kind: slot, detail, insertText: quoted(name), ...range }));
}

export interface TestFileHover {
  /** Markdown. */
  readonly text: string;
  readonly offset: number;
  readonly length: number;
}

/** What hover says at `offset`: a step an expectation names, an input, a mocked name, a case. */
export function testFileHover(view: TestFileView, text: string, offset: number): TestFileHover | undefined {
  const location = getLocation(text, offset);
  const node = stringAt(text, offset);
  if (!node || node.value === "") return undefined;
  const at = { offset: node.offset, length: node.length };
  const path = location.path;
  const plan = view.plan;
  const slot = slotAt(path, location.isAtPropertyKey);
  const value = typeof node.value === "string" ? node.value : undefined;
  if (slot === "step" && value !== undefined) {
    const step = plan?.steps.find((s) => s.pointer === value);
    if (!plan) return undefined;
    return step
      ? { text: `**step ${value}** of ${base(plan.file)}: ${stepLabel(step)}\n\n${OPERATION_HELP[step.op]}`, ...at }
      : { text: `The plan has no step ${value}.`, ...at };
  }
  if (slot !== undefined && value !== undefined && plan) {
    const noun = slot;
    const used = (slot === "input" ? plan.inputs : slot === "tool" ? plan.tools : plan.providers).includes(value);
    const verb = slot === "input" ? "reads" : "calls";
    return {
      text: used
        ? `**${noun} ${value}**: ${base(plan.file)} ${verb} it.`
        : `**${noun} ${value}**: ${base(plan.file)} never ${verb} it.`,
      ...at,
    };
  }
  if (path[0] === "cases" && path[2] === "name" && value !== undefined && view.suite) {
    const runs = casesOf(view, { name: value, kind: "case" });
    const first = runs[0];
    if (!first) return undefined;
    return { text: caseSummary(value, runs, first), ...at };
  }
  return undefined;
}

function caseSummary(name: string, runs: readonly TestCase[], first: TestCase): string {
  const worst = caseWorstCase(first);
  const answered = first.cassette !== undefined ? "a cassette" : first.mocks ? "mocks" : "the real tools and providers";
  const repeat = runs.length > 1 ? ` × ${runs.length} runs` : "";
  return [
    `**case ${name}**: answered by ${answered}`,
    "",
    `worst case per run${repeat}: ${counted(worst.steps, "step")}, ${counted(worst.model_calls, "model call")}, ${counted(worst.tool_calls, "tool call")}, ${counted(worst.context_ops, "context operation")}`,
  ].join("\n");
}

/** The string (a key or a value) the offset is inside, if any. */
function stringAt(text: string, offset: number): Node | undefined {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  const node = tree ? findNodeAtOffset(tree, offset) : undefined;
  return node?.type === "string" && offset > node.offset && offset < node.offset + node.length ? node : undefined;
}

/** What a place of a test file holds a name of: a step pointer, an input, a mocked tool or provider. */
function slotAt(
  path: readonly (string | number)[],
  atKey: boolean,
): "step" | "input" | "tool" | "provider" | undefined {
  const i = path.indexOf("expect");
  if (i >= 0) {
    const rest = path.slice(i + 1);
    if (!atKey && rest[0] === "error" && rest[1] === "step" && rest.length === 2) return "step";
    if (!atKey && rest[0] === "steps" && ["paths", "ran", "neverRan"].includes(String(rest[1])) && rest.length === 3)
      return "step";
    if (!atKey && rest[0] === "approvals" && rest[2] === "step" && rest.length === 3) return "step";
    return undefined;
  }
  const last = path.length - 1;
  // A case's answer to a held call names the step it answers.
  if (!atKey && path[0] === "cases" && path[2] === "approvals" && path[4] === "step" && path.length === 5)
    return "step";
  if (atKey && path[last - 1] === "inputs" && path.length === 4 && path[0] === "cases") return "input";
  const m = path.lastIndexOf("mocks");
  if (atKey && m >= 0 && path.length === m + 3) {
    if (path[m + 1] === "tools") return "tool";
    if (path[m + 1] === "providers") return "provider";
  }
  return undefined;
}

function writtenCases(tree: Node | undefined): WrittenCase[] {
  if (!tree) return [];
  const out: WrittenCase[] = [];
  for (const item of findNodeAtLocation(tree, ["cases"])?.children ?? []) {
    const name = findNodeAtLocation(item, ["name"])?.value;
    if (typeof name === "string") out.push({ name, kind: "case", offset: item.offset, length: item.length });
  }
  const dataset = findNodeAtLocation(tree, ["dataset"]);
  if (dataset) {
    const name = findNodeAtLocation(dataset, ["name"])?.value ?? findNodeAtLocation(dataset, ["file"])?.value;
    if (typeof name === "string")
      out.push({ name, kind: "dataset", offset: dataset.parent?.offset ?? dataset.offset, length: dataset.length });
  }
  return out;
}

/** The plan the file's "plan" names, read as the loader reads it, when it can be. */
function namedPlan(tree: Node | undefined, file: string, options: TestFileOptions): TestFileView["plan"] {
  const named = tree ? findNodeAtLocation(tree, ["plan"])?.value : undefined;
  if (typeof named !== "string") return undefined;
  // Outside the workspace it is not read: the loader's refusal is among the view's errors.
  const bounded = workspacePath(file, named);
  if (!bounded.ok) return undefined;
  const planFile = bounded.path;
  try {
    return planFacts(planFile, options.readPlan?.(planFile) ?? readTextFileSync(planFile, MAX_PLAN_BYTES));
  } catch {
    return undefined;
  }
}

function planFacts(planFile: string, planText: string): TestFileView["plan"] {
  const { plan } = parsePlan({ kind: "document", text: planText });
  if (!plan) return undefined;
  const steps: PlanStepInfo[] = [];
  for (const { step } of planSteps(plan)) {
    const bind = "bind" in step && typeof step.bind === "string" ? step.bind : undefined;
    steps.push({ pointer: pointer(step.path), op: step.op, ...(bind === undefined ? {} : { bind }) });
  }
  const needs = planNeeds(plan);
  return {
    file: planFile,
    steps,
    inputs: [...needs.inputs].sort(),
    tools: [...needs.tools].sort(),
    providers: [...needs.providers].sort(),
  };
}

function stepLabel(step: PlanStepInfo): string {
  return step.bind === undefined ? step.op : `${step.op} → ${step.bind}`;
}

function base(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

/** "1 step", "3 steps" (counts exact beyond 2^53). */
function counted(count: Count, noun: string): string {
  return `${String(count)} ${noun}${String(count) === "1" ? "" : "s"}`;
}
