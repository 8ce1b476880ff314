// Read access to a text context by code point and by line. Operations only use these interfaces,
// so a text kept in memory and a text kept in a large file answer them identically.

import { truncateToBytes, type BoundedText } from "./byteBudget";

export { codePointCount } from "./codePoints";

/** What is known about a text without reading it. */
export interface TextMeasures {
  /** UTF-8 bytes of the whole text. */
  readonly byteLength: number;
  /** Length in code points, as SWI-Prolog's string_length counts. */
  readonly charLength: number;
  /** Lines as split_string(Text, "\n", "", Lines) gives them: "" is one line, "a\n" two. */
  readonly lineCount: number;
}

/**
 * A line longer than the cap an operation asked for (in UTF-8 bytes): the operation then only
 * needs to know it is too long for its budget, and for map(length) how many code points it has.
 */
export interface LongLine {
  /** Code points of the whole line, when the reader was asked to count them. */
  readonly charLength: number | undefined;
}

/** A line as an operation sees it: its text when it fits the cap, else a LongLine. */
export type TextLine = string | LongLine;

/** A line containing the search pattern. */
export interface LineMatch {
  /** 0-based line number. */
  readonly index: number;
  /** The whole line, or (for a line longer than the cap) a prefix of it longer than the cap. */
  readonly text: string;
  /** Whether no line follows this one. */
  readonly last: boolean;
}

/** Reads one text during one operation; memory use is bounded by what the caller asks for. */
export interface TextReader extends TextMeasures {
  /** The code points [start, start + count), clamped to the text. */
  chars(start: number, count: number): Promise<string>;
  /** The lines in order; a line of more than `capBytes` UTF-8 bytes comes as a LongLine. */
  lines(capBytes: number, countChars: boolean): AsyncIterator<TextLine>;
  /** The lines containing `pattern` (as String.prototype.includes decides), in order. */
  matches(pattern: string, capBytes: number): AsyncIterable<LineMatch>;
}

/** A registered text. Each operation reads it through one session. */
export interface TextSource extends TextMeasures {
  /**
   * Runs `use` with a reader that is valid until the returned promise settles. A file-backed
   * text opens its file for the session, checks it has not changed, and closes it afterwards;
   * once `signal` aborts, its next read fails, so a scan of a big file ends with the run.
   */
  read<T>(use: (reader: TextReader) => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/**
 * sub_string/5 then truncate_text_bytes/4, reading no more of the text than the budget can
 * return: a code point is at least one byte, so `maxBytes` code points always fill the budget.
 */
export async function boundedChars(
  reader: TextReader,
  start: number,
  count: number,
  maxBytes: number,
): Promise<BoundedText> {
  if (count > maxBytes) {
    const text = await reader.chars(start, Math.max(0, maxBytes));
    return { text: truncateToBytes(text, maxBytes).text, truncated: true };
  }
  return truncateToBytes(await reader.chars(start, count), maxBytes);
}
