// What an OpenAI-compatible chat request is made of: the endpoint URL, the allow-listed
// options from the plan step, and the headers (the API key, read from the environment at call
// time). Every failure here is an Error whose message names a field or variable, never a value.

import { hasOwn, type JsonObject, type JsonValue } from "../json";
import type { ModelRequest } from "../run/host";
import { quoted } from "../plan/problems";

export interface Endpoint {
  /** `${baseUrl}/chat/completions`, the base URL's query kept. */
  readonly url: URL;
  /** scheme://host[:port]: what descriptions show. */
  readonly origin: string;
  /** host:port, the only part of the URL error messages show. */
  readonly hostPort: string;
}

/** The endpoint of a base URL, or undefined when it is not an http(s) URL without credentials. */
export function endpointOf(baseUrl: string): Endpoint | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username !== "" || url.password !== "") return undefined;
  url.hash = "";
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/chat/completions`;
  const port = url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  return { url, origin: url.origin, hostPort: `${url.hostname}:${port}` };
}

/**
 * Request options a plan step may set, each with the JSON type it must have. Anything else is
 * refused rather than ignored or passed on: a misspelt option silently ignored would run a plan
 * differently from what its author reads, and passing unknown keys through would let plan
 * text override what the host decides (model, messages, stream, tools, n, provider routing,
 * user), which changes cost and what leaves the machine. The refusal is a model_error that
 * names the option, so the author sees it on the first run.
 */
const OPTION_RULES: Readonly<Record<string, { readonly ok: (value: JsonValue) => boolean; readonly what: string }>> = {
  temperature: { ok: isNumber, what: "a number" },
  top_p: { ok: isNumber, what: "a number" },
  max_tokens: { ok: (v) => Number.isInteger(v) && (v as number) > 0, what: "a positive integer" },
  stop: {
    ok: (v) => typeof v === "string" || (Array.isArray(v) && v.every((item) => typeof item === "string")),
    what: "a string or a list of strings",
  },
  seed: { ok: (v) => Number.isInteger(v), what: "an integer" },
  presence_penalty: { ok: isNumber, what: "a number" },
  frequency_penalty: { ok: isNumber, what: "a number" },
  response_format: {
    ok: (v) => typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as JsonObject).type === "string",
    what: 'an object with a "type"',
  },
};

export const ALLOWED_OPTIONS: readonly string[] = Object.keys(OPTION_RULES);

function isNumber(value: JsonValue): boolean {
  return typeof value === "number" && Number.isFinite(value);
}

/** The JSON body: the host's model, the messages, then the step's allowed options. */
export function requestBody(model: string, request: ModelRequest): string {
  const body: Record<string, unknown> = {
    model,
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
  };
  const options = request.options;
  for (const key of Object.keys(options)) {
    const rule = hasOwn(OPTION_RULES, key) ? OPTION_RULES[key] : undefined;
    if (!rule) {
      throw new Error(`option ${quoted(key)} is not allowed (allowed: ${ALLOWED_OPTIONS.join(", ")})`);
    }
    const value = options[key] as JsonValue;
    if (!rule.ok(value)) throw new Error(`option ${quoted(key)} must be ${rule.what}`);
    body[key] = value;
  }
  return JSON.stringify(body);
}

/** Headers with the key from `env[apiKeyEnv]`, read now so a rotated key is picked up. */
export function requestHeaders(apiKeyEnv: string | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (apiKeyEnv === undefined) return headers;
  const key = (env[apiKeyEnv] ?? "").trim();
  if (key === "") throw new Error(`environment variable ${apiKeyEnv} is not set`);
  // fetch would refuse such a value with a message that quotes it: refuse it first, without.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new Error(`environment variable ${apiKeyEnv} holds characters a key cannot contain`);
  }
  headers.authorization = `Bearer ${key}`;
  return headers;
}
