// Ajv's schema errors in English: each says where (`"timeoutMs" of tool "flaky_fetch"`), what is
// wrong and what to do, in the words of the schema's own descriptions; host profiles and mocks share it.

import type { ErrorObject } from "ajv";
import { pointer, pointerPath, valueAtPath, type JsonPath } from "../json";
import { describe } from "../plan/normalize";
import { orList, type ProblemTarget } from "../plan/problems";
import { typeNoun } from "../plan/schemaProblemText";
import { nearestName } from "../text/nearestName";
import type { HostProfileError, Locator } from "./profileTypes";

/**
 * Ajv reports a failed `propertyNames` twice (the inner keyword and the wrapper); keep the
 * inner one, which names the property.
 */
export function schemaErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  return errors.filter((error) => error.keyword !== "propertyNames");
}

type SchemaNode = {
  readonly description?: string;
  readonly properties?: Record<string, SchemaNode>;
  readonly oneOf?: readonly SchemaNode[];
  readonly const?: unknown;
};

export function schemaError(error: ErrorObject, root: unknown, at: Locator): HostProfileError {
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
