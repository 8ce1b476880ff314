// The first difference between two requests, for a replay miss's message. The canonical form
// itself (object keys sorted) is the run journal's, re-exported: cassettes and the journal key
// requests one way.

import { isJsonObject, type JsonValue } from "../json";
import { canonicalText } from "../journal/requestKey";

export { canonicalText };

export interface Difference {
  /**
   * How far apart the values are: each differing leaf counts 1, a string leaf less when the two
   * strings share a start and an end ("yo" is nearer "yoo" than "hi" is). 0: equal.
   */
  readonly count: number;
  /** The first difference: "/messages/0/content: recorded "…", asked "…"". */
  readonly text: string | undefined;
}

/** Where `asked` first differs from `recorded` (JSON Pointer) and by how many leaves in all. */
export function firstDifference(recorded: JsonValue, asked: JsonValue): Difference {
  let count = 0;
  let text: string | undefined;
  const note = (path: string, a: JsonValue | undefined, b: JsonValue | undefined) => {
    count += typeof a === "string" && typeof b === "string" ? stringDistance(a, b) : 1;
    text ??= `${path === "" ? "/" : path}: recorded ${shown(a)}, asked ${shown(b)}`;
  };
  const walk = (path: string, a: JsonValue | undefined, b: JsonValue | undefined): void => {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(`${path}/${i}`, a[i], b[i]);
      return;
    }
    if (isJsonObject(a) && isJsonObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const key of keys) walk(`${path}/${escape(key)}`, a[key], b[key]);
      return;
    }
    if (a === undefined || b === undefined || canonicalText(a) !== canonicalText(b)) note(path, a, b);
  };
  walk("", recorded, asked);
  return { count, text };
}

/** 1 minus the share of the longer string that the two have in common at their start and end. */
function stringDistance(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 0;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  // Never 0: the strings differ, and an equal leaf elsewhere must still count for more.
  return Math.max(0.01, 1 - (start + end) / longest);
}

function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function shown(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}
