// From what a host or an editor holds to a normalized plan: a JSON value, a plan file's text,
// or a model's reply. Returns the plan or problems; never throws.

import { valueShape } from "../json";
import { parseJsonText, tryParseJsonText, type JsonTextError } from "../text/jsonText";
import { parsePlanDocument, type PlanDocument } from "../text/planDocument";
import type { Plan } from "./ast";
import { jsonObjectCandidates } from "./modelText";
import { isPlainObject, normalizePlan } from "./normalize";
import { detailText, type PlanProblem } from "./problems";

export type PlanSource =
  /** A value a host already holds; a string is treated as model output, like the reference. */
  | { readonly kind: "value"; readonly value: unknown }
  /** A model's reply: one JSON object, alone, fenced or in prose. Decoded as JSON only. */
  | { readonly kind: "model"; readonly text: string }
  /** A plan file: JSON with comments. */
  | { readonly kind: "document"; readonly text: string; readonly document?: PlanDocument };

export interface ParseOptions {
  readonly collectAll?: boolean;
}

export interface ParseResult {
  /** Present when normalization produced a plan; complete only when `problems` is empty. */
  readonly plan: Plan | undefined;
  readonly problems: readonly PlanProblem[];
  /** For document sources: the parsed file, to map problem paths to source ranges. */
  readonly document?: PlanDocument;
}

export function parsePlan(source: PlanSource, options: ParseOptions = {}): ParseResult {
  switch (source.kind) {
    case "value":
      if (typeof source.value === "string") return parsePlan({ kind: "model", text: source.value }, options);
      if (!isPlainObject(source.value)) {
        const shape = valueShape(source.value);
        return failed({
          phase: "parse",
          kind: "unsupported_input",
          value_shape: shape,
          message: `a plan must be a JSON object or text that contains one, got a ${shape}`,
        });
      }
      return normalized(source.value, options);
    case "model":
      return parseModelText(source.text, options);
    case "document": {
      const document = source.document ?? parsePlanDocument(source.text);
      const syntax = document.syntaxErrors.map(textProblem);
      if (document.value === undefined || (syntax.length > 0 && options.collectAll !== true)) {
        return { plan: undefined, problems: syntax, document };
      }
      const result = normalized(document.value, options);
      return { ...result, problems: [...syntax, ...result.problems], document };
    }
  }
}

function parseModelText(text: string, options: ParseOptions): ParseResult {
  const located = locatePlanInReply(text);
  return located.ok ? normalized(located.value, options) : failed(located.problem);
}

/** The plan object found in a model's reply and where it starts, or the problem of the reply. */
export type ReplySpan =
  | { readonly ok: true; readonly text: string; readonly offset: number; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly problem: PlanProblem };

/**
 * Which JSON object of a model's reply is the plan: the one rule for `propose`, hosts and
 * `check --model-text`. Most replies hold one object (alone, fenced or in prose), so the span
 * from the first "{" to the last "}" is tried before the candidates are searched.
 */
export function locatePlanInReply(text: string): ReplySpan {
  const first = text.indexOf("{");
  const last = text.lastIndexOf("}");
  if (first >= 0 && last > first) {
    const span = first === 0 && last === text.length - 1 ? text : text.slice(first, last + 1);
    const quick = tryParseJsonText(span);
    if (quick?.ok && isPlainObject(quick.value)) return { ok: true, text: span, offset: first, value: quick.value };
  }
  let firstError: PlanProblem | undefined;
  for (const candidate of jsonObjectCandidates(text)) {
    const decoded = parseJsonText(candidate.text);
    if (decoded.ok) {
      if (isPlainObject(decoded.value))
        return { ok: true, text: candidate.text, offset: candidate.offset, value: decoded.value };
      continue;
    }
    const error = decoded.error;
    const message = error.code === "too_deep" ? `${error.message}: flatten the plan` : error.message;
    firstError ??= textProblem({ ...error, message, offset: error.offset + candidate.offset });
  }
  return {
    ok: false,
    problem: firstError ?? {
      phase: "parse",
      kind: "invalid_plan",
      reason: "no_json_object",
      detail: "no_json_object",
      message: "no JSON object found in the text: a plan is one JSON object, alone or in a ```json fence",
    },
  };
}

function normalized(value: unknown, options: ParseOptions): ParseResult {
  const result = normalizePlan(value, options);
  return {
    plan: result.problems.length === 0 || options.collectAll === true ? result.plan : undefined,
    problems: result.problems,
  };
}

function failed(problem: PlanProblem): ParseResult {
  return { plan: undefined, problems: [problem] };
}

/** The reference reports a duplicate key as one kind of invalid JSON: `invalid_json(duplicate_key(K))`. */
function textProblem(error: JsonTextError): PlanProblem {
  const reason = error.code === "duplicate_key" ? "invalid_json" : error.code;
  const detail =
    error.code === "duplicate_key"
      ? `invalid_json(${detailText("duplicate_key", error.key)})`
      : detailText(error.code, ...(error.code === "invalid_json" ? [error.message] : []));
  return {
    phase: "parse",
    kind: "invalid_plan",
    reason,
    detail,
    message: error.message,
    offset: error.offset,
    length: error.length,
    ...(error.firstOffset !== undefined && error.path && error.key !== undefined
      ? {
          related: [
            {
              path: [...error.path, error.key],
              target: "key" as const,
              message: "first occurrence of this key",
              ...(error.firstLength !== undefined ? { offset: error.firstOffset, length: error.firstLength } : {}),
            },
          ],
        }
      : {}),
  };
}
