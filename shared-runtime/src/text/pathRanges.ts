// Source ranges of a few JSON paths, found in one scan of the text without building a tree:
// the editor locates each problem this way on every keystroke, and builds the jsonc tree
// (10 to 20 times the cost of the scan) only when a feature such as hover needs it. Containers
// off every requested path are skipped by jsonc-parser's visitor.

import { visit } from "jsonc-parser";
import type { JsonPath } from "../json";
import type { ProblemTarget } from "../plan/problems";

export interface SourceRange {
  readonly offset: number;
  readonly length: number;
}

export interface RangeRequest {
  readonly path: JsonPath;
  readonly target?: ProblemTarget;
}

interface Trie {
  readonly children: Map<string | number, Trie>;
  /** Indexes of the requests that end here. */
  readonly requests: number[];
}

interface Frame {
  readonly trie: Trie | undefined;
  readonly array: boolean;
  readonly start: number;
  /** The key this container is the value of, when it is in an object. */
  readonly ownKey: SourceRange | undefined;
  index: number;
  /** The object's property being read, and its key's range. */
  key: string | undefined;
  keyRange: SourceRange | undefined;
}

/** The range of each request's path (its value, or its key), or undefined where there is none. */
export function rangesByScan(text: string, requests: readonly RangeRequest[]): (SourceRange | undefined)[] {
  const results: (SourceRange | undefined)[] = requests.map(() => undefined);
  const root: Trie = { children: new Map(), requests: [] };
  requests.forEach((request, i) => {
    let node = root;
    for (const segment of request.path) {
      let next = node.children.get(segment);
      if (!next) node.children.set(segment, (next = { children: new Map(), requests: [] }));
      node = next;
    }
    node.requests.push(i);
  });
  const stack: Frame[] = [];
  /** The trie node of the value starting now, and the key range it is under (in an object). */
  const slot = (): { trie: Trie | undefined; keyRange: SourceRange | undefined } => {
    const frame = stack[stack.length - 1];
    if (!frame) return { trie: root, keyRange: undefined };
    if (!frame.trie) return { trie: undefined, keyRange: undefined };
    const segment = frame.array ? frame.index++ : frame.key;
    return { trie: segment === undefined ? undefined : frame.trie.children.get(segment), keyRange: frame.keyRange };
  };
  let unresolved = requests.length;
  const record = (trie: Trie | undefined, value: SourceRange, keyRange: SourceRange | undefined): void => {
    for (const i of trie?.requests ?? []) {
      if (results[i] !== undefined) continue;
      results[i] = (requests[i] as RangeRequest).target === "key" ? (keyRange ?? value) : value;
      unresolved--;
    }
    // Every range found: the rest of the text is not scanned (a budget problem asks for the
    // "steps" key, near the start of a plan of megabytes).
    if (unresolved === 0) throw FOUND_ALL;
  };
  const open = (offset: number, array: boolean): boolean => {
    const { trie, keyRange } = slot();
    stack.push({ trie, array, start: offset, ownKey: keyRange, index: 0, key: undefined, keyRange: undefined });
    // A key's range is known when its value opens; the value's only when it closes.
    const keys = trie?.requests.filter((i) => (requests[i] as RangeRequest).target === "key" && keyRange) ?? [];
    if (keys.length > 0)
      record({ children: trie?.children ?? new Map(), requests: keys }, keyRange as SourceRange, keyRange);
    return trie !== undefined;
  };
  const close = (offset: number, length: number): void => {
    const frame = stack.pop();
    if (frame?.trie && frame.trie.requests.length > 0) {
      record(frame.trie, { offset: frame.start, length: offset + length - frame.start }, frame.ownKey);
    }
  };
  if (requests.length === 0) return results;
  try {
    scan(text, open, close, stack, slot, record);
  } catch (error) {
    if (error !== FOUND_ALL) throw error;
  }
  return results;
}

/** Thrown by the scan's callbacks once every request has its range (jsonc-parser cannot be stopped otherwise). */
const FOUND_ALL = new Error("every range found");

function scan(
  text: string,
  open: (offset: number, array: boolean) => boolean,
  close: (offset: number, length: number) => void,
  stack: Frame[],
  slot: () => { trie: Trie | undefined; keyRange: SourceRange | undefined },
  record: (trie: Trie | undefined, value: SourceRange, keyRange: SourceRange | undefined) => void,
): void {
  visit(
    text,
    {
      onObjectBegin: (offset) => open(offset, false),
      onArrayBegin: (offset) => open(offset, true),
      onObjectEnd: close,
      onArrayEnd: close,
      onObjectProperty: (property, offset, length) => {
        const frame = stack[stack.length - 1];
        if (frame) {
          frame.key = property;
          frame.keyRange = { offset, length };
        }
      },
      onLiteralValue: (_value, offset, length) => {
        const { trie, keyRange } = slot();
        if (trie && trie.requests.length > 0) record(trie, { offset, length }, keyRange);
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
}
