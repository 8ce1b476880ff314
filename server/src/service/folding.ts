// Folding ranges: every object and array that spans lines (from the analysis's source tree), and
// comments: a block comment over several lines, or a run of line comments. As in the JSON
// language service, a fold ends on the line before the closing bracket so it stays visible,
// and one line starts at most one fold (the outermost).

import { createScanner, SyntaxKind, type Node } from "jsonc-parser";
import { FoldingRangeKind, type FoldingRange } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";

/** Folds per analysed version: a client asks again on every edit and every focus change. */
const computed = new WeakMap<AnalyzedPlan, FoldingRange[]>();

export function foldingRanges(plan: AnalyzedPlan): FoldingRange[] {
  let ranges = computed.get(plan);
  if (!ranges) {
    ranges = computeFoldingRanges(plan);
    computed.set(plan, ranges);
  }
  return ranges;
}

function computeFoldingRanges(plan: AnalyzedPlan): FoldingRange[] {
  const lineOf = (offset: number) => plan.document.positionAt(offset).line;
  const byStart = new Map<number, FoldingRange>();
  const add = (range: FoldingRange): void => {
    if (range.endLine <= range.startLine) return;
    const existing = byStart.get(range.startLine);
    if (!existing || existing.endLine < range.endLine) byStart.set(range.startLine, range);
  };

  const pending: Node[] = plan.tree ? [plan.tree] : [];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.type === "object" || node.type === "array") {
      const startLine = lineOf(node.offset);
      const closeLine = lineOf(node.offset + node.length - 1);
      add({ startLine, endLine: closeLine - 1 });
    }
    for (const child of node.children ?? []) {
      if (child.type === "object" || child.type === "array" || child.type === "property") pending.push(child);
    }
  }

  for (const range of commentRanges(plan.document.getText(), lineOf)) add(range);
  return [...byStart.values()].sort((a, b) => a.startLine - b.startLine);
}

function commentRanges(text: string, lineOf: (offset: number) => number): FoldingRange[] {
  if (!text.includes("/*") && !text.includes("//")) return [];
  const ranges: FoldingRange[] = [];
  const scanner = createScanner(text, false);
  let run: { startLine: number; endLine: number } | undefined;
  const endRun = () => {
    if (run && run.endLine > run.startLine) ranges.push({ ...run, kind: FoldingRangeKind.Comment });
    run = undefined;
  };
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.LineCommentTrivia) {
      const line = lineOf(scanner.getTokenOffset());
      if (run && line === run.endLine + 1) run.endLine = line;
      else {
        endRun();
        run = { startLine: line, endLine: line };
      }
    } else if (kind === SyntaxKind.BlockCommentTrivia) {
      endRun();
      const start = scanner.getTokenOffset();
      const startLine = lineOf(start);
      const endLine = lineOf(start + scanner.getTokenLength());
      if (endLine > startLine) ranges.push({ startLine, endLine, kind: FoldingRangeKind.Comment });
    } else if (kind !== SyntaxKind.LineBreakTrivia && kind !== SyntaxKind.Trivia) {
      endRun();
    }
  }
  endRun();
  return ranges;
}
