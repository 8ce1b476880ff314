// Finding the one JSON object in a model's reply: inside a ```json fence, alone, or in prose.
// The text is only ever decoded as JSON. Scans are linear with a small constant number of
// restarts, so hostile replies (thousands of unmatched braces) cost little.

export interface JsonCandidate {
  readonly text: string;
  readonly offset: number;
}

const FENCE = /```[ \t]*([A-Za-z0-9_-]*)[ \t]*\r?\n([\s\S]*?)```/g;
const MAX_CANDIDATES = 16;
const MAX_RESTARTS = 8;

/** Candidate JSON objects, best first: fenced blocks, then balanced top-level braces. */
export function jsonObjectCandidates(text: string): JsonCandidate[] {
  const candidates: JsonCandidate[] = [];
  for (const match of text.matchAll(FENCE)) {
    const language = (match[1] ?? "").toLowerCase();
    if (language !== "" && language !== "json" && language !== "jsonc") continue;
    const body = match[2] ?? "";
    const start = body.indexOf("{");
    if (start < 0) continue;
    const offset = (match.index ?? 0) + match[0].indexOf(body) + start;
    for (const span of balancedObjects(body.slice(start))) {
      candidates.push({ text: span.text, offset: offset + span.offset });
      break;
    }
    if (candidates.length >= MAX_CANDIDATES) return candidates;
  }
  for (const span of balancedObjects(text)) {
    if (!candidates.some((c) => c.offset === span.offset)) candidates.push(span);
    if (candidates.length >= MAX_CANDIDATES) break;
  }
  return candidates;
}

/**
 * Top-level `{...}` spans whose braces balance, skipping braces inside JSON strings. Quotes in
 * prose outside any brace are ignored, so an apostrophe-free "quote" cannot hide the object.
 */
function balancedObjects(text: string): JsonCandidate[] {
  const spans: JsonCandidate[] = [];
  let from = 0;
  for (let restarts = 0; restarts <= MAX_RESTARTS && from < text.length; restarts++) {
    let depth = 0;
    let start = -1;
    let inString = false;
    let i = text.indexOf("{", from);
    if (i < 0) break;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === 0x5c) i++;
        else if (c === 0x22) inString = false;
      } else if (c === 0x7b) {
        if (depth === 0) start = i;
        depth++;
      } else if (c === 0x7d && depth > 0) {
        depth--;
        if (depth === 0) {
          spans.push({ text: text.slice(start, i + 1), offset: start });
          if (spans.length >= MAX_CANDIDATES) return spans;
        }
      } else if (c === 0x22 && depth > 0) {
        inString = true;
      }
    }
    if (depth === 0) break;
    // An object never closed. If it starts like JSON the reply was cut off: decoding a
    // fragment inside it would run part of a plan, so it is the candidate (and fails).
    if (/^\{\s*"/.test(text.slice(start, start + 64))) {
      spans.push({ text: text.slice(start), offset: start });
      break;
    }
    // Otherwise it was a brace in prose: look again just after it.
    from = start + 1;
  }
  return spans.sort((a, b) => a.offset - b.offset);
}
