// Where a completion cursor sits: the JSON path, whether it is at a property key, and the key
// or literal token it is in or just after, exactly as jsonc-parser's getLocation reports them.
// getLocation scans the text from its start on every call (tens of ms on a 10,000-step plan),
// so this starts from the cached tree instead: the deepest object on the way down to the cursor
// gives a known state (its path from the tree; its "{" sets the key flag), and only the tokens
// from there to the cursor are scanned with getLocation's rules. The tree can stand for the
// text before the cursor only when that text has no syntax error: otherwise (or without a
// tree) getLocation itself answers, which is what keeps half-typed text completing.

import type { JsonPath } from "@rlm-plan/core";
import type { JsonTextError } from "@rlm-plan/core/text";
import { createScanner, getLocation, SyntaxKind, type Node } from "jsonc-parser";

/** The key or literal token getLocation last passed (its `previousNode`). */
export interface PreviousToken {
  readonly offset: number;
  readonly length: number;
  readonly type: "property" | "string" | "number" | "boolean" | "null";
}

export interface CursorLocation {
  readonly path: JsonPath;
  readonly isAtPropertyKey: boolean;
  readonly previous: PreviousToken | undefined;
}

export function cursorLocation(
  text: string,
  root: Node | undefined,
  /** The analysed text's; only `invalid_json` ones make the tree unreliable. */
  syntaxErrors: readonly JsonTextError[],
  offset: number,
): CursorLocation {
  // The parser reports an error at the token it did not expect, having read every token before
  // it as the grammar says: up to the first error, the tree and getLocation agree.
  let firstError = Infinity;
  for (const error of syntaxErrors) if (error.code === "invalid_json") firstError = Math.min(firstError, error.offset);
  const start = root && firstError >= offset ? startingPoint(root, offset) : undefined;
  return (start && scanFrom(text, start, offset, firstError)) ?? scanWhole(text, offset);
}

function scanWhole(text: string, offset: number): CursorLocation {
  const location = getLocation(text, offset);
  const node = location.previousNode;
  const previous: PreviousToken | undefined =
    node && isTokenType(node.type) ? { offset: node.offset, length: node.length, type: node.type } : undefined;
  return { path: location.path, isAtPropertyKey: location.isAtPropertyKey, previous };
}

function isTokenType(type: string): type is PreviousToken["type"] {
  return type === "property" || type === "string" || type === "number" || type === "boolean" || type === "null";
}

type Container = "object" | "array";

/** An object node before the cursor, with the path to it and the kind of each container on it. */
interface Start {
  readonly node: Node;
  readonly segments: readonly (string | number)[];
  readonly kinds: readonly Container[];
}

/**
 * The deepest object on the way down to the cursor (following, at each level, the last child
 * that starts before it). Any object that starts before the cursor would do; the deepest one
 * leaves the fewest tokens to scan.
 */
function startingPoint(root: Node, offset: number): Start | undefined {
  const segments: (string | number)[] = [];
  const kinds: Container[] = [];
  let found: { node: Node; depth: number } | undefined;
  let node: Node | undefined = root;
  while (node && (node.type === "object" || node.type === "array") && node.offset < offset) {
    if (node.type === "object") found = { node, depth: segments.length };
    const children: readonly Node[] = node.children ?? [];
    const i = lastStartingBefore(children, offset);
    const child: Node | undefined = children[i];
    if (!child) break;
    if (node.type === "array") {
      segments.push(i);
      kinds.push("array");
      node = child;
      continue;
    }
    const key = child.children?.[0]?.value;
    if (typeof key !== "string") break;
    segments.push(key);
    kinds.push("object");
    node = child.children?.[1];
  }
  return found && { node: found.node, segments: segments.slice(0, found.depth), kinds: kinds.slice(0, found.depth) };
}

/** Index of the last child that starts before `offset` (children are in source order), or -1. */
function lastStartingBefore(children: readonly Node[], offset: number): number {
  let low = 0;
  let high = children.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((children[mid] as Node).offset < offset) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/**
 * getLocation's visitor over the tokens from `start` to the cursor: each token's event is
 * skipped when the cursor is before it (at it, for punctuation), and a key or literal the cursor
 * is in or just after ends the scan. The text here is well-formed, so a string is a key exactly
 * after "{" or "," in an object; anything else means the tree was wrong about it (undefined).
 * A key or literal that starts at the cursor is read too: if the first syntax error is there,
 * the parser may have skipped it or read it otherwise, so then getLocation decides.
 */
function scanFrom(text: string, start: Start, offset: number, firstError: number): CursorLocation | undefined {
  const segments = [...start.segments];
  const kinds = [...start.kinds];
  let previous: PreviousToken | undefined;
  let isAtPropertyKey = false;
  let expectKey = false;
  const done = (): CursorLocation => ({ path: segments, isAtPropertyKey, previous });
  const scanner = createScanner(text, true);
  scanner.setPosition(start.node.offset);
  for (;;) {
    const token = scanner.scan();
    const at = scanner.getTokenOffset();
    const end = at + scanner.getTokenLength();
    const top = segments.length - 1;
    switch (token) {
      case SyntaxKind.OpenBraceToken:
      case SyntaxKind.OpenBracketToken:
        if (offset <= at) return done();
        previous = undefined;
        expectKey = token === SyntaxKind.OpenBraceToken;
        if (expectKey) isAtPropertyKey = true;
        segments.push(expectKey ? "" : 0);
        kinds.push(expectKey ? "object" : "array");
        break;
      case SyntaxKind.CloseBraceToken:
      case SyntaxKind.CloseBracketToken:
        if (offset <= at) return done();
        if (kinds.length === 0) return undefined;
        previous = undefined;
        expectKey = false;
        segments.pop();
        kinds.pop();
        break;
      case SyntaxKind.ColonToken:
        if (offset <= at) return done();
        if (previous?.type !== "property") return undefined;
        previous = undefined;
        isAtPropertyKey = false;
        break;
      case SyntaxKind.CommaToken:
        if (offset <= at) return done();
        if (kinds[top] === "array") {
          segments[top] = (segments[top] as number) + 1;
        } else if (kinds[top] === "object") {
          segments[top] = "";
          isAtPropertyKey = true;
          expectKey = true;
        } else {
          return undefined;
        }
        previous = undefined;
        break;
      case SyntaxKind.StringLiteral:
      case SyntaxKind.NumericLiteral:
      case SyntaxKind.TrueKeyword:
      case SyntaxKind.FalseKeyword:
      case SyntaxKind.NullKeyword: {
        if (offset < at) return done();
        if (at === firstError) return undefined;
        const isKey = expectKey && token === SyntaxKind.StringLiteral;
        if (expectKey && !isKey) return undefined;
        if (isKey) segments[top] = scanner.getTokenValue();
        expectKey = false;
        previous = { offset: at, length: end - at, type: isKey ? "property" : literalType(token) };
        if (offset <= end) return done();
        break;
      }
      case SyntaxKind.EOF:
        return done();
      default:
        // An unknown token: an error the tree's parse reported, so only after the cursor.
        return offset <= at ? done() : undefined;
    }
  }
}

function literalType(token: SyntaxKind): PreviousToken["type"] {
  switch (token) {
    case SyntaxKind.StringLiteral:
      return "string";
    case SyntaxKind.NumericLiteral:
      return "number";
    case SyntaxKind.NullKeyword:
      return "null";
    default:
      return "boolean";
  }
}
