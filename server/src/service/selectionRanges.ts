// Expand/shrink selection in plans and host profiles: from the token under the cursor outward
// through its property, its object or list, and each enclosing step and plan, to the document.
// Read from the jsonc-parser tree, so it works on half-typed text too.

import { findNodeAtOffset, type Node } from "jsonc-parser";
import type { Position, Range, SelectionRange } from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";

export function selectionRanges(
  document: TextDocument,
  tree: Node | undefined,
  positions: readonly Position[],
): SelectionRange[] {
  const whole: Range = { start: { line: 0, character: 0 }, end: document.positionAt(document.getText().length) };
  return positions.map((position) => {
    const offset = document.offsetAt(position);
    const spans = tree ? spansAt(tree, offset) : [];
    // Outermost first, so each range's parent is the one built before it.
    let range: SelectionRange = { range: whole };
    for (const [start, end] of spans.reverse()) {
      const next = { start: document.positionAt(start), end: document.positionAt(end) };
      if (sameRange(next, range.range)) continue;
      range = { range: next, parent: range };
    }
    return range;
  });
}

/** [start, end) spans around `offset`, innermost first, without repeats. */
function spansAt(tree: Node, offset: number): [number, number][] {
  const spans: [number, number][] = [];
  const push = (start: number, end: number) => {
    const last = spans[spans.length - 1];
    if (!last || last[0] !== start || last[1] !== end) spans.push([start, end]);
  };
  let node: Node | undefined = findNodeAtOffset(tree, offset, true);
  // Inside a string: its text without the quotes first.
  if (node?.type === "string" && node.length >= 2 && offset > node.offset && offset < node.offset + node.length)
    push(node.offset + 1, node.offset + node.length - 1);
  for (; node; node = node.parent) push(node.offset, node.offset + node.length);
  return spans;
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}
