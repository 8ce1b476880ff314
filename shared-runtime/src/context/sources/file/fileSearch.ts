// search over a file-backed text at the speed of the disk: the pattern's UTF-8 bytes are looked
// for in the raw chunks (Buffer#indexOf), and only around a hit are line boundaries and the line
// number worked out (from the sparse index and the last known line start). Chunks overlap by
// the pattern's length minus one byte, so a match across a chunk boundary is found.
//
// For valid UTF-8 this finds exactly the lines whose decoded text contains the pattern (UTF-8 is
// self-synchronizing). With invalid bytes it still does, unless the pattern contains U+FFFD
// (which then also stands for invalid bytes); the reader takes the line-by-line path for that,
// as for patterns with a lone surrogate, which only match inside UTF-16 pairs.

import { StringDecoder } from "node:string_decoder";
import { ChunkStream, type Window } from "./chunkStream";
import { countNewlines } from "./byteCounts";
import type { FileScan } from "./fileIndex";
import type { FileSession } from "./fileSession";
import type { LineMatch } from "../textSource";

const NEWLINE = 0x0a;

/** Newlines in [from, to) of the file, using the current window for what it holds. */
async function newlinesBetween(session: FileSession, window: Window, from: number, to: number): Promise<number> {
  const inside = Math.max(from, window.base);
  let count = 0;
  if (from < inside) {
    const before = Math.min(inside, to);
    count += countNewlines(await session.bytes(from, before), 0, before - from);
  }
  if (inside < to) count += countNewlines(window.bytes, inside - window.base, to - window.base);
  return count;
}

/** Bytes [start, end) of the file, from the window when it holds them. */
async function bytesOf(session: FileSession, window: Window, start: number, end: number): Promise<Buffer> {
  if (start >= window.base && end <= window.base + window.bytes.length) {
    return window.bytes.subarray(start - window.base, end - window.base);
  }
  return session.bytes(start, end);
}

/** The line [start, end), or for a line of more than capBytes bytes a prefix of more than capBytes bytes. */
async function lineText(
  session: FileSession,
  window: Window,
  start: number,
  end: number,
  capBytes: number,
): Promise<string> {
  // Decoding never shrinks bytes, and the decoder holds back at most three of them.
  if (end - start <= capBytes + 4) return (await bytesOf(session, window, start, end)).toString("utf8");
  return new StringDecoder("utf8").write(await bytesOf(session, window, start, start + capBytes + 4));
}

export async function* searchBytes(
  session: FileSession,
  scan: FileScan,
  chunkBytes: number,
  pattern: Buffer,
  capBytes: number,
): AsyncGenerator<LineMatch, void, undefined> {
  const length = pattern.length;
  const size = scan.size;
  const index = scan.index;
  const stream = new ChunkStream(session, 0, size, Math.max(chunkBytes, length), length - 1);
  // Lines before `known` (a line start), the start of the line holding `from`, where to look next.
  let known = { byte: 0, lines: 0 };
  let lineStart = 0;
  let from = 0;
  for (let window = await stream.next(); window !== undefined;) {
    const { base, bytes } = window;
    const hit = from - base < bytes.length ? bytes.indexOf(pattern, from - base) : -1;
    if (hit < 0) {
      const newline = bytes.lastIndexOf(NEWLINE);
      if (newline >= 0) lineStart = Math.max(lineStart, base + newline + 1);
      const keep = Math.min(length - 1, bytes.length);
      from = Math.max(from, base + bytes.length - keep);
      window = await stream.next(keep);
      continue;
    }
    const before = hit > 0 ? bytes.lastIndexOf(NEWLINE, hit - 1) : -1;
    const start = before >= 0 ? Math.max(lineStart, base + before + 1) : lineStart;
    const entry = index.atByte(start);
    const anchor =
      (index.bytes[entry] as number) > known.byte
        ? { byte: index.bytes[entry] as number, lines: index.lines[entry] as number }
        : known;
    const lineNumber = anchor.lines + (await newlinesBetween(session, window, anchor.byte, start));
    // Find the end of the matching line, reading on if it goes past this window.
    let end = size;
    const after = bytes.indexOf(NEWLINE, hit + length);
    if (after >= 0) end = base + after;
    else {
      for (window = await stream.next(); window !== undefined; window = await stream.next()) {
        const newline = window.bytes.indexOf(NEWLINE);
        if (newline >= 0) {
          end = window.base + newline;
          break;
        }
      }
    }
    const last = end >= size;
    const text = await lineText(session, window ?? { base: 0, bytes: Buffer.alloc(0) }, start, end, capBytes);
    yield { index: lineNumber, text, last };
    if (last || window === undefined) return;
    known = { byte: end + 1, lines: lineNumber + 1 };
    lineStart = from = end + 1;
  }
}
