// search: the lines of a text (or the items of a list, by their text) that contain a pattern,
// each with its 0-based index, within the result and byte limits.

import { utf8Length, type JsonValue } from "../json";
import { truncateToBytes } from "./byteBudget";
import { payloadItems } from "./itemCursor";
import type { ContextLimits } from "./limits";
import type { ContextPayload, Work } from "./payload";
import { itemText } from "./prologTerm";

export function searchWork(pattern: string, payload: ContextPayload, limits: ContextLimits): Work {
  const items = payloadItems(payload);
  const matches: JsonValue[] = [];
  let outBytes = 0;
  for (let index = 0; ; index++) {
    if (!items.hasNext()) return { value: matches, truncated: false };
    if (matches.length >= limits.maxResults || outBytes >= limits.maxBytes) return { value: matches, truncated: true };
    const text = itemText(items.next());
    if (!text.includes(pattern)) continue;
    // A match is cut to what is left of the byte budget, and a cut match ends the search.
    const preview = truncateToBytes(text, limits.maxBytes - outBytes);
    const added = utf8Length(preview.text);
    if (added === 0) return { value: matches, truncated: true };
    matches.push({ index, value: preview.text });
    outBytes += added;
    if (preview.truncated) return { value: matches, truncated: true };
  }
}
