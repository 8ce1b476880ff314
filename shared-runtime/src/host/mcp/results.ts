// An MCP tool's answer as the value a plan binds: its structured content when it has some,
// else its content (one text is that text; several blocks are a list). A result flagged as an
// error fails the call with its text, cut short.

import { newJsonObject, setOwn, type JsonValue } from "../../json";

export type ToolAnswer =
  { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly message: string };

interface ContentBlock {
  readonly type?: unknown;
  readonly [key: string]: unknown;
}

const ERROR_TEXT_CHARS = 300;

/** Maps a tools/call result (already checked to be a result by the SDK). */
export function toolAnswer(result: {
  readonly content?: unknown;
  readonly structuredContent?: unknown;
  readonly isError?: unknown;
}): ToolAnswer {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  if (result.isError === true) {
    const text = blocks
      .filter((block) => block.type === "text" && typeof block.text === "string")
      .map((block) => (block.text as string).trim())
      .join(" ")
      .replace(/\s+/g, " ");
    const cut = text.length > ERROR_TEXT_CHARS ? `${text.slice(0, ERROR_TEXT_CHARS - 3)}...` : text;
    return { ok: false, message: `the tool reported an error${cut ? `: ${cut}` : ""}` };
  }
  if (result.structuredContent !== undefined && result.structuredContent !== null) {
    return { ok: true, value: result.structuredContent as JsonValue };
  }
  const values = blocks.map(blockValue);
  if (values.length === 1 && typeof values[0] === "string") return { ok: true, value: values[0] };
  return { ok: true, value: values };
}

/** A text block is its text; any other block keeps its fields (type, mimeType, data, uri, ...). */
function blockValue(block: ContentBlock): JsonValue {
  if (block.type === "text" && typeof block.text === "string") return block.text;
  const copy = newJsonObject();
  for (const key of Object.keys(block)) if (key !== "_meta") setOwn(copy, key, block[key] as JsonValue);
  return copy;
}
