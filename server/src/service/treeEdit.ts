// A jsonc tree carried across an edit: the text outside the innermost object or list that holds
// the whole change is the same, so only that container is parsed again and the nodes after it
// are moved by the change's length. A full parse of a 10,000-step plan takes about 40 times
// `JSON.parse` of its text (a node per token), and the first hover or completion after every
// keystroke waited for it; re-parsing one step and moving offsets costs a small part of that.
// Only error-free texts take this path: where either text has a syntax error the parser's
// recovery can reach past the change, and the caller parses the whole text.

import { parseJsoncTree } from "@rlm-plan/core/text";
import type { Node, ParseError } from "jsonc-parser";

const OPTIONS = { allowTrailingComma: true, disallowComments: false } as const;

/** jsonc-parser's nodes, as this module changes them. */
type Mutable = { -readonly [K in keyof Node]: Node[K] };

/** How many containers up from the innermost one the edit is tried in before a full parse. */
const MAX_LEVELS = 4;
/** Past this length, re-parsing most of the text in pieces costs more than parsing it once. */
const LARGE_TEXT = 64 * 1024;

/**
 * The tree of `newText`, made from `oldRoot` (the tree of `oldText`, which it changes in place:
 * the caller gives up the old tree), or undefined when the edit cannot be applied this way.
 * Both texts must be free of syntax errors.
 */
export function editedTree(oldText: string, oldRoot: Node, newText: string): Node | undefined {
  if (oldText === newText) return oldRoot;
  const min = Math.min(oldText.length, newText.length);
  const start = commonPrefix(oldText, newText, min);
  const same = commonSuffix(oldText, newText, min - start);
  // The change: [start, oldEnd) of the old text became [start, newText.length - same) of the new.
  const change = { start, end: oldText.length - same, delta: newText.length - oldText.length };
  // An insertion between two steps can look like one inside the next step (the common prefix
  // runs into it): when the innermost container's items cannot take it, its parent's can.
  let container = innermostContainer(oldRoot, change.start, change.end);
  for (let level = 0; container && level < MAX_LEVELS; level++, container = enclosing(container)) {
    const items = respliced(container, change, newText);
    if (items === "full") return undefined;
    if (items) {
      shiftAfter(oldRoot, items.replaced, items.end, change.delta);
      const target = container as Mutable;
      target.children = items.children;
      for (const child of items.inserted) (child as Mutable).parent = container;
      return oldRoot;
    }
  }
  return undefined;
}

/**
 * Texts are compared a chunk at a time by the engine's string equality (a memory compare) and
 * only the chunk that differs character by character: a keystroke leaves megabytes the same on
 * one side, and a loop of `charCodeAt` over them was most of this module's time (5-25 ms on a
 * 3 MB plan).
 */
const CHUNK = 4096;

/** The length of the texts' common start, at most `room`. */
function commonPrefix(a: string, b: string, room: number): number {
  let at = 0;
  while (at + CHUNK <= room && a.slice(at, at + CHUNK) === b.slice(at, at + CHUNK)) at += CHUNK;
  while (at < room && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** The length of the texts' common end, at most `room`. */
function commonSuffix(a: string, b: string, room: number): number {
  let same = 0;
  while (
    same + CHUNK <= room &&
    a.slice(a.length - same - CHUNK, a.length - same) === b.slice(b.length - same - CHUNK, b.length - same)
  )
    same += CHUNK;
  while (same < room && a.charCodeAt(a.length - 1 - same) === b.charCodeAt(b.length - 1 - same)) same++;
  return same;
}

interface Splice {
  readonly children: Node[];
  /** The old items replaced, and where the last of them ended. */
  readonly replaced: ReadonlySet<Node>;
  readonly end: number;
  readonly inserted: readonly Node[];
}

/**
 * The container's items from the one the change starts in (or after) to the one it ends in (or
 * before), parsed again from the new text inside a bracket of the container's kind; undefined
 * when that text is not a run of items, "full" when the run would be most of the text.
 */
function respliced(
  container: Node,
  change: { start: number; end: number; delta: number },
  newText: string,
): Splice | "full" | undefined {
  const items = container.children ?? [];
  // -1: the change starts before the first item (ends after the last one).
  let first = -1;
  for (let i = 0; i < items.length && (items[i] as Node).offset <= change.start; i++) first = i;
  let last = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as Node;
    if (item.offset + item.length < change.end) break;
    last = i;
  }
  if (first >= 0 && last >= 0 && last < first) return undefined;
  // A change before the first item or after the last one: from the bracket on, or up to it.
  const from = first >= 0 ? (items[first] as Node).offset : container.offset + 1;
  const end =
    last >= 0 ? (items[last] as Node).offset + (items[last] as Node).length : container.offset + container.length - 1;
  if (end - from > newText.length / 2 && newText.length > LARGE_TEXT) return "full";
  const [open, close] = container.type === "array" ? ["[", "]"] : ["{", "}"];
  const errors: ParseError[] = [];
  const parsed = parseJsoncTree(`${open}${newText.slice(from, end + change.delta)}${close}`, errors, OPTIONS);
  if (!parsed || errors.length > 0 || parsed.type !== container.type) return undefined;
  const inserted = parsed.children ?? [];
  const lo = first >= 0 ? first : 0;
  const hi = last >= 0 ? last + 1 : items.length;
  for (const child of inserted) moveBy(child, from - 1);
  return {
    children: [...items.slice(0, lo), ...inserted, ...items.slice(hi)],
    replaced: new Set(items.slice(lo, hi)),
    end,
    inserted,
  };
}

/** The object or array a node is an item or property value of. */
function enclosing(node: Node): Node | undefined {
  const parent = node.parent;
  return parent?.type === "property" ? parent.parent : parent;
}

/** The deepest object or array whose brackets lie outside [start, end): what the edit is inside. */
function innermostContainer(root: Node, start: number, end: number): Node | undefined {
  const encloses = (node: Node) =>
    (node.type === "object" || node.type === "array") && node.offset < start && end < node.offset + node.length;
  if (!encloses(root)) return undefined;
  let node = root;
  for (;;) {
    let next: Node | undefined;
    for (const child of node.children ?? []) {
      const value = child.type === "property" ? child.children?.[1] : child;
      if (value && encloses(value)) {
        next = value;
        break;
      }
      if (child.offset > end) break;
    }
    if (!next) return node;
    node = next;
  }
}

/**
 * Moves every node after `end` (where the replaced items ended) by `delta` and lengthens the
 * nodes around it; the nodes before it are left alone without being visited.
 */
function shiftAfter(root: Node, replaced: ReadonlySet<Node>, end: number, delta: number): void {
  if (delta === 0) return;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Mutable;
    if (replaced.has(node)) continue;
    if (node.offset >= end) {
      moveBy(node, delta);
      continue;
    }
    if (node.offset + node.length < end) continue;
    // A node around the replaced items (it starts before their end and ends after it).
    node.length += delta;
    if (node.colonOffset !== undefined && node.colonOffset >= end) node.colonOffset += delta;
    for (const child of node.children ?? []) stack.push(child);
  }
}
/** Adds `by` to the offsets of a node and everything under it. */
function moveBy(node: Node, by: number): void {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const at = stack.pop() as Mutable;
    at.offset += by;
    if (at.colonOffset !== undefined) at.colonOffset += by;
    for (const child of at.children ?? []) stack.push(child);
  }
}
