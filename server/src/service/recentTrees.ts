// Memory: an open plan's jsonc tree is most of what its analysis would hold (10 to 25 times the
// text: a node per token, each with a children array), yet only the few documents someone is
// working on need one. So an analysis keeps its text and syntax errors, and its tree lives here,
// for the most recently used plans only; another plan's tree is parsed again from its text when
// a request needs it. The plain-JSON value the normalizer read is not kept either: only running
// the plan reads it again, and gets it from the text.

import {
  parseJsoncDocument,
  parsePlanDocument,
  rangesByScan,
  type RangeRequest,
  type JsonTextError,
  type PlanDocument,
  type ProblemTarget,
} from "@rlm-plan/core/text";
import { type JsonPath, type JsonValue, type SourceRange } from "@rlm-plan/core";
import { findNodeAtLocation, type Node } from "jsonc-parser";
import { editedTree } from "./treeEdit";

/** At most this many trees are kept... */
const MAX_TREES = 16;
/**
 * ...of at most this much text in all (UTF-16 units; a tree takes 10 to 25 times its text, so
 * about 50 MB at most), but always the most recent one.
 */
const MAX_TEXT = 2 * 1024 * 1024;

interface Entry {
  /** The document version the tree is of. */
  readonly owner: RetainedDocument;
  readonly tree: Node;
}

/** One tree per document URI, least recently used first (a Map keeps insertion order). */
const recent = new Map<string, Entry>();
let recentText = 0;

function remember(uri: string, entry: Entry): void {
  forgetTree(uri);
  recent.set(uri, entry);
  recentText += entry.owner.text.length;
  for (const [oldest, { owner }] of recent) {
    if (recent.size <= 1 || (recent.size <= MAX_TREES && recentText <= MAX_TEXT)) break;
    recent.delete(oldest);
    recentText -= owner.text.length;
  }
}

/**
 * The tree of a document's previous version, kept after a change until the new version asks
 * for its tree: then it is edited into that tree (treeEdit.ts) instead of parsing the whole
 * text again. At most one per document, and only for documents among the recent trees.
 */
const previous = new Map<string, Entry>();

/** Drops a document's tree (it was closed). */
export function forgetTree(uri: string): void {
  previous.delete(uri);
  const entry = recent.get(uri);
  if (!entry) return;
  recent.delete(uri);
  recentText -= entry.owner.text.length;
}

/** A document changed: its tree is of an older version, kept to be edited into the next one's. */
export function retireTree(uri: string): void {
  const entry = recent.get(uri);
  forgetTree(uri);
  if (entry && entry.owner.syntaxErrors.length === 0) previous.set(uri, entry);
}

/**
 * A parsed plan document that keeps only its text and syntax errors; its tree comes from the
 * recent trees (parsed again when it was dropped: the same text gives the same tree, though
 * new nodes, so caches of nodes are keyed by the tree's root), its value from the text.
 */
export class RetainedDocument implements PlanDocument {
  readonly syntaxErrors: readonly JsonTextError[];
  private readonly hasTree: boolean;

  constructor(
    private readonly uri: string,
    readonly text: string,
    parsed: PlanDocument,
  ) {
    this.syntaxErrors = parsed.syntaxErrors;
    // The tree is parsed when a feature first asks (hover, completion, ...), not per keystroke.
    this.hasTree = !parsed.syntaxErrors.some((error) => error.code === "too_deep");
    const tree = parsed.builtTree?.();
    if (tree) remember(uri, { owner: this, tree });
  }

  get value(): JsonValue | undefined {
    return parsePlanDocument(this.text).value;
  }

  /** From the tree while it is kept; else by a scan of the text, without parsing a tree. */
  rangesOf(requests: readonly RangeRequest[]): (SourceRange | undefined)[] {
    if (this.hasTree && recent.get(this.uri)?.owner === this) {
      // The tree once per batch (a semantic-tokens answer asks tens of thousands of paths).
      const root = this.tree();
      return requests.map((request) => rangeIn(root, request.path, request.target));
    }
    return this.hasTree ? rangesByScan(this.text, requests) : requests.map(() => undefined);
  }

  tree(): Node | undefined {
    if (!this.hasTree) return undefined;
    const entry = recent.get(this.uri);
    if (entry?.owner === this) {
      // Most recently used now: to the end of the order.
      recent.delete(this.uri);
      recent.set(this.uri, entry);
      return entry.tree;
    }
    const tree = this.editedTree() ?? parseJsoncDocument(this.text).tree();
    if (tree) remember(this.uri, { owner: this, tree });
    return tree;
  }

  /** The previous version's tree, edited into this version's, when both texts are free of errors. */
  private editedTree(): Node | undefined {
    const before = previous.get(this.uri);
    if (!before) return undefined;
    previous.delete(this.uri);
    if (this.syntaxErrors.length > 0) return undefined;
    return editedTree(before.owner.text, before.tree, this.text);
  }

  rangeOf(path: JsonPath, target: ProblemTarget = "value"): SourceRange | undefined {
    return rangeIn(this.tree(), path, target);
  }
}

function rangeIn(root: Node | undefined, path: JsonPath, target: ProblemTarget = "value"): SourceRange | undefined {
  const node = root && findNodeAtLocation(root, [...path]);
  if (!node) return undefined;
  const key = target === "key" && node.parent?.type === "property" ? node.parent.children?.[0] : undefined;
  return key ? { offset: key.offset, length: key.length } : { offset: node.offset, length: node.length };
}
