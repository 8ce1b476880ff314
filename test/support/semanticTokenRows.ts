// Semantic tokens as a test reads them: the protocol's relative encoding back to absolute rows,
// each with its source text and its type and modifiers named by the legend.

import type { SemanticTokensLegend } from "vscode-languageserver-protocol";

export type Row = readonly [line: number, character: number, text: string, type: string, ...modifiers: string[]];

/** The relative encoding back to absolute rows, each with its text and named type and modifiers. */
export function decode(data: readonly number[], legend: SemanticTokensLegend, text: string): Row[] {
  const lines = text.split("\n");
  const rows: Row[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [dLine, dChar, length, type, bits] = data.slice(i, i + 5) as [number, number, number, number, number];
    line += dLine;
    character = dLine === 0 ? character + dChar : dChar;
    const modifiers = legend.tokenModifiers.filter((_, bit) => (bits & (1 << bit)) !== 0);
    const source = (lines[line] ?? "").slice(character, character + length);
    rows.push([line, character, source, legend.tokenTypes[type] ?? `?${type}`, ...modifiers]);
  }
  return rows;
}
