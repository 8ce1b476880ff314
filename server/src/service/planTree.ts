// Plan structure read from the jsonc-parser tree of a plan file: which JSON paths are plans and
// steps, the step around a cursor, the node at an offset. Editor features work on half-typed
// text, so this reads the source tree rather than the normalized AST (what is in scope where is
// bindingIndex.ts's).

import { findNodeAtLocation, findNodeAtOffset, getNodePath, type Node } from "jsonc-parser";
import { stepPositions } from "@rlm-plan/core/plan";
import { type JsonPath } from "@rlm-plan/core";

/** True when `path` is a plan: the root, a step's `plan`, or one of a `parallel` step's `plans`. */
export function isPlanPath(path: JsonPath): boolean {
  const n = path.length;
  if (n === 0) return true;
  if (path[n - 1] === "plan") return isStepPath(path.slice(0, -1));
  return typeof path[n - 1] === "number" && path[n - 2] === "plans" && isStepPath(path.slice(0, -2));
}

/** True when `path` is a step: an element of some plan's `steps`. */
export function isStepPath(path: JsonPath): boolean {
  const n = path.length;
  return n >= 2 && typeof path[n - 1] === "number" && path[n - 2] === "steps" && isPlanPath(path.slice(0, -2));
}

/** The innermost step that contains `path`, if any. */
export function enclosingStepPath(path: JsonPath): JsonPath | undefined {
  const positions = stepPositions(path);
  return positions[positions.length - 1]?.stepPath;
}

/** The property `key`'s value node of an object node. */
export function propertyValue(object: Node | undefined, key: string): Node | undefined {
  if (object?.type !== "object") return undefined;
  // Indexed, not destructured: this runs for every property of every step an index walks.
  for (const property of object.children ?? []) {
    const pair = property.children;
    if (pair?.[0]?.value === key) return pair[1];
  }
  return undefined;
}

/** The string value of property `key`, if it is a string. */
export function stringProperty(object: Node | undefined, key: string): string | undefined {
  const value = propertyValue(object, key);
  return value?.type === "string" && typeof value.value === "string" ? value.value : undefined;
}

export function nodeAt(root: Node | undefined, path: JsonPath): Node | undefined {
  return root ? findNodeAtLocation(root, [...path]) : undefined;
}

/** The innermost node at an offset and its JSON path (a key's path is its property's path). */
export interface NodeAtOffset {
  readonly node: Node;
  readonly path: JsonPath;
  /** True when the node is a property key. */
  readonly isKey: boolean;
}

export function nodeAtOffset(root: Node | undefined, offset: number): NodeAtOffset | undefined {
  if (!root) return undefined;
  const node = findNodeAtOffset(root, offset, true);
  if (!node) return undefined;
  const isKey = node.parent?.type === "property" && node.parent.children?.[0] === node;
  const valueNode = isKey ? node.parent?.children?.[1] : node;
  const path = valueNode ? getNodePath(valueNode) : isKey && node.parent ? propertyPath(node.parent) : [];
  return { node, path, isKey };
}

function propertyPath(property: Node): JsonPath {
  const object = property.parent;
  const key = property.children?.[0]?.value;
  const base = object ? getNodePath(object) : [];
  return typeof key === "string" ? [...base, key] : base;
}

/**
 * What goes between a step written at `node` and a step added beside it: a comma and a new line
 * with the same indentation when steps are one per line, else ", " (steps on one line stay so).
 */
export function stepSeparator(text: string, node: Node): string {
  const lineStart = text.lastIndexOf("\n", node.offset - 1) + 1;
  const indent = text.slice(lineStart, node.offset);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return /^[ \t]*$/.test(indent) ? `,${eol}${indent}` : ", ";
}
