// What an OpenAI-compatible chat request is made of: the endpoint URL, the allow-listed
// options from the plan step, and the headers (the API key, read from the environment at call
// time). Every failure here is an Error whose message names a field or variable, never a value.

import type { JsonValue } from "../json";
import type { ModelRequest } from "../run/host";
import { modelOptionProblem } from "../plan/modelOptions";

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

/** The JSON body: the host's model, the messages, then the step's allowed options. */
export function requestBody(model: string, request: ModelRequest): string {
  const body: Record<string, unknown> = {
    model,
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
  };
  const options = request.options;
  for (const key of Object.keys(options)) {
    const value = options[key] as JsonValue;
    const refused = modelOptionProblem(key, value);
    if (refused) throw new Error(refused.message);
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
