// A model provider for OpenAI-compatible chat-completions endpoints (OpenRouter, OpenAI, Ollama,
// vLLM, llama.cpp server): one POST per call, with a timeout, cancellation, optional 429 retries
// and errors whose messages carry no key, header, prompt or completion text.
//
// Why global fetch and not the `openai` npm package: we need one endpoint, and with fetch we
// add no dependency (and its transitive ones) to the runtime, and we own every behaviour that
// matters here: which options reach the wire, the one timeout that covers retries and body
// reading, immediate abort from the run's signal, which 429s are retried, and the exact text
// of every error (the SDK's errors embed response bodies and request details in messages).

// node:timers' `promises` getter loads them on the first retry wait, not with the provider.
import { promises as timers } from "node:timers";
import type { JsonValue } from "../json";
import type { ModelPrice, ProviderCosting } from "../plan/modelCost";
import type { ModelContext, ModelProvider, ModelRequest } from "../run/host";
import { endpointOf, requestBody, requestHeaders, type Endpoint } from "./chatRequest";
import {
  AnswerTooLarge,
  chatValue,
  errorDetailOfText,
  readBody,
  retryAfterSeconds,
  type ChatValue,
} from "./chatResponse";

/** A provider entry of the host profile (`providers.NAME` with `"type": "openai-chat"`). */
export interface OpenAIChatSpec {
  type: "openai-chat";
  baseUrl: string;
  model: string;
  apiKeyEnv?: string;
  timeoutMs?: number;
  maxRetries?: number;
  /** Whether `propose` sends the plan's JSON Schema as response_format (default "none"). */
  responseFormat?: "json_schema" | "none";
  /** Per million tokens, in the profile's currency (plan/modelCost.ts). */
  price?: ModelPrice;
  /** The max_tokens sent when a step sets none. */
  maxTokens?: number;
  description?: string;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
/** The longest a Retry-After is honoured for; longer ones are cut to this. */
export const MAX_RETRY_WAIT_MS = 30_000;
/** The wait before retrying a 429 that has no (readable) Retry-After. */
const DEFAULT_RETRY_WAIT_MS = 1_000;
const MAX_RETRIES = 10;

interface Call {
  readonly spec: OpenAIChatSpec;
  readonly env: NodeJS.ProcessEnv;
  readonly endpoint: Endpoint | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
}

type Attempt =
  | { readonly kind: "done"; readonly value: ChatValue }
  | { readonly kind: "rate_limited"; readonly error: Error; readonly waitMs: number };

export function createOpenAIChatProvider(spec: OpenAIChatSpec, env: NodeJS.ProcessEnv): ModelProvider {
  const endpoint = endpointOf(spec.baseUrl);
  const call: Call = {
    spec,
    env,
    endpoint,
    timeoutMs:
      isCount(spec.timeoutMs) && spec.timeoutMs > 0 ? Math.min(spec.timeoutMs, 2 ** 31 - 1) : DEFAULT_TIMEOUT_MS,
    maxRetries: isCount(spec.maxRetries) ? Math.min(spec.maxRetries, MAX_RETRIES) : 0,
  };
  const where = endpoint ? endpoint.origin : "an invalid baseUrl";
  const extra = spec.description ? `: ${spec.description}` : "";
  return {
    description: `openai-chat ${spec.model} at ${where}${extra}`,
    model: spec.model,
    ...definedCosting(spec),
    complete: (request, context) => complete(call, request, context),
  };
}

/** The provider's price and default max_tokens, as the run's cost rule reads them. */
export function costingOf(spec: Pick<OpenAIChatSpec, "price" | "maxTokens">): ProviderCosting {
  return {
    ...(spec.price ? { price: spec.price } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
  };
}

/** `{costing}` for a provider spec that prices its calls or bounds them, else nothing (an unpriced call stays as it was). */
export function definedCosting(spec: Pick<OpenAIChatSpec, "price" | "maxTokens">): { costing?: ProviderCosting } {
  return spec.price !== undefined || spec.maxTokens !== undefined ? { costing: costingOf(spec) } : {};
}

/** What is wrong with a spec, as a message that quotes no value, or undefined. */
export function openAIChatSpecProblem(spec: OpenAIChatSpec): string | undefined {
  if (!endpointOf(spec.baseUrl)) return "baseUrl must be an http(s) URL without credentials";
  if (typeof spec.model !== "string" || spec.model === "") return "model must be a non-empty string";
  if (spec.timeoutMs !== undefined && !(isCount(spec.timeoutMs) && spec.timeoutMs > 0))
    return "timeoutMs must be a positive integer";
  if (spec.maxRetries !== undefined && !isCount(spec.maxRetries)) return "maxRetries must be a non-negative integer";
  return undefined;
}

async function complete(call: Call, request: ModelRequest, context: ModelContext): Promise<JsonValue> {
  const { signal } = context;
  if (signal.aborted) throw cancelled();
  if (!call.endpoint) throw new Error("the provider's baseUrl is not an http(s) URL without credentials");
  // The provider's maxTokens bounds a step that sets none: the bound its worst case in money counts.
  const bounded =
    call.spec.maxTokens !== undefined && request.options["max_tokens"] === undefined
      ? { ...request, options: { ...request.options, max_tokens: call.spec.maxTokens } }
      : request;
  const body = requestBody(call.spec.model, bounded);
  const headers = requestHeaders(call.spec.apiKeyEnv, call.env);
  // What was sent, so that nothing of it is repeated back in an error message.
  const sent = [headers.authorization?.slice("Bearer ".length) ?? "", body].filter((text) => text !== "");
  const deadline = Date.now() + call.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const outcome = await attemptOnce(call, call.endpoint, { body, headers, sent }, deadline - Date.now(), signal);
    if (outcome.kind === "done") return outcome.value;
    if (attempt >= call.maxRetries || Date.now() + outcome.waitMs >= deadline) throw outcome.error;
    try {
      await timers.setTimeout(outcome.waitMs, undefined, { signal });
    } catch {
      throw cancelled();
    }
  }
}

interface Outgoing {
  readonly body: string;
  readonly headers: Record<string, string>;
  readonly sent: readonly string[];
}

async function attemptOnce(
  call: Call,
  endpoint: Endpoint,
  outgoing: Outgoing,
  remainingMs: number,
  signal: AbortSignal,
): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(
    () => {
      timedOut = true;
      controller.abort();
    },
    Math.max(0, remainingMs),
  );
  const onAbort = (): void => controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  // fetch's own errors are never passed on: they may quote header values or URLs.
  const failure = (reading: boolean, error: unknown): Error => {
    if (signal.aborted) return cancelled();
    if (timedOut) return new Error(`no answer within ${call.timeoutMs} ms`);
    if (error instanceof AnswerTooLarge) return new AnswerTooLarge();
    const code = errorCode(error);
    const during = reading ? " while reading the answer" : "";
    return new Error(`connection to ${endpoint.hostPort} failed${during}${code ? ` (${code})` : ""}`);
  };
  try {
    let response: Response;
    try {
      response = await fetch(endpoint.url, {
        method: "POST",
        headers: outgoing.headers,
        body: outgoing.body,
        signal: controller.signal,
        // A redirect could carry the request elsewhere: report it instead of following it.
        redirect: "manual",
      });
    } catch (error) {
      throw failure(false, error);
    }
    if (!response.ok) {
      // The status is what matters; a body that cannot be read only loses the error type.
      const text = await readBody(response).catch(() => "");
      if (signal.aborted) throw cancelled();
      const detail = errorDetailOfText(text, outgoing.sent);
      const status = `HTTP ${response.status} from the provider${detail}`;
      if (response.status === 429) return rateLimited(status, retryAfterSeconds(response.headers.get("retry-after")));
      const redirect = response.status >= 300 && response.status < 400 ? " (redirects are not followed)" : "";
      throw new Error(`${status}${redirect}`);
    }
    let text: string;
    try {
      text = await readBody(response);
    } catch (error) {
      throw failure(true, error);
    }
    const value = chatValue(text, call.spec.model, outgoing.sent);
    if (value instanceof Error) throw value;
    return { kind: "done", value };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

function rateLimited(status: string, seconds: number | undefined): Attempt {
  const after = seconds === undefined ? "" : `; retry after ${seconds} s`;
  return {
    kind: "rate_limited",
    error: new Error(`${status}: rate limited${after}`),
    waitMs: Math.min(seconds === undefined ? DEFAULT_RETRY_WAIT_MS : seconds * 1000, MAX_RETRY_WAIT_MS),
  };
}

function cancelled(): Error {
  return new Error("the request was cancelled");
}

/** A system error code (ECONNREFUSED, UND_ERR_SOCKET) from fetch's error chain, if any. */
function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
