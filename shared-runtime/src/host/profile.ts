// The host profile (rlmplan.host.json): what a workspace grants its plans. Parsed as JSON with
// comments, validated against schemas/host-profile.schema.json with ajv (the same schema
// editors use), then checked with the runtime's own capability and budget rules. Every problem
// is located at the offending token with a message that says what to do.

import { statSync } from "node:fs";
import { MAX_HOST_PROFILE_BYTES, readTextFileSync } from "../text/boundedFile";
import { dirname, join, resolve } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import validateHostProfileSchema from "./generated/hostProfileValidator";
import {
  hasOwn,
  isJsonObject,
  pointerPath,
  valueAtPath,
  type JsonObject,
  type JsonPath,
  type JsonValue,
} from "../json";
import { lineColumn } from "../text/lineColumn";
import { BUDGET_FIELDS, resolveBudget } from "../plan/budget";
import { analyzeCapability } from "../plan/capabilities";
import { describe } from "../plan/normalize";
import { orList, type ProblemTarget } from "../plan/problems";
import { nearestName } from "../text/nearestName";
import { MAX_JSON_DEPTH } from "../text/jsonText";
import { parseJsoncDocument, type PlanDocument } from "../text/planDocument";
import type { OpenAIChatSpec } from "../providers/openaiChat";
import type { ParallelMode } from "../run/events";
import { mcpTransportOf, type McpServerSpec } from "./mcp/spec";
import { HOST_PROFILE_FILENAME } from "./filename";
import { inputSchemaProblem, typeNoun } from "../plan/toolArguments";

export type { McpServerSpec };

export { HOST_PROFILE_FILENAME };

/** Where the JSON Schema of host profiles is, in the package (editors and the extension use the file). */
export const HOST_PROFILE_SCHEMA_FILE = join(__dirname, "..", "..", "schemas", "host-profile.schema.json");

export type InputSpec =
  | { readonly type: "text-file"; readonly path: string; readonly description?: string }
  | { readonly type: "text"; readonly text: string; readonly description?: string }
  | {
      readonly type: "items-file";
      readonly path: string;
      readonly format?: "jsonl" | "json";
      readonly description?: string;
    }
  | { readonly type: "items"; readonly items: readonly JsonValue[]; readonly description?: string }
  | {
      readonly type: "value";
      readonly value: JsonValue;
      /** A JSON Schema of the value, for the type rules (plan/types/). */
      readonly schema?: JsonObject;
      readonly description?: string;
    };

/** Inputs registered in the context store (texts and item lists): the only context handles. */
export function contextInputNames(profile: Pick<HostProfile, "inputs">): Set<string> {
  const names = new Set<string>();
  for (const [name, spec] of profile.inputs) if (spec.type !== "value") names.add(name);
  return names;
}

export interface BuiltinToolSpec {
  readonly type: "builtin";
  /** One of BUILTIN_TOOL_NAMES (host/builtinTools.ts); the schema holds the same list. */
  readonly builtin: string;
  /** A JSON Schema of the arguments, checked against plans' literal arguments. */
  readonly inputSchema?: JsonObject;
  /** A JSON Schema of the tool's result, for the type rules (plan/types/). */
  readonly returns?: JsonObject;
  readonly description?: string;
}

export interface CommandToolSpec {
  readonly type: "command";
  /** argv: the program and its arguments; never passed to a shell. */
  readonly command: readonly string[];
  /** Relative to the profile's folder, which is also the default. */
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly inheritEnv?: readonly string[];
  readonly timeoutMs?: number;
  readonly maxStdoutBytes?: number;
  readonly maxStderrBytes?: number;
  /** A JSON Schema of the arguments, checked against plans' literal arguments. */
  readonly inputSchema?: JsonObject;
  /** A JSON Schema of the tool's result, for the type rules (plan/types/). */
  readonly returns?: JsonObject;
  readonly description?: string;
}

export type ToolSpec = BuiltinToolSpec | CommandToolSpec;

/** A provider entry: the one provider kind there is, defined where it is implemented. */
export type ProviderSpec = OpenAIChatSpec;

