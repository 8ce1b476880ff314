// Source ranges of a few JSON paths, found in one scan of the text without building a tree:
// the editor locates each problem this way on every keystroke, and builds the jsonc tree
// (10 to 20 times the cost of the scan) only when a feature such as hover needs it. Containers
// off every requested path are skipped by jsonc-parser's visitor.

import { visit } from "jsonc-parser";
import type { JsonPath } from "../json";
import { NOT_STRICT, scanStrictJson } from "./strictJsonScan";

/** Which token of the node at a path a range is about (and a problem: plan/problems.ts). */
export type ProblemTarget = "value" | "key";

export interface SourceRange {
  readonly offset: number;
  readonly length: number;
}

export interface RangeRequest {
  readonly path: JsonPath;
  readonly target?: ProblemTarget;
}

/**
 * The requested paths as a tree. Built for every problem on each keystroke, so kept cheap for
 * 60,000 problems under `steps`: array positions go in chunks of 1,024 (one array or Map of
 * 60,000 entries lands in V8's large-object space, where each store costs about ten times
 * more: see plan/nameTable.ts), and a node's first key needs no Map (most have one).
 */
interface Trie {
  key0: string | number | undefined;
  child0: Trie | undefined;
  chunks: (Trie | undefined)[][] | undefined;
  more: Map<string | number, Trie> | undefined;
  /** Indexes of the requests that end here. */
  readonly requests: number[];
}

const CHUNK_BITS = 10;
const CHUNK = 1 << CHUNK_BITS;

const newTrie = (): Trie => ({ key0: undefined, child0: undefined, chunks: undefined, more: undefined, requests: [] });

/** An array position: the segments that go in chunks. */
function isIndex(segment: string | number): segment is number {
  return typeof segment === "number" && segment >= 0 && segment < 2 ** 24 && Number.isInteger(segment);
}

function childOf(node: Trie, segment: string | number): Trie | undefined {
  if (isIndex(segment)) return node.chunks?.[segment >> CHUNK_BITS]?.[segment & (CHUNK - 1)];
  if (node.child0 !== undefined && node.key0 === segment) return node.child0;
  return node.more?.get(segment);
}

function addChild(node: Trie, segment: string | number): Trie {
  const child = newTrie();
  if (isIndex(segment)) {
    const chunks = (node.chunks ??= []);
    const at = segment >> CHUNK_BITS;
    while (chunks.length <= at) chunks.push([]);
    const chunk = chunks[at] as (Trie | undefined)[];
    const within = segment & (CHUNK - 1);
    while (chunk.length < within) chunk.push(undefined);
    chunk[within] = child;
  } else if (node.child0 === undefined) {
    node.key0 = segment;
    node.child0 = child;
  } else (node.more ??= new Map()).set(segment, child);
  return child;
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

/**
 * The range of each request's path (its value, or its key), or undefined where there is none.
 * `strict`: the text is known to be JSON, comments allowed (JSON.parse read it, comments blanked
 * out): it is read by scanStrictJson, which skips the containers no request is in, and by the
 * jsonc visitor only if that scan meets something it does not expect.
 */
export function rangesByScan(
  text: string,
  requests: readonly RangeRequest[],
  strict = false,
): (SourceRange | undefined)[] {
  if (strict) {
    try {
      return locate(text, requests, true);
    } catch (error) {
      if (error !== NOT_STRICT) throw error;
    }
  }
  return locate(text, requests, false);
}

function locate(text: string, requests: readonly RangeRequest[], strict: boolean): (SourceRange | undefined)[] {
  const results: (SourceRange | undefined)[] = new Array<SourceRange | undefined>(requests.length).fill(undefined);
  if (requests.length === 0) return results;
  const root = newTrie();
  for (let i = 0; i < requests.length; i++) {
    let node = root;
    for (const segment of (requests[i] as RangeRequest).path) node = childOf(node, segment) ?? addChild(node, segment);
    node.requests.push(i);
  }
  const stack: Frame[] = [];
  // What `slot` found: the trie node of the value starting now, and the key range it is under
  // (in an object). Two variables rather than an object a value: a plan has millions of values.
  let slotTrie: Trie | undefined;
  let slotKeyRange: SourceRange | undefined;
  const slot = (): void => {
    const frame = stack[stack.length - 1];
    slotKeyRange = undefined;
    if (!frame) {
      slotTrie = root;
      return;
    }
    if (!frame.trie) {
      slotTrie = undefined;
      return;
    }
    if (frame.array) slotTrie = childOf(frame.trie, frame.index++);
    else slotTrie = frame.key === undefined ? undefined : childOf(frame.trie, frame.key);
    slotKeyRange = frame.keyRange;
  };
  let unresolved = requests.length;
  const record = (indexes: readonly number[], value: SourceRange, keyRange: SourceRange | undefined): void => {
    for (const i of indexes) {
      if (results[i] !== undefined) continue;
      results[i] = (requests[i] as RangeRequest).target === "key" ? (keyRange ?? value) : value;
      unresolved--;
    }
    // Every range found: the rest of the text is not scanned (a budget problem asks for the
    // "steps" key, near the start of a plan of megabytes).
    if (unresolved === 0) throw FOUND_ALL;
  };
  const open = (offset: number, array: boolean): boolean => {
    slot();
    const trie = slotTrie;
    const keyRange = slotKeyRange;
    stack.push({ trie, array, start: offset, ownKey: keyRange, index: 0, key: undefined, keyRange: undefined });
    // A key's range is known when its value opens; the value's only when it closes.
    if (trie && keyRange && trie.requests.length > 0) {
      const keys = trie.requests.filter((i) => (requests[i] as RangeRequest).target === "key");
      if (keys.length > 0) record(keys, keyRange, keyRange);
    }
    return trie !== undefined;
  };
  const close = (offset: number, length: number): void => {
    const frame = stack.pop();
    if (frame?.trie && frame.trie.requests.length > 0) {
      record(frame.trie.requests, { offset: frame.start, length: offset + length - frame.start }, frame.ownKey);
    }
  };
  const literal = (offset: number, length: number): void => {
    slot();
    if (slotTrie && slotTrie.requests.length > 0) record(slotTrie.requests, { offset, length }, slotKeyRange);
  };
  const key = (property: string, offset: number, length: number): void => {
    const frame = stack[stack.length - 1];
    if (frame) {
      frame.key = property;
      frame.keyRange = { offset, length };
    }
  };
  try {
    if (strict) scanStrictJson(text, { open, close, key, literal });
    else scan(text, open, close, key, literal);
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
  key: (property: string, offset: number, length: number) => void,
  literal: (offset: number, length: number) => void,
): void {
  visit(
    text,
    {
      onObjectBegin: (offset) => open(offset, false),
      onArrayBegin: (offset) => open(offset, true),
      onObjectEnd: close,
      onArrayEnd: close,
      onObjectProperty: key,
      onLiteralValue: (_value, offset, length) => literal(offset, length),
    },
    { allowTrailingComma: true, disallowComments: false },
  );
}
