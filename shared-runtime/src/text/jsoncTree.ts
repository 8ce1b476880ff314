// jsonc-parser's source tree, node for node, built to be kept: an open plan's tree lives as long
// as the editor works on it. parseTree pushes each node's children into a fresh `[]`, which V8
// grows to 17 slots at the first push, so a property's two children took 152 bytes of list:
// at 60,000 steps those spare slots were 62 of the tree's 183 MiB (live heap, in process;
// issue 34 item 11). Here every open container's children wait in one shared list and are
// copied out at their exact length when it closes, and equal property names share one string.

import { visit, type Node, type ParseError, type ParseOptions } from "jsonc-parser";

/** jsonc-parser's nodes while they are built. */
type Mutable = { -readonly [K in keyof Node]: Node[K] };

/**
 * The same tree, errors and options as jsonc-parser's `parseTree` (the same nodes, fields and
 * children; unclosed containers end as parseTree leaves them), with child lists of exact length.
 */
export function parseJsoncTree(text: string, errors: ParseError[] = [], options?: ParseOptions): Node | undefined {
  // An artificial array holds the document's value, as in parseTree.
  const top: Mutable = { type: "array", offset: -1, length: -1, parent: undefined, children: undefined };
  let current = top;
  /** The children of every open container so far, innermost last; `starts` says where each begins. */
  const pending: Node[] = [];
  const open: Mutable[] = [top];
  const starts: number[] = [0];
  const names = new Map<string, string>();

  const begin = (node: Mutable): void => {
    pending.push(node);
    open.push(node);
    starts.push(pending.length);
    current = node;
  };
  const end = (): void => {
    const node = open.pop() as Mutable;
    const start = starts.pop() as number;
    node.children = pending.slice(start);
    pending.length = start;
    current = open[open.length - 1] as Mutable;
  };
  /** A property ends with its value (or where its value should have been). */
  const completeProperty = (endOffset: number): void => {
    if (current.type !== "property") return;
    current.length = endOffset - current.offset;
    end();
  };

  visit(
    text,
    {
      onObjectBegin: (offset) => begin({ type: "object", offset, length: -1, parent: current, children: undefined }),
      onObjectProperty: (name, offset, length) => {
        const property: Mutable = { type: "property", offset, length: -1, parent: current, children: undefined };
        begin(property);
        let shared = names.get(name);
        if (shared === undefined) names.set(name, (shared = name));
        pending.push({ type: "string", value: shared, offset, length, parent: property });
      },
      onObjectEnd: (offset, length) => {
        completeProperty(offset + length);
        current.length = offset + length - current.offset;
        end();
        completeProperty(offset + length);
      },
      onArrayBegin: (offset) => begin({ type: "array", offset, length: -1, parent: current, children: undefined }),
      onArrayEnd: (offset, length) => {
        current.length = offset + length - current.offset;
        end();
        completeProperty(offset + length);
      },
      onLiteralValue: (value: unknown, offset, length) => {
        pending.push({ type: literalType(value), offset, length, parent: current, value });
        completeProperty(offset + length);
      },
      onSeparator: (separator, offset) => {
        if (current.type !== "property") return;
        if (separator === ":") current.colonOffset = offset;
        else if (separator === ",") completeProperty(offset);
      },
      onError: (error, offset, length) => void errors.push({ error, offset, length }),
    },
    options,
  );
  // Containers the text never closed keep the children they have (parseTree's recovery).
  while (open.length > 0) end();
  const root = top.children?.[0] as Mutable | undefined;
  if (root) delete root.parent;
  return root;
}

function literalType(value: unknown): Node["type"] {
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    default:
      return "null";
  }
}
