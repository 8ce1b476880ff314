// Byte-level facts about UTF-8 that let a file be measured and cut without decoding all of it:
// where decoding may restart, how many lines and code points a run of bytes holds.
//
// Invalid bytes decode as Node's Buffer#toString("utf8") decodes them (the WHATWG rule: each
// maximal invalid subsequence becomes one U+FFFD). That decoder never lets a byte other than a
// continuation byte (0x80-0xBF) be swallowed by a preceding sequence, so decoding can restart at
// such a byte, and a newline byte is always a line break.

import { isUtf8 } from "node:buffer";
import { countBytes } from "./byteCounts";
import { codePointCount } from "../codePoints";

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/**
 * Whether decoding bytes[0, p) and bytes[p, ...) separately gives the same text as decoding the
 * whole: bytes[p] starts a sequence, or the three bytes before it are continuation bytes (no
 * sequence is longer than four, so whatever came before has ended).
 */
export function isSyncPoint(bytes: Uint8Array, p: number): boolean {
  if (p <= 0 || p >= bytes.length) return true;
  if (!isContinuation(bytes[p] as number)) return true;
  if (p < 3) return false;
  return (
    isContinuation(bytes[p - 1] as number) &&
    isContinuation(bytes[p - 2] as number) &&
    isContinuation(bytes[p - 3] as number)
  );
}

/** The first sync point in [from, to], where `to` is known to be one. */
export function syncPointFrom(bytes: Uint8Array, from: number, to: number): number {
  for (let p = Math.max(from, 1); p < to; p++) if (isSyncPoint(bytes, p)) return p;
  return to;
}

/** The last sync point in (0, end), or 0 when there is none (only possible for end < 5). */
export function lastSyncPoint(bytes: Uint8Array, end: number): number {
  for (let p = end - 1; p > 0 && p >= end - 4; p--) if (isSyncPoint(bytes, p)) return p;
  return 0;
}

/** What a run of bytes that starts and ends at sync points contributes to a text. */
export interface ByteRunStats {
  /** UTF-8 bytes of the decoded text (more than the run's bytes where bytes were invalid). */
  readonly textBytes: number;
  readonly chars: number;
  readonly newlines: number;
  readonly valid: boolean;
}

export function byteRunStats(bytes: Buffer, start: number, end: number): ByteRunStats {
  const length = end - start;
  const { newlines, continuations } = countBytes(bytes, start, end);
  const run = bytes.subarray(start, end);
  // In valid UTF-8 every code point has exactly one byte that is not a continuation byte.
  if (isUtf8(run)) return { textBytes: length, chars: length - continuations, newlines, valid: true };
  const text = run.toString("utf8");
  return { textBytes: Buffer.byteLength(text, "utf8"), chars: codePointCount(text), newlines, valid: false };
}
