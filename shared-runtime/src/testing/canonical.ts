// The canonical form of a request (object keys sorted, so two requests that mean the same are
// the same text) and the first difference between two values, for a replay miss's message.

import { isJsonObject, type JsonValue } from "../json";

/** JSON text with every object's keys in code-point order. */
export function canonicalText(value: JsonValue): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isJsonObject(value)) return value;
  const out: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
  for (const key of Object.keys(value).sort()) out[key] = sorted(value[key] as JsonValue);
  return out;
}

export interface Difference {
  /** How many leaves differ (0: the values are equal); the nearest recording has the fewest. */
  readonly count: number;
  /** The first difference: "/messages/0/content: recorded "…", asked "…"". */
  readonly text: string | undefined;
}

/** Where `asked` first differs from `recorded` (JSON Pointer) and by how many leaves in all. */
export function firstDifference(recorded: JsonValue, asked: JsonValue): Difference {
  let count = 0;
  let text: string | undefined;
  const note = (path: string, a: JsonValue | undefined, b: JsonValue | undefined) => {
    count++;
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

function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function shown(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}