export interface ContextOptions {
  readonly max_results?: number;
  readonly max_bytes?: number;
}

/** Where a node of the profile is: 1-based line and column, plus the range for editors. */
export interface SourceLocation {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly length: number;
}

export interface HostProfileError extends SourceLocation {
  /** The file the problem is in: the profile, or a data file an input reads. */
  readonly file: string;
  /** JSON Pointer of the offending node in the profile, e.g. /tools/flaky_fetch/timeoutMs ("" for the whole file). */
  readonly jsonPath: string;
  readonly message: string;
}

export interface HostProfile {
  /** Absolute path of the profile. */
  readonly file: string;
  /** Its folder: relative paths in the profile are relative to it. */
  readonly dir: string;
  readonly description?: string;
  readonly capabilities: readonly string[];
  /** The partial budget as written (already known to resolve), or undefined for the default. */
  readonly budget: JsonObject | undefined;
  readonly context: ContextOptions | undefined;
  /** How parallel branches run; undefined means the runtime's default (concurrent). */
  readonly parallel: ParallelMode | undefined;
  /** The run journal's folder (relative to `dir`) and whether runs are recorded (docs/journal.md). */
  readonly journal?: { readonly dir?: string; readonly enabled?: boolean };
  /** Where runs are exported as OpenTelemetry traces. */
  readonly telemetry?: { readonly otlp?: string };
  readonly inputs: ReadonlyMap<string, InputSpec>;
  readonly tools: ReadonlyMap<string, ToolSpec>;
  readonly providers: ReadonlyMap<string, ProviderSpec>;
  /** MCP servers whose tools plans may call (host/mcp/). */
  readonly mcpServers: ReadonlyMap<string, McpServerSpec>;
  /** A JSON Schema every plan's final value must meet (the type rules check it). */
  readonly result?: JsonObject;
  /** Where the node at a JSON Pointer is in the profile's text (line 1, column 1 when unknown). */
  locate(jsonPath: string, target?: ProblemTarget): SourceLocation;
}

export type HostProfileResult =
  | { readonly ok: true; readonly profile: HostProfile }
  | { readonly ok: false; readonly errors: readonly HostProfileError[] };

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
  // runtime's own budget rule (ruleErrors) words those bounds, once.
  const errors = (compiled.errors ?? []).filter(
    (error) => !(BOUND_KEYWORDS.has(error.keyword) && error.instancePath.startsWith("/budget/")),
  );
  return { ok: false, errors };
}

const BOUND_KEYWORDS: ReadonlySet<string> = new Set(["minimum", "exclusiveMinimum"]);

/** Parses and checks a profile's text; `file` names it in errors and anchors its relative paths. */
export function parseHostProfile(text: string, file: string): HostProfileResult {
  const checked = parseSchemaFile(text, file, validateSchema, (value, at, reported) =>
    isJsonObject(value) ? ruleErrors(value, at, reported) : [],
  );
  if (!checked.ok) return checked;
  return { ok: true, profile: profileOf(checked.value as JsonObject, file, checked.at) };
}

export type SchemaCheck = (value: unknown) => { ok: true } | { ok: false; errors: readonly ErrorObject[] };

/**
 * A JSON-with-comments file checked against a JSON Schema (then by `rules`, on the parts the
 * schema accepted), every problem located at its token: host profiles and mocks files.
 */
