// A model or tool request in one canonical form, so the same request always has the same key:
// what a resumed run matches its recorded replies by, and what a test cassette is keyed by. The
// form is JSON with object keys sorted and no spaces; the key is the SHA-256 of the masked form
// (a request that held a secret is stored and keyed with `***` in its place). `callIdentity` is
// the one way a call gets its key: the recorder and every replay (resume, the debugger's) ask it.

import { createHash } from "node:crypto";
import type { JsonValue } from "../json";
import { jsonByteLength } from "../run/outputMeasure";
import type { HostCall } from "../run/observer";
import type { SecretMask } from "../mask/secretMask";
import { ContextHandle } from "../context/contextHandle";

/** What identifies a request: model calls by provider, model, messages and options; tools by name and arguments. */
export type CanonicalRequest =
  | {
      readonly kind: "model";
      readonly provider: string;
      readonly model: string | null;
      readonly messages: JsonValue;
      readonly options: JsonValue;
    }
  | { readonly kind: "tool"; readonly tool: string; readonly arguments: JsonValue };

export function canonicalRequest(call: HostCall): CanonicalRequest {
  if (call.kind === "model") {
    return {
      kind: "model",
      provider: call.name,
      model: call.model ?? null,
      messages: call.request.messages as unknown as JsonValue,
      options: call.request.options,
    };
  }
  return { kind: "tool", tool: call.name, arguments: call.arguments };
}

/** The canonical text: JSON with every object's keys sorted, no whitespace; context handles as `{"$context":...}`. */
export function canonicalText(value: unknown): string {
  return JSON.stringify(sorted(value, 0));
}

/**
 * Requests and replies whose JSON text is over this are recorded as their size alone. A plan
 * can hand a built-in 20,000 references to one 30 KB text (600 MB as text): building, masking
 * and storing that would take longer than the run's time limit and more memory than the run.
 */
export const RECORDED_TEXT_LIMIT = 1024 * 1024;

/** canonicalText, or undefined when it would be over `limit` bytes (measured without building it). */
export function canonicalTextWithin(value: unknown, limit = RECORDED_TEXT_LIMIT): string | undefined {
  const bytes = jsonByteLength(value) ?? 0;
  return bytes > limit ? undefined : canonicalText(value);
}

/**
 * The masked canonical text of a call's request and its key; `whole` is false for a request over
 * RECORDED_TEXT_LIMIT, whose text names the call and its size only (such a call is never replayed).
 */
export function callIdentity(call: HostCall, mask: SecretMask): { text: string; key: string; whole: boolean } {
  const request = canonicalRequest(call);
  const canonical = canonicalTextWithin(request);
  const whole = canonical !== undefined;
  const text = mask.mask(canonical ?? canonicalText(omitted(request)));
  return { text, key: createHash("sha256").update(text).digest("hex"), whole };
}

/** What a recorded request over the limit keeps: which call it was and its size in bytes. */
function omitted(request: CanonicalRequest): JsonValue {
  const bytes = jsonByteLength(request) ?? 0;
  if (request.kind === "tool") return { kind: "tool", tool: request.tool, omitted_bytes: bytes };
  return { kind: "model", provider: request.provider, model: request.model, omitted_bytes: bytes };
}

/** Whether a value holds a context handle: such a reply cannot be replayed (the handle lives in one process). */
export function holdsHandle(value: unknown, depth = 0): boolean {
  if (value instanceof ContextHandle) return true;
  if (typeof value !== "object" || value === null || depth > 256) return false;
  return Object.values(value).some((item) => holdsHandle(item, depth + 1));
}

export function digestOf(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function sorted(value: unknown, depth: number): unknown {
  if (value instanceof ContextHandle) return value.toJSON();
  if (typeof value !== "object" || value === null || depth > 256) return value;
  if (Array.isArray(value)) return value.map((item) => sorted(item, depth + 1));
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key], depth + 1);
  return out;
}
