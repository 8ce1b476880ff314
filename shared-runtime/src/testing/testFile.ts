// Test files (`*.rlmplan.test.json`): a plan, its host profile, and cases with inputs, mocks or
// a cassette and expectations; a JSONL dataset adds one case a line; `repeat` runs a case more
// than once. The loader checks the file against schemas/plan-test.schema.json and what only the
// plan can answer (steps an expectation names exist), and reports every problem at file:line:col.

import { hostProfileOf, readHostProfile } from "../session/hostProfiles";
import { dirname, relative, resolve } from "node:path";
import { newJsonObject, parseStepPath, type JsonObject, type JsonValue } from "../json";
import { analyzePlanText } from "../analysis";
import type { PlanModel } from "../plan/semanticModel";
import { bindingsProblem, stepScope } from "../plan/stepScope";
import type { Plan } from "../plan/ast";
import { planSteps } from "../plan/walk";
import { estimatePlan, type MoneyEstimate } from "../plan/estimate";
import { DEFAULT_BUDGET, resolveBudget } from "../plan/budget";
import { planMoney } from "../plan/planMoney";
import { costPolicyOf } from "../host/hostPolicy";
import { parsePlan } from "../plan/parse";
import { planNeeds } from "../plan/needs";
import { loadMocks, mocksOf, type Mocks } from "../host/mocks";
import { mcpRoute } from "../host/mcp/spec";
import {
  HOST_PROFILE_FILENAME,
  pointer,
  readErrorText,
  type HostProfile,
  type HostProfileError,
} from "../host/profile";
import { MAX_PLAN_BYTES, readTextFileSync } from "../text/boundedFile";
import { schemaProblem } from "./valueSchemas";
import { schemaFileReader } from "./schemaFile";
import { readDataset } from "./dataset";
import { boundedPaths } from "./testFilePaths";
import { DatasetCase, type DatasetCases } from "./datasetCase";
import { approvalAnswer, type RawApprovalAnswer } from "./approvalAnswers";
import type { Expectations, TestCase, TestSuite } from "./testCase";

export * from "./testCase";

export { TEST_FILE_SUFFIX } from "../workspaceFiles";

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const TEST_FILE_SCHEMA = require("../../schemas/plan-test.schema.json") as Readonly<Record<string, unknown>>;
// The schema a test file's inline mocks are checked against ($ref "mocks.schema.json").
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MOCKS_SCHEMA = require("../../schemas/mocks.schema.json") as Readonly<Record<string, unknown>>;

export type TestFileResult =
  | { readonly ok: true; readonly suite: TestSuite }
  | {
      readonly ok: false;
      readonly errors: readonly HostProfileError[];
      /** What was found besides (the editor shows both). */
      readonly warnings?: readonly HostProfileError[];
    };

/** How the plan a test file names is read: from disk, or (the editor) from an open document first. */
export interface TestFileOptions {
  readonly readPlan?: (file: string) => string | undefined;
}

interface RawCase {
  readonly name: string;
  readonly inputs?: JsonObject;
  readonly step?: string;
  readonly bindings?: JsonObject;
  readonly mocks?: JsonValue;
  readonly cassette?: string;
  readonly repeat?: number;
  readonly expect?: Expectations;
  readonly approvals?: readonly RawApprovalAnswer[];
}

interface RawTestFile {
  readonly plan: string;
  readonly host?: string;
  readonly mocks?: JsonValue;
  readonly cassette?: string;
  readonly cases?: readonly RawCase[];
  readonly dataset?: Omit<RawCase, "name" | "inputs"> & { readonly file: string; readonly name?: string };
  readonly baseline?: { readonly cost_tolerance?: number };
}

const readTestFile = schemaFileReader(TEST_FILE_SCHEMA, "the test file", {
  refs: [MOCKS_SCHEMA],
  allowUnionTypes: true,
});

export function loadTestFile(file: string): TestFileResult {
  let text: string;
  try {
    text = readTextFileSync(file, MAX_PLAN_BYTES);
  } catch (error) {
    return { ok: false, errors: [fileError(file, `cannot read the test file: ${readErrorText(error)}`)] };
  }
  return parseTestFile(text, file);
}

