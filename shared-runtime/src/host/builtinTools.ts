// The runtime's built-in tools: small pure functions a host profile may register by name
// ({"type": "builtin", "builtin": "count_items"}). They read only their arguments, never the
// file system, the network or the clock, and fail with a message that says what they expect.

import { isJsonObject, type JsonValue } from "../json";
import { BUILTIN_TOOL_NAMES, isBuiltinToolName, type BuiltinToolName } from "../plan/builtinToolNames";
import type { ToolHandler } from "../run/host";
import { WorkClock } from "./workClock";

export { BUILTIN_TOOL_NAMES, isBuiltinToolName, type BuiltinToolName };

export interface BuiltinToolInfo {
  readonly name: BuiltinToolName;
  /** One line: what the tool computes. */
  readonly description: string;
  /** The arguments it takes, as a plan writes them. */
  readonly args: string;
  /** What it returns. */
  readonly result: string;
  readonly example: { readonly args: JsonValue; readonly result: JsonValue };
}

/** Every built-in, for documentation, hovers and completion; the schema's enum lists the same names. */
export const BUILTIN_TOOLS: Readonly<Record<BuiltinToolName, BuiltinToolInfo>> = Object.freeze({
  count_items: {
    name: "count_items",
    description: "The number of items in a list.",
    args: "a list",
    result: "a number",
    example: { args: ["a", "b", "c"], result: 3 },
  },
  sum: {
    name: "sum",
    description: "The sum of a list of numbers (0 for an empty list).",
    args: "a list of numbers",
    result: "a number",
    example: { args: [1, 2, 3.5], result: 6.5 },
  },
  join: {
    name: "join",
    description: 'Texts joined into one, with "\\n" between them or the separator given.',
    args: 'a list of texts, or {"items": [texts], "separator": text}',
    result: "a text",
    example: { args: { items: ["a", "b"], separator: ", " }, result: "a, b" },
  },
  unique: {
    name: "unique",
    description: "The list without repeated items (equal JSON values), first occurrences kept in order.",
    args: "a list",
    result: "a list",
    example: { args: [3, 1, 3, "a", "a"], result: [3, 1, "a"] },
  },
  sort: {
    name: "sort",
    description: "A list of numbers or a list of texts in ascending order (texts by code point).",
    args: 'a list of numbers or of texts, or {"items": list, "descending": true}',
    result: "a list",
    example: { args: [3, 1, 2], result: [1, 2, 3] },
  },
  pick: {
    name: "pick",
    description: "One field of every object of a list.",
    args: '{"items": [objects], "field": name}',
    result: "a list of the field's values",
    example: { args: { items: [{ id: 1 }, { id: 2 }], field: "id" }, result: [1, 2] },
  },
  length: {
    name: "length",
    description: "The length of a text in Unicode code points.",
    args: "a text",
    result: "a number",
    example: { args: "héllo", result: 5 },
  },
});

/** The handler of a built-in tool. Handlers throw an Error with a safe message on bad arguments. */
export function builtinTool(name: BuiltinToolName): ToolHandler {
  const handler = HANDLERS[name];
  return (args, context) => handler(args, new WorkClock(context.deadline, context.timeLimit));
}

const HANDLERS: Readonly<Record<BuiltinToolName, (args: JsonValue, clock: WorkClock) => JsonValue>> = {
  count_items(args) {
    if (!Array.isArray(args)) throw new Error("count_items expects a list");
    return args.length;
  },
  sum(args) {
    if (!Array.isArray(args) || !args.every((n) => typeof n === "number")) {
      throw new Error("sum expects a list of numbers");
    }
    const total = (args as number[]).reduce((a, b) => a + b, 0);
    if (!Number.isFinite(total)) throw new Error("sum: the total is too large for a JSON number");
    return total;
  },
  join(args, clock) {
    const { items, option } = listArgs("join", args, 'a list of texts or {"items": [texts], "separator": text}');
    const sep = option("separator") ?? "\n";
    if (typeof sep !== "string") throw new Error('join: "separator" must be a text');
    if (!items.every((item) => typeof item === "string")) throw new Error("join expects a list of texts");
    // The result's size is what costs: count it (in 4 KB units) before the engine builds it.
    for (const item of items as string[]) clock.tick(1 + ((item.length + sep.length) >> 12));
    return (items as string[]).join(sep);
  },
  unique(args, clock) {
    if (!Array.isArray(args)) throw new Error("unique expects a list");
    const seen = new Set<string>();
    return args.filter((item) => {
      const key = canonicalText(item);
      clock.tick(1 + (key.length >> 12));
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  },
  sort(args, clock) {
    const { items, option } = listArgs(
      "sort",
      args,
      'a list of numbers or texts, or {"items": list, "descending": true}',
    );
    const descending = option("descending");
    if (descending !== undefined && typeof descending !== "boolean")
      throw new Error('sort: "descending" must be true or false');
    let sorted: JsonValue[];
    if (items.every((item) => typeof item === "number"))
      sorted = [...(items as number[])].sort((a, b) => (clock.tick(), a - b));
    else if (items.every((item) => typeof item === "string"))
      sorted = [...(items as string[])].sort((a, b) => (clock.tick(), compareCodePoints(a, b)));
    else throw new Error("sort expects a list of numbers or a list of texts");
    return descending === true ? sorted.reverse() : sorted;
  },
  pick(args, clock) {
    if (!isJsonObject(args) || !Array.isArray(ownArg(args, "items")) || typeof ownArg(args, "field") !== "string") {
      throw new Error('pick expects {"items": [objects], "field": name}');
    }
    const field = ownArg(args, "field") as string;
    return (ownArg(args, "items") as JsonValue[]).map((item, i) => {
      clock.tick();
      if (!isJsonObject(item) || !Object.prototype.hasOwnProperty.call(item, field)) {
        throw new Error(`pick: item ${i + 1} is not an object with the field ${JSON.stringify(field)}`);
      }
      return item[field] as JsonValue;
    });
  },
  length(args) {
    if (typeof args !== "string") throw new Error("length expects a text");
    let count = 0;
    for (const _ of args) count++;
    return count;
  },
};

function ownArg(object: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** A bare list, or an object {"items": list, OPTION: value}; `option` reads the latter's own keys. */
function listArgs(
  tool: string,
  args: JsonValue,
  expected: string,
): { items: JsonValue[]; option(key: string): unknown } {
  if (Array.isArray(args)) return { items: args, option: () => undefined };
  if (isJsonObject(args) && Array.isArray(ownArg(args, "items"))) {
    return { items: ownArg(args, "items") as JsonValue[], option: (key) => ownArg(args, key) };
  }
  throw new Error(`${tool} expects ${expected}`);
}

/** Equal JSON values get equal texts: object keys are sorted. */
function canonicalText(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(",")}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalText(value[k] as JsonValue)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function compareCodePoints(a: string, b: string): number {
  // Without copying the strings: equal ones (4,000 references to one 12 KB text) end at once,
  // and at the first differing UTF-16 unit, surrogates are moved above U+E000-U+FFFF, which
  // turns code-unit order into code-point order.
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
