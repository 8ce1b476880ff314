// Plan files as editors and the CLI see them: JSON with comments, parsed by jsonc-parser into
// a tree that keeps a source range for every node, so any problem's JSON path maps back to the
// exact token. Syntax errors never stop the analysis: the recovered value is still checked.

import {
  createScanner,
  findNodeAtLocation,
  getNodePath,
  stripComments,
  SyntaxKind,
  type Node,
  type ParseError,
} from "jsonc-parser";
import { newJsonObject, setOwn, type JsonPath, type JsonValue } from "../json";
import { countKeyTokens, describeParseError, MAX_JSON_DEPTH, parseJsonText, type JsonTextError } from "./jsonText";
import { parseJsoncTree } from "./jsoncTree";
import { rangesByScan, type ProblemTarget, type RangeRequest, type SourceRange } from "./pathRanges";

export { rangesByScan, type RangeRequest, type SourceRange } from "./pathRanges";
export { parseJsoncTree } from "./jsoncTree";

export interface PlanDocument {
  readonly text: string;
  /** The document's value, recovered as far as possible when there are syntax errors. */
  readonly value: JsonValue | undefined;
  /** Syntax errors, duplicate keys and over-deep nesting, in source order. */
  readonly syntaxErrors: readonly JsonTextError[];
  /** Source range of the node at `path` (its key, for target "key"), if the path exists. */
  rangeOf(path: JsonPath, target?: ProblemTarget): SourceRange | undefined;
  /**
   * The ranges of several paths at once: from the tree when one is built, else from one scan of
   * the text (no tree is built for it).
   */
  rangesOf(requests: readonly RangeRequest[]): (SourceRange | undefined)[];
  /** The jsonc-parser tree, for editor features that walk the source (folding, symbols). */
  tree(): Node | undefined;
  /** The tree if it was already built (never builds one). */
  builtTree?(): Node | undefined;
}

/**
 * Parses a plan file. Strict JSON goes through JSON.parse; the jsonc tree is built only when
 * the text has comments or errors, or when a caller asks for ranges.
 */
export function parsePlanDocument(text: string): PlanDocument {
  const strict = parseJsonText(text);
  if (strict.ok) return new LazyTreeDocument(text, strict.value, []);
  if (strict.error.code === "too_deep")
    return new LazyTreeDocument(text, undefined, [
      { ...strict.error, message: `${strict.error.message}: flatten the plan` },
    ]);
  if (strict.error.code === "invalid_json" && (text.includes("//") || text.includes("/*"))) {
    // Plan files often carry comments and are otherwise strict: blank the comments out (offsets
    // stay the same) and take the fast path; anything else still wrong gets the jsonc parse.
    const uncommented = parseJsonText(stripComments(text, " "));
    if (uncommented.ok) return new LazyTreeDocument(text, uncommented.value, []);
  }
  return parseJsoncDocument(text);
}

/** Duplicate keys listed one by one per document; the rest are counted. */
export const MAX_LISTED_DUPLICATES = 1000;

