// Reading an OpenAI-compatible chat answer: the body (size-capped), the value bound to the step,
// and short, safe descriptions of failures. Nothing from the request or the answer's text gets
// into a message: only the HTTP status and the provider's error type/code when they are
// lowercase identifiers or numbers that do not occur in what was sent.

import { modelReply, type ModelReply } from "../plan/shapes/modelReply";

/** Answers larger than this are refused: a plan's values are bounded anyway. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export class AnswerTooLarge extends Error {
  constructor() {
    super(`the provider's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  }
}

/** The body as text, at most MAX_ANSWER_BYTES; read errors propagate to the caller. */
export async function readBody(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export type ChatValue = ModelReply;

/** The value bound to the step, or an Error describing what is malformed. */
export function chatValue(body: string, fallbackModel: string, sent: readonly string[]): ChatValue | Error {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return new Error("the provider's answer is not JSON");
  }
  const choices = field(answer, "choices");
  if (!Array.isArray(choices) || choices.length === 0) {
    const error = field(answer, "error");
    if (error !== undefined) return new Error(`the provider answered with an error${errorDetail(answer, sent)}`);
    return new Error("the provider's answer has no choices");
  }
  const first: unknown = choices[0];
  const text = field(field(first, "message"), "content");
  if (typeof text !== "string") return new Error("the provider's answer has no text in choices[0].message.content");
  const usage = field(answer, "usage");
  const model = field(answer, "model");
  const finish = field(first, "finish_reason");
  return modelReply(
    text,
    typeof model === "string" ? model : fallbackModel,
    {
      prompt: field(usage, "prompt_tokens"),
      completion: field(usage, "completion_tokens"),
      total: field(usage, "total_tokens"),
    },
    finish,
  );
}

/**
 * ` (type T, code C)` from an OpenAI-style `{"error": {...}}` body, or "". A token is kept only
 * when it is a short lowercase identifier or a number and occurs in nothing that was sent (key,
 * prompt, options), so a provider that echoes the request cannot leak it through this message.
 */
export function errorDetail(answer: unknown, sent: readonly string[]): string {
  const error = field(answer, "error");
  const parts: string[] = [];
  for (const name of ["type", "code"] as const) {
    const token = safeToken(field(error, name), sent);
    if (token !== undefined) parts.push(`${name} ${token}`);
  }
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

/** errorDetail of a body that may not be JSON at all. */
export function errorDetailOfText(body: string, sent: readonly string[]): string {
  try {
    return errorDetail(JSON.parse(body), sent);
  } catch {
    return "";
  }
}

function safeToken(value: unknown, sent: readonly string[]): string | undefined {
  const token = typeof value === "number" && Number.isInteger(value) ? String(value) : value;
  // Error types and codes are lowercase identifiers (invalid_request_error, context_length_exceeded)
  // or numbers in every OpenAI-compatible API: anything else may be text from elsewhere.
  if (typeof token !== "string" || !/^[a-z0-9_]{1,40}$/.test(token)) return undefined;
  const echoed = sent.some((text) => text.includes(token) || (text.length >= 8 && token.includes(text)));
  return echoed ? undefined : token;
}

/**
 * Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or undefined when
 * absent or unreadable.
 */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