/** A test file's text as a suite of cases, or every problem located at file:line:col. */
export function parseTestFile(text: string, file: string, options: TestFileOptions = {}): TestFileResult {
  const checked = readTestFile(text, file);
  if (!checked.ok) return checked;
  const raw = checked.value as unknown as RawTestFile;
  const at = checked.at;
  const dir = dirname(resolve(file));
  const errors: HostProfileError[] = [];
  const located = (path: (string | number)[], message: string): HostProfileError => ({
    ...at.path(path),
    jsonPath: pointer(path),
    message,
  });

  // Every path the file names is held to its workspace before it is read.
  const bounded = boundedPaths(file, dir, (path, message) => errors.push(located(path, message)));
  const planFile = bounded(["plan"], raw.plan);
  if (planFile === undefined) return { ok: false, errors };
  let planText: string;
  try {
    planText = options.readPlan?.(planFile) ?? readTextFileSync(planFile, MAX_PLAN_BYTES);
  } catch (error) {
    return { ok: false, errors: [located(["plan"], `cannot read the plan ${raw.plan}: ${readErrorText(error)}`)] };
  }
  if (planText.charCodeAt(0) === 0xfeff) planText = planText.slice(1);

  const hostFile = raw.host === undefined ? hostProfileOf(planFile) : bounded(["host"], raw.host);
  if (hostFile === undefined && errors.length > 0) return { ok: false, errors };
  if (hostFile === undefined)
    return {
      ok: false,
      errors: [
        located(
          ["plan"],
          `no host profile: there is no ${HOST_PROFILE_FILENAME} in the folder of ${raw.plan} or above it; name one with "host"`,
        ),
      ],
    };
  const loadedProfile = readHostProfile(hostFile);
  if (!loadedProfile.ok) return loadedProfile;

  const plan = parsePlan({ kind: "document", text: planText }).plan;
  const steps = plan ? stepPointers(plan) : undefined;
  const mocksCache = new Map<string, Mocks | undefined>();
  const mocksAt = (value: JsonValue | undefined, path: (string | number)[]): Mocks | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string") return mocksOf(value);
    const mocksFile = bounded(path, value);
    if (mocksFile === undefined) return undefined;
    if (mocksCache.has(mocksFile)) return mocksCache.get(mocksFile);
    const read = loadMocks(mocksFile);
    if (!read.ok) {
      // Reported once, however many cases name the file.
      errors.push(...read.errors);
      mocksCache.set(mocksFile, undefined);
      return undefined;
    }
    mocksCache.set(mocksFile, read.mocks);
    return read.mocks;
  };
  const checkSteps = (expect: Expectations | undefined, path: (string | number)[]) => {
    const schema = expect?.value?.schema;
    const badSchema = schema === undefined ? undefined : schemaProblem(schema);
    if (badSchema !== undefined)
      errors.push(located([...path, "expect", "value", "schema"], `the schema does not compile: ${badSchema}`));
    if (!expect || !steps) return;
    const named: [(string | number)[], string | undefined][] = [
      [["error", "step"], expect.error?.step],
      ...listed(expect.steps?.paths, ["steps", "paths"]),
      ...listed(expect.steps?.ran, ["steps", "ran"]),
      ...listed(expect.steps?.neverRan, ["steps", "neverRan"]),
      ...(expect.approvals ?? []).map((a, i): [(string | number)[], string] => [["approvals", i, "step"], a.step]),
    ];
    for (const [where, step] of named)
      if (step !== undefined && !steps.has(step))
        errors.push(located([...path, "expect", ...where], `the plan has no step ${step}`));
  };

  // A case's `step`: the step exists and its bindings are what it reads, by the rule a run of one
  // step keeps (session/stepRun.ts); the plan's model is built only for a file with such a case.
  let model: PlanModel | undefined;
  const caseStep = (stepText: string, rawBindings: JsonObject | undefined, path: (string | number)[]) => {
    const bindings = rawBindings ?? newJsonObject();
    const stepAt = parseStepPath(stepText);
    if (!stepAt) return undefined;
    model ??= analyzePlanText(planText).model;
    const scope = stepScope(model, stepAt);
    if (typeof scope === "string") {
      errors.push(located([...path, "step"], scope));
      return undefined;
    }
    const problem = bindingsProblem(scope, Object.keys(bindings));
    if (problem) {
      const where = problem.name !== undefined ? ["bindings", problem.name] : [rawBindings ? "bindings" : "step"];
      errors.push(located([...path, ...where], problem.message));
      return undefined;
    }
    const estimate = model?.costAt(stepAt)?.subtree;
    return { at: stepAt, bindings, ...(estimate ? { estimate } : {}) };
  };
  const cases: TestCase[] = [];
  const warnings: HostProfileError[] = [];
  const needs = plan ? planNeeds(plan) : undefined;
  const checkInputs = (inputs: JsonObject | undefined, path: (string | number)[]) => {
    if (!needs) return;
    for (const name of Object.keys(inputs ?? {}))
      if (!needs.inputs.has(name))
        warnings.push(located([...path, "inputs", name], `the plan never reads input ${JSON.stringify(name)}`));
    for (const name of needs.inputs)
      if (!Object.prototype.hasOwnProperty.call(inputs ?? {}, name) && !loadedProfile.profile.inputs.has(name))
        warnings.push(
          located(
            path,
            `the plan reads input ${JSON.stringify(name)}, which neither the case nor the host profile gives`,
          ),
        );
  };
  const checkMocks = (value: JsonValue | undefined, path: (string | number)[]) => {
    if (!needs || value === undefined) return;
    const mocks = mocksAt(value, path);
    for (const [section, names, noun] of [
      ["tools", needs.tools, "tool"],
      ["providers", needs.providers, "provider"],
    ] as const)
      for (const name of (section === "tools" ? mocks?.tools : mocks?.providers)?.keys() ?? []) {
        const at = typeof value === "string" ? path : [...path, section, name];
        if (!names.has(name))
          warnings.push(located(at, `the mocks answer ${noun} ${JSON.stringify(name)}, which the plan never calls`));
        else if (!hostHas(loadedProfile.profile, section, name))
          warnings.push(
            located(
              at,
              `the host registers no ${noun} ${JSON.stringify(name)}: the mock stands in for something no live run has`,
            ),
          );
      }
  };
  checkMocks(raw.mocks, ["mocks"]);
  const suite: { -readonly [K in keyof TestSuite]: TestSuite[K] } = {
    file,
    planFile,
    planText,
    profile: loadedProfile.profile,
    cases,
    warnings,
    ...(plan ? { estimate: estimatePlan(plan), money: suiteMoney(plan, loadedProfile.profile) } : {}),
    ...(raw.baseline?.cost_tolerance !== undefined ? { costTolerance: raw.baseline.cost_tolerance } : {}),
  };
  const fileMocks = mocksAt(raw.mocks, ["mocks"]);
  const names = new Map<string, number>();
  (raw.cases ?? []).forEach((c, i) => {
    const path = ["cases", i];
    const first = names.get(c.name);
    if (first !== undefined)
      errors.push(located([...path, "name"], `a case named ${JSON.stringify(c.name)} is already case ${first + 1}`));
    names.set(c.name, i);
    checkSteps(c.expect, path);
    checkInputs(c.inputs, path);
    checkMocks(c.mocks, [...path, "mocks"]);
    const { line, column } = at.path(path);
    const mocks = c.mocks === undefined ? fileMocks : mocksAt(c.mocks, [...path, "mocks"]);
    const cassette = bounded(
      c.cassette === undefined ? ["cassette"] : [...path, "cassette"],
      c.cassette ?? raw.cassette,
    );
    const step = c.step === undefined ? undefined : caseStep(c.step, c.bindings, path);
    const approvals = (c.approvals ?? []).map((answer, j) =>
      approvalAnswer(answer, c.name, [...path, "approvals", j], {
        at: (where) => checked.at.path(where),
        error: (where, message) => errors.push(located(where, message)),
        ...(steps ? { steps } : {}),
      }),
    );
    pushRepeats(cases, suite, c.name, c.repeat, {
      location: { file, line, column },
      inputs: c.inputs ?? newJsonObject(),
      ...(step ? { step } : {}),
      expect: c.expect ?? {},
      ...(approvals.length > 0 ? { approvals } : {}),
      ...(mocks ? { mocks } : {}),
      ...(cassette === undefined ? {} : { cassette }),
    });
  });

  const dataset = raw.dataset;
  if (dataset) {
    checkSteps(dataset.expect, ["dataset"]);
    checkMocks(dataset.mocks, ["dataset", "mocks"]);
    const datasetFile = bounded(["dataset", "file"], dataset.file);
    // A refused dataset is not read at all.
    if (datasetFile !== undefined) {
      // Once for every row: a dataset may have a million.
      const shown = displayPath(file, datasetFile);
      const unread = new Set<string>();
      // Each unread input once, at the first line that gives it: a large dataset stays readable.
      const read = readDataset(datasetFile, shown, (line, inputs) => {
        for (const name of Object.keys(inputs))
          if (needs && !needs.inputs.has(name) && !unread.has(name)) {
            unread.add(name);
            warnings.push({
              file: shown,
              line,
              column: 1,
              offset: 0,
              length: 0,
              jsonPath: "",
              message: `the plan never reads input ${JSON.stringify(name)}`,
            });
          }
      });
      if (!read.ok) for (const error of read.errors) errors.push(error);
      else {
        const mocks = dataset.mocks === undefined ? fileMocks : mocksAt(dataset.mocks, ["dataset", "mocks"]);
        const at = dataset.cassette === undefined ? ["cassette"] : ["dataset", "cassette"];
        const cassette = bounded(at, dataset.cassette ?? raw.cassette);
        const shared: DatasetCases = {
          suite,
          file: datasetFile,
          shown,
          base: dataset.name ?? dataset.file,
          expect: dataset.expect ?? {},
          ...(mocks ? { mocks } : {}),
          ...(cassette === undefined ? {} : { cassette }),
        };
        const of = dataset.repeat ?? 1;
        for (const row of read.rows)
          for (let index = 1; index <= of; index++)
            cases.push(new DatasetCase(shared, row, of > 1 ? { index, of } : undefined));
      }
    }
  }
  if (errors.length > 0) return { ok: false, errors, warnings };
  return { ok: true, suite };
}

