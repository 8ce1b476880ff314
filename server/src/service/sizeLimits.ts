// What the editor does with a big plan, and what it tells the user. Two limits, both settings:
// past `maxAnalyzedSize` a plan is not analysed at all (its analysis alone takes seconds and its
// source tree gigabytes: 3.6 s of CPU and 2.3 GB for 21 MB), so it gets one diagnostic saying so
// and every feature answers empty; past `largePlanSize` it is analysed, but whole-document
// semantic tokens are refused (the client then asks for the visible range, computed for the steps
// it spans). bench/big-documents.bench.ts measures both sides of each limit.

import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver-protocol";

/** Defaults of the two settings, in bytes of UTF-8. */
export const DEFAULT_MAX_ANALYZED_SIZE = 8_000_000;
export const DEFAULT_LARGE_PLAN_SIZE = 2_000_000;

/** The code of the one diagnostic a plan too big to analyse gets. */
export const NOT_ANALYZED_CODE = "plan_too_large";

/** A size for people: "20.9 MB", "1.5 KB", "900 bytes" (decimal units, as the settings are). */
export function sizeText(bytes: number): string {
  const [unit, scale] = bytes >= 1e6 ? ["MB", 1e6] : bytes >= 1e3 ? ["KB", 1e3] : ["bytes", 1];
  if (scale === 1) return `${bytes} bytes`;
  const value = bytes / scale;
  return `${Number.isInteger(value) ? value : Number(value.toFixed(1))} ${unit}`;
}

/** The last segment of a document URI, for messages. */
function fileName(uri: string): string {
  const path = uri.split(/[?#]/)[0] ?? uri;
  return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1));
}

/** The start of every refusal: the file, its size, the limit and the setting. */
function overLimit(name: string, bytes: number, limit: number): string {
  return `${name} is ${sizeText(bytes)}, over the ${sizeText(limit)} the editor analyses (setting rlmPlan.maxAnalyzedSize)`;
}

/** Why a plan was not analysed: the diagnostic's text and the message shown once. */
export function notAnalyzedMessage(uri: string, bytes: number, limit: number): string {
  return (
    `${overLimit(fileName(uri), bytes, limit)}: no diagnostics, hover, completion, outline or highlighting ` +
    `for it. Run "rlm-plan check" on it instead.`
  );
}

/** Why the graph view has no graph of a plan (the graph request's error). */
export function notGraphedMessage(uri: string, bytes: number, limit: number): string {
  return `${overLimit(fileName(uri), bytes, limit)}: no graph of it here. Run "rlm-plan graph" on it instead.`;
}

/** Why a plan on disk is left out of workspace symbols (logged once per version of the file). */
export function notIndexedMessage(file: string, bytes: number, limit: number): string {
  return `${overLimit(file, bytes, limit)}: its steps are left out of workspace symbols.`;
}

/** The one diagnostic of a plan too big to analyse, on its first character. */
export function notAnalyzedDiagnostic(uri: string, bytes: number, limit: number): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    severity: DiagnosticSeverity.Warning,
    source: "rlm-plan",
    code: NOT_ANALYZED_CODE,
    message: notAnalyzedMessage(uri, bytes, limit),
  };
}

/** Why a whole document's semantic tokens were refused (logged once per document). */
export function rangeTokensOnlyMessage(uri: string, bytes: number, limit: number): string {
  return (
    `${fileName(uri)} is ${sizeText(bytes)}, over the ${sizeText(limit)} of rlmPlan.largePlanSize: ` +
    `its semantic tokens are given for the visible range only, not the whole document.`
  );
}