export function parseSchemaFile(
  text: string,
  file: string,
  check: SchemaCheck,
  rules?: (value: JsonValue, at: Locator, reported: readonly ErrorObject[]) => HostProfileError[],
  what?: string,
): { ok: true; value: JsonValue; at: Locator } | { ok: false; errors: readonly HostProfileError[] } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const document = parseJsoncDocument(source);
  const at = locator(document, file, what);
  const errors: HostProfileError[] = [];
  // After the first syntax error the parser's recovery mostly reports echoes of it: keep the first.
  const firstSyntax = document.syntaxErrors.find((e) => e.code !== "duplicate_key");
  for (const syntax of document.syntaxErrors) {
    if (syntax.code !== "duplicate_key" && syntax !== firstSyntax) continue;
    if (syntax.code === "duplicate_key") {
      const path = [...(syntax.path ?? []), syntax.key ?? ""];
      const first =
        syntax.firstOffset === undefined ? "" : ` (first at line ${lineColumn(source, syntax.firstOffset).line + 1})`;
      errors.push({
        ...at.offset(syntax.offset, syntax.length),
        jsonPath: pointer(path),
        message: `duplicate key ${JSON.stringify(syntax.key)}${first}: a key may appear only once, remove one of them`,
      });
    } else {
      // The document reader speaks of plans; a profile or a mocks file is not one.
      const message =
        syntax.code === "invalid_json"
          ? syntaxMessage(syntax.message)
          : syntax.code === "too_deep"
            ? `JSON nested too deep (over ${MAX_JSON_DEPTH} levels): ${at.what} is not read`
            : syntax.message;
      errors.push({ ...at.offset(syntax.offset, syntax.length), jsonPath: "", message });
    }
  }
  const value = document.value;
  // A file that is not even JSON has no value worth checking further.
  if (value === undefined || firstSyntax !== undefined) return failed(errors);
  const validation = check(value);
  const reported = validation.ok ? [] : schemaErrors(validation.errors);
  for (const error of reported) errors.push(schemaError(error, value, at));
  if (rules) errors.push(...rules(value, at, reported));
  if (errors.length > 0) return failed(errors);
  return { ok: true, value, at };
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