type CaseBody = Omit<TestCase, "id" | "name" | "repeat" | "suite">;

function pushRepeats(
  cases: TestCase[],
  suite: TestSuite,
  name: string,
  repeat: number | undefined,
  body: CaseBody,
): void {
  const of = repeat ?? 1;
  for (let index = 1; index <= of; index++) {
    const suffix = of > 1 ? ` [${index}/${of}]` : "";
    cases.push({
      ...body,
      id: `${suite.file}#${name}${suffix}`,
      name,
      ...(of > 1 ? { repeat: { index, of } } : {}),
      suite,
    });
  }
}

/** Each step of a list with its place: the index a number, as the JSON lookup wants it (a string "0" is a key). */
function listed(paths: readonly string[] | undefined, at: string[]): [(string | number)[], string][] {
  return (paths ?? []).map((step, i) => [[...at, i], step]);
}

/** Every step of the plan (nested plans, branches, retry bodies) as a JSON Pointer. */
export function stepPointers(plan: Plan): Set<string> {
  const out = new Set<string>();
  for (const { step } of planSteps(plan)) out.add(pointer(step.path));
  return out;
}

/** The plan's worst case in money under its profile's prices and budget (the one rule: plan/planMoney.ts). */
function suiteMoney(plan: Plan, profile: HostProfile): MoneyEstimate & { readonly currency: string } {
  const resolved = resolveBudget(profile.budget);
  const costs = costPolicyOf(profile);
  return { ...planMoney(plan, costs, resolved.ok ? resolved.budget : DEFAULT_BUDGET), currency: costs.currency };
}

/** Whether the host profile has the tool (its own, or an MCP server's) or the provider. */
function hostHas(profile: HostProfile, section: "tools" | "providers", name: string): boolean {
  if (section === "providers") return profile.providers.has(name);
  return profile.tools.has(name) || mcpRoute(name, profile.mcpServers) !== undefined;
}

/** A path as messages show it: relative to the test file's own folder as given. */
function displayPath(testFile: string, target: string): string {
  const rel = relative(process.cwd(), target);
  return rel.startsWith("..") ? target : rel === "" ? testFile : rel;
}

function fileError(file: string, message: string): HostProfileError {
  return { file, line: 1, column: 1, offset: 0, length: 0, jsonPath: "", message };
}
