// The host profile (rlmplan.host.json): what a workspace grants its plans. Parsed as JSON with
// comments, validated against schemas/host-profile.schema.json with ajv (the same schema
// editors use), then checked with the runtime's own capability and budget rules. Every problem
// is located at the offending token with a message that says what to do.
// The file is read by checkedJsonFile (ajv's errors worded by schemaErrorText), then checked by
// profileRules; its shapes are in profileTypes. This module is the profile's front: what it
// re-exports is what consumers import.

import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { hasOwn, isJsonObject, pointerPath, type JsonObject } from "../json";
import { DEFAULT_CURRENCY } from "../plan/modelCost";
import type { ProblemTarget } from "../plan/problems";
import type { ParallelMode } from "../run/events";
import { MAX_HOST_PROFILE_BYTES, readTextFileSync } from "../text/boundedFile";
import { approvalRulesOf } from "./approvalRules";
import { HOST_PROFILE_FILENAME } from "./filename";
import validateHostProfileSchema from "./generated/hostProfileValidator";
import type { McpServerSpec } from "./mcp/spec";
import { ruleErrors } from "./profileRules";
import type {
  ContextOptions,
  HostProfile,
  HostProfileError,
  HostProfileResult,
  InputSpec,
  Locator,
  ProviderSpec,
  SandboxMode,
  ToolSpec,
} from "./profileTypes";
import { failed, parseSchemaFile, readErrorText } from "./checkedJsonFile";

export type { McpServerSpec };
export * from "./profileTypes";
export { pointer } from "../json";
export { parseSchemaFile, readErrorText, type SchemaCheck } from "./checkedJsonFile";
export { HOST_PROFILE_FILENAME };

/** Where the JSON Schema of host profiles is, in the package (editors and the extension use the file). */
export const HOST_PROFILE_SCHEMA_FILE = join(__dirname, "..", "..", "schemas", "host-profile.schema.json");

// A literal require, not a read relative to __dirname, so a bundler (esbuild) inlines the schema;
// the JSON file stays the single source that editors use too.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const HOST_PROFILE_SCHEMA = require("../../schemas/host-profile.schema.json") as Readonly<
  Record<string, unknown>
>;

// Compiled ahead of time from HOST_PROFILE_SCHEMA (host/generated/, `npm run generate`):
// compiling it when a command starts cost a fifth of a `rlm-plan check`.
const compiled = validateHostProfileSchema as unknown as ValidateFunction;
function validateSchema(value: unknown): { ok: true } | { ok: false; errors: readonly ErrorObject[] } {
  if (compiled(value)) return { ok: true };
  // The schema bounds the budget's fields for editors that read only the schema; here the
  // runtime's own budget rule (ruleErrors) words those bounds, once (max_cost, the host's own
  // field, has no rule there: the schema words it).
  const errors = (compiled.errors ?? []).filter(
    (error) =>
      !(
        BOUND_KEYWORDS.has(error.keyword) &&
        error.instancePath.startsWith("/budget/") &&
        error.instancePath !== "/budget/max_cost"
      ),
  );
  return { ok: false, errors };
}

const BOUND_KEYWORDS: ReadonlySet<string> = new Set(["minimum", "exclusiveMinimum"]);

/** Parses and checks a profile's text; `file` names it in errors and anchors its relative paths. */
export function parseHostProfile(text: string, file: string): HostProfileResult {
  const checked = parseSchemaFile(text, file, validateSchema, (value, at, reported) =>
    isJsonObject(value) ? ruleErrors(value, file, at, reported) : [],
  );
  if (!checked.ok) return checked;
  return { ok: true, profile: profileOf(checked.value as JsonObject, file, checked.at) };
}

/** Reads and parses a profile; a file that cannot be read is a located error too. */
export function loadHostProfile(file: string): HostProfileResult {
  let text: string;
  try {
    text = readTextFileSync(file, MAX_HOST_PROFILE_BYTES);
  } catch (error) {
    return failed([
      {
        file,
        line: 1,
        column: 1,
        offset: 0,
        length: 0,
        jsonPath: "",
        message: `cannot read the host profile: ${readErrorText(error)}`,
      },
    ]);
  }
  return parseHostProfile(text, file);
}

/** The nearest rlmplan.host.json in the plan file's folder or a folder above it. */
export function findHostProfile(planFile: string): string | undefined {
  let dir = dirname(resolve(planFile));
  for (;;) {
    const candidate = join(dir, HOST_PROFILE_FILENAME);
    if (isFile(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The host profile that applies in a folder (a plan not written yet, a journal's workspace). */
export function hostProfileIn(folder: string): string | undefined {
  return findHostProfile(join(folder, HOST_PROFILE_FILENAME));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function profileOf(value: JsonObject, file: string, at: Locator): HostProfile {
  const absolute = resolve(file);
  const entries = <T>(key: string): Map<string, T> => {
    const section = hasOwn(value, key) ? (value[key] as JsonObject) : undefined;
    return new Map(section ? Object.keys(section).map((name) => [name, section[name] as unknown as T]) : []);
  };
  return {
    file: absolute,
    dir: dirname(absolute),
    ...(typeof value.description === "string" ? { description: value.description } : {}),
    capabilities: [...(value.capabilities as string[])],
    ...budgetOf(value),
    currency: typeof value.currency === "string" ? value.currency : DEFAULT_CURRENCY,
    context: hasOwn(value, "context") ? (value.context as ContextOptions) : undefined,
    parallel: hasOwn(value, "parallel") ? (value.parallel as ParallelMode) : undefined,
    ...(hasOwn(value, "journal") ? { journal: value.journal as { dir?: string; enabled?: boolean } } : {}),
    ...(hasOwn(value, "telemetry") ? { telemetry: value.telemetry as { otlp?: string } } : {}),
    ...(hasOwn(value, "sandbox") ? { sandbox: value.sandbox as SandboxMode } : {}),
    inputs: entries<InputSpec>("inputs"),
    tools: entries<ToolSpec>("tools"),
    providers: entries<ProviderSpec>("providers"),
    mcpServers: entries<McpServerSpec>("mcpServers"),
    ...(isJsonObject(value.result) ? { result: value.result } : {}),
    ...(Array.isArray(value.approvals) ? { approvals: approvalRulesOf(value.approvals) } : {}),
    locate(jsonPath, target = "value") {
      const { line, column, offset, length } = at.path(pointerPath(jsonPath, value), target);
      return { line, column, offset, length };
    },
  };
}

/**
 * The plan budget the profile sets, and its max_cost apart: money is the host's alone (a plan's
 * budget is the reference's fields, checked in its order), so the budget rule never sees it.
 */
function budgetOf(value: JsonObject): { budget: JsonObject | undefined; maxCost?: number } {
  if (!hasOwn(value, "budget")) return { budget: undefined };
  const { max_cost: maxCost, ...budget } = value.budget as JsonObject;
  return { budget, ...(typeof maxCost === "number" ? { maxCost } : {}) };
}

/** An error about a node of a parsed profile, found after parsing (a missing input file). */
export function profileError(
  profile: HostProfile,
  jsonPath: string,
  message: string,
  target?: ProblemTarget,
): HostProfileError {
  return { file: profile.file, ...profile.locate(jsonPath, target), jsonPath, message };
}
