// search: the lines of a text (or the items of a list, by their text) that contain a pattern,
// each with its 0-based index, within the result and byte limits.

import { utf8Length, type JsonValue } from "../../json";
import { truncateToBytes } from "../sources/byteBudget";
import { ItemCursor } from "../sources/itemCursor";
import type { ContextLimits } from "../limits";
import { searchMatch } from "../../plan/shapes/contextResults";
import type { OpenPayload, Work } from "../payload";
import { itemText } from "../prolog/prologTerm";
import type { TextReader } from "../sources/textSource";
import type { WorkPace } from "../workPace";

/** One match: its preview, cut to what is left of the budget, or undefined if nothing fits. */
function preview(text: string, limits: ContextLimits, outBytes: number): { value: string; cut: boolean } | undefined {
  const bounded = truncateToBytes(text, limits.maxBytes - outBytes);
  return bounded.text === "" ? undefined : { value: bounded.text, cut: bounded.truncated };
}

async function termSearch(
  pattern: string,
  items: readonly JsonValue[],
  limits: ContextLimits,
  pace: WorkPace,
): Promise<Work> {
  const cursor = new ItemCursor(items[Symbol.iterator]());
  const matches: JsonValue[] = [];
  let outBytes = 0;
  for (let index = 0; ; index++) {
    if (!cursor.hasNext()) return { value: matches, truncated: false };
    if (matches.length >= limits.maxResults || outBytes >= limits.maxBytes) return { value: matches, truncated: true };
    if (pace.tick()) await pace.turn();
    const text = itemText(cursor.next());
    if (!text.includes(pattern)) continue;
    // A match is cut to what is left of the byte budget, and a cut match ends the search.
    const found = preview(text, limits, outBytes);
    if (found === undefined) return { value: matches, truncated: true };
    matches.push(searchMatch(index, found.value));
    outBytes += utf8Length(found.value);
    if (found.cut) return { value: matches, truncated: true };
  }
}

/**
 * The same walk seeing only the matching lines: the reference's check before each line ("stop,
 * truncated, if the limits are reached and lines are left") becomes a check after each match.
 * A match's text is the line or a prefix longer than max_bytes, which previews identically.
 */
async function textSearch(pattern: string, reader: TextReader, limits: ContextLimits, pace: WorkPace): Promise<Work> {
  const matches: JsonValue[] = [];
  let outBytes = 0;
  for await (const match of reader.matches(pattern, limits.maxBytes)) {
    if (pace.tick()) await pace.turn();
    const found = preview(match.text, limits, outBytes);
    if (found === undefined) return { value: matches, truncated: true };
    matches.push(searchMatch(match.index, found.value));
    outBytes += utf8Length(found.value);
    if (found.cut) return { value: matches, truncated: true };
    if (matches.length >= limits.maxResults || outBytes >= limits.maxBytes) {
      return { value: matches, truncated: !match.last };
    }
  }
  return { value: matches, truncated: false };
}

export function searchWork(
  pattern: string,
  payload: OpenPayload,
  limits: ContextLimits,
  pace: WorkPace,
): Promise<Work> {
  if (payload.kind === "text") return textSearch(pattern, payload.text, limits, pace);
  return termSearch(pattern, payload.items, limits, pace);
}
