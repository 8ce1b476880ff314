// Workspace symbols: every binding and every tool call of every plan in the workspace, found by
// the runtime's rule for plan files and named the way the outline names steps. Plans not open in
// the editor are read from disk (bounded, never blocking) and kept until their size or modification
// time changes. A plan over `rlmPlan.maxAnalyzedSize`, open or on disk, is left out as the editor
// leaves it unanalysed, and one not open over 2 MiB too; the log says so once per version of the file.

import { statSync } from "node:fs";
import { isAbsolute, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { findWorkspaceFiles, workspaceFileKind } from "@rlm-plan/core/workspaceFiles";
import { parseJsoncDocument } from "@rlm-plan/core/text";
import { readTextFileSync } from "@rlm-plan/core/text";
import { SymbolKind, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { AnalyzedPlan } from "./analyzedPlan";
import { notIndexedMessage, sizeText } from "./sizeLimits";
import { documentSymbols } from "./symbols";

/** A workspace is walked for at most this many plans. */
const MAX_FILES = 5000;
/**
 * A plan not open is read for its symbols up to this size (each is parsed, and the first search
 * reads them all); an open plan is searched up to `maxAnalyzedSize`, as the editor analyses it.
 */
const MAX_DISK_BYTES = 2 * 1024 * 1024;
/** Clients filter further; a long list helps no one. */
const MAX_RESULTS = 1000;

interface CachedPlan {
  readonly stamp: string;
  /** Undefined for a plan over the limit (or unreadable): not read again until it changes. */
  readonly symbols: readonly DocumentSymbol[] | undefined;
}

/** The open plans: those analysed, and those over the limit (by URI), which are not read from disk. */
export interface OpenPlans {
  readonly analyzed: readonly AnalyzedPlan[];
  readonly refused: readonly string[];
}

export class WorkspaceSymbols {
  private readonly cache = new Map<string, CachedPlan>();

  /** `warn` logs why a plan is left out (plans over `maxAnalyzedSize`). */
  constructor(private readonly warn: (message: string) => void) {}

  /**
   * Symbols matching `query` (case-insensitive, letters in order), open plans' current text first;
   * plans on disk over `maxBytes` (the `maxAnalyzedSize` setting) are left out.
   */
  search(folder: string | undefined, query: string, open: OpenPlans, maxBytes: number): SymbolInformation[] {
    const results: SymbolInformation[] = [];
    const seen = new Set<string>(open.refused);
    const matches = matcher(query);
    const add = (uri: string, file: string, symbols: readonly DocumentSymbol[]) => {
      seen.add(uri);
      for (const info of flatten(uri, shownPath(folder, file), symbols)) {
        if (results.length >= MAX_RESULTS) return;
        if (matches(info.name)) results.push(info);
      }
    };
    for (const plan of open.analyzed) add(plan.document.uri, pathOf(plan.document.uri), documentSymbols(plan));
    if (folder === undefined) return results;
    const files = findWorkspaceFiles(folder, MAX_FILES);
    const live = new Set<string>();
    for (const file of files) {
      const uri = pathToFileURL(file).href;
      live.add(file);
      if (seen.has(uri) || workspaceFileKind(file) !== "plan") continue;
      const symbols = this.symbolsOf(file, uri, folder, maxBytes);
      if (symbols) add(uri, file, symbols);
      if (results.length >= MAX_RESULTS) break;
    }
    for (const file of this.cache.keys()) if (!live.has(file)) this.cache.delete(file);
    return results;
  }

  private symbolsOf(
    file: string,
    uri: string,
    folder: string,
    maxBytes: number,
  ): readonly DocumentSymbol[] | undefined {
    let stamp: string;
    let size: number;
    try {
      const stat = statSync(file);
      size = stat.size;
      stamp = `${stat.size}:${stat.mtimeMs}:${maxBytes}`;
    } catch {
      return undefined;
    }
    const cached = this.cache.get(file);
    if (cached?.stamp === stamp) return cached.symbols;
    if (size > Math.min(maxBytes, MAX_DISK_BYTES)) {
      const name = relative(folder, file);
      this.warn(
        size > maxBytes
          ? notIndexedMessage(name, size, maxBytes)
          : `${name} is ${sizeText(size)}, over the ${sizeText(MAX_DISK_BYTES)} workspace symbols read from a plan that is not open: open it to list its steps.`,
      );
      this.cache.set(file, { stamp, symbols: undefined });
      return undefined;
    }
    let text: string;
    try {
      // Bounded and never blocking: a FIFO named like a plan would hang the server (stat said its
      // size is 0), and a file grown since the stat is refused at the limit.
      text = readTextFileSync(file, Math.min(maxBytes, MAX_DISK_BYTES));
    } catch {
      this.cache.set(file, { stamp, symbols: undefined });
      return undefined;
    }
    const document = TextDocument.create(uri, "rlm-plan", 0, text);
    const symbols = documentSymbols({ document, tree: parseJsoncDocument(text).tree() });
    this.cache.set(file, { stamp, symbols });
    return symbols;
  }
}

/** A file as its symbols name it: relative to the workspace folder when inside it, else whole. */
function shownPath(folder: string | undefined, file: string): string {
  if (folder === undefined || !isAbsolute(file)) return file;
  const inside = relative(folder, file);
  return inside.startsWith("..") || isAbsolute(inside) ? file : inside;
}

/**
 * One symbol per binding (named by the binding, in the step's icon) and one per tool call (named
 * by the tool), each in "op detail · file" so a list of names from many plans reads clearly.
 */
function flatten(uri: string, file: string, symbols: readonly DocumentSymbol[]): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  const visit = (symbol: DocumentSymbol) => {
    const [op, bind] = symbol.name.split(" → ");
    const where = `${op}${symbol.detail ? ` ${symbol.detail}` : ""} · ${file}`;
    const location = { uri, range: symbol.selectionRange };
    if (bind !== undefined) out.push({ name: bind, kind: symbol.kind, location, containerName: where });
    if (op === "tool" && symbol.detail)
      out.push({
        name: symbol.detail,
        kind: SymbolKind.Function,
        location: { uri, range: symbol.range },
        containerName: `tool · ${file}`,
      });
    for (const child of symbol.children ?? []) visit(child);
  };
  for (const symbol of symbols) visit(symbol);
  return out;
}

/** An open document's file path (named relative to the folder like the files on disk), else its URI. */
function pathOf(uri: string): string {
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/** VS Code's own rule for workspace symbol queries: the query's characters in order, any case. */
function matcher(query: string): (name: string) => boolean {
  const wanted = query.toLowerCase();
  return (name) => {
    const lower = name.toLowerCase();
    let at = 0;
    for (const char of wanted) {
      at = lower.indexOf(char, at);
      if (at < 0) return false;
      at++;
    }
    return true;
  };
}