/** Always builds the tree: what the language server uses for every open document. */
export function parseJsoncDocument(text: string): PlanDocument {
  // jsonc-parser recurses per nesting level: refuse hostile depth before it does. The quick
  // count is exact for JSON; comments can fool it, so the parse is still guarded.
  if (countKeyTokens(text).maxDepth > MAX_JSON_DEPTH) {
    const tooDeep = jsoncDepthError(text);
    if (tooDeep) return new LazyTreeDocument(text, undefined, [tooDeep]);
  }
  const parseErrors: ParseError[] = [];
  let root: Node | undefined;
  try {
    root = parseJsoncTree(text, parseErrors, {
      allowTrailingComma: true,
      disallowComments: false,
      allowEmptyContent: false,
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const tooDeep = jsoncDepthError(text) ?? {
      code: "too_deep" as const,
      message: "JSON nested too deep to analyse: flatten the plan",
      offset: 0,
      length: 0,
    };
    return new LazyTreeDocument(text, undefined, [tooDeep]);
  }
  const errors: JsonTextError[] = parseErrors.map((e) => ({
    code: "invalid_json",
    message: `invalid JSON: ${describeParseError(e.error)}`,
    offset: e.offset,
    length: e.length,
  }));
  // A hostile document can hold 200,000 duplicate keys: the first MAX_LISTED_DUPLICATES are
  // listed, the rest counted in one last problem, so nothing downstream grows with them.
  let unlisted = 0;
  let listed = 0;
  const value = root
    ? treeValue(root, (error) => {
        if (listed < MAX_LISTED_DUPLICATES) {
          listed++;
          errors.push(error);
        } else unlisted++;
      })
    : undefined;
  errors.sort((a, b) => a.offset - b.offset);
  const last = errors[errors.length - 1];
  if (unlisted > 0 && last) {
    errors.push({
      code: "duplicate_key",
      message: `${unlisted} more duplicate keys after this one are not listed: a JSON object may name a key only once`,
      offset: last.offset,
      length: last.length,
    });
  }
  return new LazyTreeDocument(text, value, errors, root);
}

class LazyTreeDocument implements PlanDocument {
  private root: Node | undefined | null;
  constructor(
    readonly text: string,
    readonly value: JsonValue | undefined,
    readonly syntaxErrors: readonly JsonTextError[],
    root?: Node,
  ) {
    this.root = root ?? null;
  }

  builtTree(): Node | undefined {
    return this.root ?? undefined;
  }

  rangesOf(requests: readonly RangeRequest[]): (SourceRange | undefined)[] {
    if (this.root !== null || this.syntaxErrors.some((e) => e.code === "too_deep")) {
      return requests.map((r) => this.rangeOf(r.path, r.target));
    }
    // No tree and no errors: JSON.parse read the text (its comments blanked out).
    return rangesByScan(this.text, requests, this.syntaxErrors.length === 0);
  }

  tree(): Node | undefined {
    if (this.root === null) {
      const tooDeep = this.syntaxErrors.some((e) => e.code === "too_deep");
      this.root = tooDeep
        ? undefined
        : parseJsoncTree(this.text, [], { allowTrailingComma: true, disallowComments: false });
    }
    return this.root;
  }

  rangeOf(path: JsonPath, target: ProblemTarget = "value"): SourceRange | undefined {
    const root = this.tree();
    if (!root) return undefined;
    const node = findNodeAtLocation(root, [...path]);
    if (!node) return undefined;
    if (target === "key" && node.parent?.type === "property") {
      const key = node.parent.children?.[0];
      if (key) return { offset: key.offset, length: key.length };
    }
    return { offset: node.offset, length: node.length };
  }
}

/** jsonc-parser recurses per nesting level; refuse hostile depth before it does. */
function jsoncDepthError(text: string): JsonTextError | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
      if (++depth > MAX_JSON_DEPTH) {
        return {
          code: "too_deep",
          message: `JSON nested more than ${MAX_JSON_DEPTH} levels deep: flatten the plan`,
          offset: scanner.getTokenOffset(),
          length: 1,
        };
      }
    } else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) {
      depth--;
    }
  }
  return undefined;
}

/** The tree's value with prototype-free objects; duplicate keys are reported, first one kept. */
function treeValue(node: Node, report: (error: JsonTextError) => void): JsonValue {
  switch (node.type) {
    case "object": {
      const object = newJsonObject();
      const seen = new Map<string, Node>();
      // Found once per object: each lookup walks the parents' child lists.
      let path: JsonPath | undefined;
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode || typeof keyNode.value !== "string") continue;
        const key = keyNode.value;
        const first = seen.get(key);
        if (first) {
          report({
            code: "duplicate_key",
            message: `duplicate key ${JSON.stringify(key)}: a JSON object may name a key only once`,
            offset: keyNode.offset,
            length: keyNode.length,
            path: (path ??= getNodePath(node)),
            key,
            firstOffset: first.offset,
            firstLength: first.length,
          });
          continue;
        }
        seen.set(key, keyNode);
        if (valueNode) setOwn(object, key, treeValue(valueNode, report));
      }
      return object;
    }
    case "array": {
      const children = node.children ?? [];
      const items: JsonValue[] = new Array<JsonValue>(children.length);
      for (let i = 0; i < children.length; i++) items[i] = treeValue(children[i] as Node, report);
      return items;
    }
    case "string":
    case "number":
    case "boolean":
      return node.value as JsonValue;
    default:
      return null;
  }
}
