// The value a model step binds, declared once: the builder a provider makes its reply with
// (providers/chatResponse.ts) and its JSON Schema, which the plan's type rules read
// (plan/types/); a leaf of the plan layer, so the type rules need no run. A plan reads `text` for the answer.

import type { JsonObject, JsonValue } from "../../json";

export interface ModelReply {
  readonly text: string;
  readonly model: string;
  readonly usage: {
    readonly prompt_tokens: number | null;
    readonly completion_tokens: number | null;
    readonly total_tokens: number | null;
  };
  readonly finish_reason: string | null;
  readonly [key: string]: JsonValue;
}

/** A reply from its parts; token counts the provider did not give (or gave as non-integers) are null. */
export function modelReply(
  text: string,
  model: string,
  usage: { readonly prompt: unknown; readonly completion: unknown; readonly total: unknown },
  finishReason: unknown,
): ModelReply {
  return {
    text,
    model,
    usage: {
      prompt_tokens: tokenCount(usage.prompt),
      completion_tokens: tokenCount(usage.completion),
      total_tokens: tokenCount(usage.total),
    },
    finish_reason: typeof finishReason === "string" ? finishReason : null,
  };
}

function tokenCount(value: unknown): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) ? value : null;
}

const COUNT: JsonObject = { type: ["integer", "null"] };

/** The schema of every reply `modelReply` builds. */
export const MODEL_REPLY_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    text: { type: "string", description: "the model's answer" },
    model: { type: "string", description: "the model that answered" },
    usage: {
      type: "object",
      properties: { prompt_tokens: COUNT, completion_tokens: COUNT, total_tokens: COUNT },
      required: ["prompt_tokens", "completion_tokens", "total_tokens"],
      additionalProperties: false,
    },
    finish_reason: { type: ["string", "null"] },
  },
  required: ["text", "model", "usage", "finish_reason"],
  additionalProperties: false,
};