/** A JSON Pointer (RFC 6901) for a path: `/tools/flaky_fetch/timeoutMs`. */
export function pointer(path: JsonPath): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** Why a file could not be read, as a short phrase: "no such file (ENOENT)". */
export function readErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known: Record<string, string> = {
    ENOENT: "no such file",
    EISDIR: "it is a folder, not a file",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOTDIR: "a part of the path is not a folder",
  };
  if (code !== undefined && known[code] !== undefined) return `${known[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function failed(errors: HostProfileError[]): { ok: false; errors: readonly HostProfileError[] } {
  return { ok: false, errors: [...errors].sort((a, b) => a.offset - b.offset) };
}

function syntaxMessage(message: string): string {
  return `${message}: fix the JSON syntax (comments and trailing commas are allowed)`;
}

export interface Locator {
  /** How messages name the file's root: "the host profile", "the mocks file". */
  readonly what: string;
  offset(offset: number, length: number): Omit<HostProfileError, "jsonPath" | "message">;
  path(path: JsonPath, target?: ProblemTarget): Omit<HostProfileError, "jsonPath" | "message">;
}

function locator(document: PlanDocument, file: string, what = "the host profile"): Locator {
  const offset = (offset: number, length: number) => {
    const { line, character } = lineColumn(document.text, offset);
    return { file, line: line + 1, column: character + 1, offset, length };
  };
  return {
    what,
    offset,
    path(path, target = "value") {
      // The nearest existing ancestor when the node itself is absent (a missing key).
      for (let n = path.length; n >= 0; n--) {
        const range = document.rangeOf(path.slice(0, n), n === path.length ? target : "key");
        if (range && (n > 0 || document.value !== undefined)) return offset(range.offset, range.length);
      }
      return offset(0, 0);
    },
  };
}

// ---- schema errors ------------------------------------------------------------------------

/**
 * Ajv reports a failed `propertyNames` twice (the inner keyword and the wrapper); keep the
 * inner one, which names the property.
 */
function schemaErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  return errors.filter((error) => error.keyword !== "propertyNames");
}

type SchemaNode = {
  readonly description?: string;
  readonly properties?: Record<string, SchemaNode>;
  readonly oneOf?: readonly SchemaNode[];
  readonly const?: unknown;
};

function schemaError(error: ErrorObject, root: unknown, at: Locator): HostProfileError {
  const path = pointerPath(error.instancePath, root);
  const where = describePath(path, at.what);
  const value = valueAtPath(root, path);
  const parent = (error.parentSchema ?? {}) as SchemaNode;
  const params = error.params as Record<string, unknown>;
  const located = (p: JsonPath, message: string, target: ProblemTarget = "value"): HostProfileError => ({
    ...at.path(p, target),
    jsonPath: pointer(p),
    message,
  });
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const allowed = Object.keys(parent.properties ?? {});
      const guess = closest(key, allowed);
      const hint = guess ? `did you mean ${JSON.stringify(guess)}? ` : "";
      return located(
        [...path, key],
        `unknown key ${JSON.stringify(key)} in ${where}: ${hint}(the keys are ${allowed.join(", ")})`,
        "key",
      );
    }
    case "required": {
      const key = String(params.missingProperty);
      const about = parent.properties?.[key]?.description;
      return located(
        path,
        `${where} is missing ${JSON.stringify(key)}${about ? `: ${lowerFirst(firstSentence(about))}` : ""}`,
        "key",
      );
    }
    case "discriminator": {
      const kinds = (parent.oneOf ?? []).map((branch) => JSON.stringify(branch.properties?.type?.const));
      if (params.error === "mapping") {
        return located(
          [...path, "type"],
          `${where} has an unknown "type" ${JSON.stringify(params.tagValue)}: use ${orList(kinds)}`,
        );
      }
      return located(path, `${where} needs a "type": ${orList(kinds)}`, "key");
    }
    case "type":
      return located(path, `${where} must be ${typeNoun(String(params.type))}, got ${describe(value)}`);
    case "minimum":
    case "exclusiveMinimum":
    case "maximum":
      return located(path, `${where} must be ${boundText(error.keyword, params.limit)}, got ${describe(value)}`);
    case "minItems":
      return located(
        path,
        params.limit === 1 ? `${where} must not be empty` : `${where} needs at least ${String(params.limit)} items`,
      );
    case "minLength":
      if (typeof error.propertyName === "string") {
        return located(
          [...path, error.propertyName],
          `${where} has an entry with an empty name: give it a name`,
          "key",
        );
      }
      return located(path, `${where} must not be empty`);
    case "enum":
      return located(
        path,
        `${where} must be ${orList(((params.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)))}, got ${describe(value)}`,
      );
    case "pattern":
      if (typeof error.propertyName === "string") {
        return located(
          [...path, error.propertyName],
          `${where} has an entry named ${JSON.stringify(error.propertyName)}: ${patternText(String(params.pattern))}`,
          "key",
        );
      }
      return located(path, `${where} ${patternText(String(params.pattern))}, got ${describe(value)}`);
    case "uniqueItems":
      return located(
        [...path, Number(params.i)],
        `${where} lists ${describe(valueAtPath(root, [...path, Number(params.i)]))} twice (also item ${Number(params.j) + 1}): remove one`,
      );
    default:
      return located(path, `${where} ${error.message ?? "is invalid"}`);
  }
}

const SECTIONS: Readonly<Record<string, string>> = {
  inputs: "input",
  tools: "tool",
  providers: "provider",
  mcpServers: "MCP server",
};

/** A path as people read it: `"timeoutMs" of tool "flaky_fetch"`, `capabilities item 3`. */
function describePath(path: JsonPath, root = "the host profile"): string {
  if (path.length === 0) return root;
  const [section, name, ...rest] = path;
  let owner: string;
  let tail: JsonPath;
  if (typeof section === "string" && SECTIONS[section] && name !== undefined) {
    owner = `${SECTIONS[section]} ${JSON.stringify(String(name))}`;
    tail = rest;
  } else {
    owner = JSON.stringify(String(section));
    tail = path.slice(1);
  }
  if (tail.length === 0) return owner;
  const inner = tail
    .map((segment, i) =>
      typeof segment === "number"
        ? `item ${segment + 1}`
        : i === 0
          ? JSON.stringify(segment)
          : `.${JSON.stringify(segment)}`,
    )
    .join(" ")
    .replace(/ \./g, ".");
  return typeof section === "string" && SECTIONS[section] ? `${inner} of ${owner}` : `${inner} in ${owner}`;
}

function boundText(keyword: string, limit: unknown): string {
  if (keyword === "minimum") return `at least ${String(limit)}`;
  if (keyword === "exclusiveMinimum") return `more than ${String(limit)}`;
  return `at most ${String(limit)}`;
}

function patternText(pattern: string): string {
  if (pattern === "^https?://") return "must be a URL that starts with http:// or https://";
  if (pattern === "^[A-Za-z0-9_-]+$")
    return "a name may hold only letters, digits, _ and - (no dot: tools are named SERVER.TOOL)";
  if (pattern.startsWith("^[A-Za-z_]"))
    return "must be an environment variable name (letters, digits and _, not starting with a digit)";
  return `must match ${pattern}`;
}

function firstSentence(text: string): string {
  const end = text.indexOf(". ");
  return end < 0 ? text : text.slice(0, end + 1);
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

/** The allowed key nearest to a misspelled one (edit distance at most 2), if any. */
function closest(key: string, allowed: readonly string[]): string | undefined {
  return nearestName(key, allowed, 2);
}

// ---- rules beyond the schema ----------------------------------------------------------------

/** Capability terms and budget values, checked by the runtime's own rules where the schema passed. */
function ruleErrors(value: JsonObject, at: Locator, schemaFailures: readonly ErrorObject[]): HostProfileError[] {
  const errors: HostProfileError[] = [];
  const failedUnder = (prefix: string) =>
    schemaFailures.some((e) => e.instancePath === prefix || e.instancePath.startsWith(`${prefix}/`));
  const capabilities = hasOwn(value, "capabilities") ? value.capabilities : undefined;
  if (Array.isArray(capabilities)) {
    capabilities.forEach((term, i) => {
      if (typeof term !== "string" || term === "") return;
      const problem = analyzeCapability(term);
      if (problem !== undefined) {
        errors.push({ ...at.path(["capabilities", i]), jsonPath: pointer(["capabilities", i]), message: problem });
      }
    });
  }
  // Each field on its own, so that a bad value is reported with the budget's other problems (an
  // unknown key beside it), not after they are fixed.
  const budget = hasOwn(value, "budget") ? value.budget : undefined;
  if (isJsonObject(budget)) {
    for (const field of BUDGET_FIELDS) {
      if (!hasOwn(budget, field) || failedUnder(`/budget/${field}`)) continue;
      const resolved = resolveBudget({ [field]: budget[field] });
      if (resolved.ok) continue;
      for (const problem of resolved.problems) {
        const path = ["budget", problem.field ?? field];
        errors.push({ ...at.path(path), jsonPath: pointer(path), message: problem.message });
      }
    }
  }
  errors.push(...toolEntryErrors(value, at, failedUnder));
  return errors;
}

/** Input schemas that compile, MCP entries that say how to reach the server, no plan name offered twice. */
function toolEntryErrors(value: JsonObject, at: Locator, failedUnder: (prefix: string) => boolean): HostProfileError[] {
  const errors: HostProfileError[] = [];
  const located = (path: JsonPath, message: string, target: ProblemTarget = "value"): HostProfileError => ({
    ...at.path(path, target),
    jsonPath: pointer(path),
    message,
  });
  const tools = hasOwn(value, "tools") && isJsonObject(value.tools) ? value.tools : undefined;
  for (const name of Object.keys(tools ?? {})) {
    const spec = tools![name];
    if (!isJsonObject(spec) || !hasOwn(spec, "inputSchema") || failedUnder(pointer(["tools", name]))) continue;
    const problem = inputSchemaProblem(spec.inputSchema);
    if (problem !== undefined) errors.push(located(["tools", name, "inputSchema"], problem));
  }
  for (const name of Object.keys(tools ?? {})) {
    const spec = tools![name];
    if (!isJsonObject(spec) || !hasOwn(spec, "returns") || failedUnder(pointer(["tools", name]))) continue;
    const problem = inputSchemaProblem(spec.returns);
    if (problem !== undefined)
      errors.push(located(["tools", name, "returns"], problem.replace("input schema", "result schema")));
  }
  if (hasOwn(value, "result") && !failedUnder("/result")) {
    const problem = inputSchemaProblem(value.result);
    if (problem !== undefined)
      errors.push(
        located(
          ["result"],
          problem.replace("an input schema", "a result schema").replace("the input schema", "the result schema"),
        ),
      );
  }
  const servers = hasOwn(value, "mcpServers") && isJsonObject(value.mcpServers) ? value.mcpServers : undefined;
  // Plan names a mapping gives, against the profile's tools and other mappings.
  const offered = new Map<string, string>(
    Object.keys(tools ?? {}).map((name) => [name, `tool ${JSON.stringify(name)}`]),
  );
  for (const server of Object.keys(servers ?? {})) {
    const spec = servers![server];
    if (!isJsonObject(spec) || failedUnder(pointer(["mcpServers", server]))) continue;
    const entry = spec as unknown as McpServerSpec;
    const transport = mcpTransportOf(entry);
    const at = (key: string) => ["mcpServers", server, key];
    if (transport === "stdio" && entry.command === undefined) {
      errors.push(
        located(
          ["mcpServers", server],
          `MCP server ${JSON.stringify(server)} needs a "command" (or a "url" with "type": "http")`,
          "key",
        ),
      );
    }
    if (transport === "http") {
      if (entry.url === undefined)
        errors.push(
          located(
            ["mcpServers", server],
            `MCP server ${JSON.stringify(server)} needs a "url" for "type": "http"`,
            "key",
          ),
        );
      for (const key of ["command", "args", "cwd", "env", "inheritEnv", "maxMessageBytes"]) {
        if (hasOwn(spec, key))
          errors.push(
            located(
              at(key),
              `"${key}" is for servers started over stdio; MCP server ${JSON.stringify(server)} is reached at its "url"`,
              "key",
            ),
          );
      }
    } else if (entry.url !== undefined) {
      errors.push(
        located(
          at("url"),
          `MCP server ${JSON.stringify(server)} is started with its "command": remove "url", or remove "command" to reach it over HTTP`,
          "key",
        ),
      );
    }
    for (const planName of Object.keys(entry.tools ?? {})) {
      const owner = `MCP server ${JSON.stringify(server)}`;
      const earlier = offered.get(planName);
      const prefix = planName.includes(".") ? planName.slice(0, planName.indexOf(".")) : undefined;
      if (earlier !== undefined) {
        errors.push(
          located(
            ["mcpServers", server, "tools", planName],
            `the tool name ${JSON.stringify(planName)} is already taken by ${earlier}: give it another name`,
            "key",
          ),
        );
      } else if (prefix !== undefined && prefix !== server && servers !== undefined && hasOwn(servers, prefix)) {
        errors.push(
          located(
            ["mcpServers", server, "tools", planName],
            `the tool name ${JSON.stringify(planName)} starts with the name of MCP server ${JSON.stringify(prefix)}: give it another name`,
            "key",
          ),
        );
      }
      offered.set(planName, owner);
    }
  }
  // A profile tool named like an MCP tool would be two tools under one name.
  for (const name of Object.keys(tools ?? {})) {
    const prefix = name.includes(".") ? name.slice(0, name.indexOf(".")) : undefined;
    if (prefix !== undefined && servers !== undefined && hasOwn(servers, prefix)) {
      errors.push(
        located(
          ["tools", name],
          `the tool name ${JSON.stringify(name)} starts with the name of MCP server ${JSON.stringify(prefix)}: rename the tool or the server`,
          "key",
        ),
      );
    }
  }
  return errors;
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
    budget: hasOwn(value, "budget") ? (value.budget as JsonObject) : undefined,
    context: hasOwn(value, "context") ? (value.context as ContextOptions) : undefined,
    parallel: hasOwn(value, "parallel") ? (value.parallel as ParallelMode) : undefined,
    ...(hasOwn(value, "journal") ? { journal: value.journal as { dir?: string; enabled?: boolean } } : {}),
    ...(hasOwn(value, "telemetry") ? { telemetry: value.telemetry as { otlp?: string } } : {}),
    inputs: entries<InputSpec>("inputs"),
    tools: entries<ToolSpec>("tools"),
    providers: entries<ProviderSpec>("providers"),
    mcpServers: entries<McpServerSpec>("mcpServers"),
    ...(isJsonObject(value.result) ? { result: value.result } : {}),
    locate(jsonPath, target = "value") {
      const { line, column, offset, length } = at.path(pointerPath(jsonPath, value), target);
      return { line, column, offset, length };
    },
  };
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
