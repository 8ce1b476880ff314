// Where an offset of a text is, as line and character: a leaf the analysis, the host profile's
// reader and the debugger share (it lived in analysis.ts, which tied the profile to the analysis).

/** 0-based line and character of an offset, counting UTF-16 units as LSP does. */
export function lineColumn(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}
