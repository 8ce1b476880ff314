// Code points [start, start + count) of a file-backed text: from the index entry at or before
// `start`, decode forward until the range is complete, reading at most one stride plus the range.

import { StringDecoder } from "node:string_decoder";
import { ChunkStream } from "./chunkStream";
import { advanceCodePoints, codePointCount, hasSurrogates } from "../codePoints";
import type { FileScan } from "./fileIndex";
import type { FileSession } from "./fileSession";

export async function fileChars(
  session: FileSession,
  scan: FileScan,
  chunkBytes: number,
  start: number,
  count: number,
): Promise<string> {
  const from = Math.max(0, Math.min(start, scan.chars));
  const to = Math.max(from, Math.min(from + count, scan.chars));
  if (to === from) return "";
  const index = scan.index;
  const first = index.atChar(from);
  // Entries are where decoding restarts, so the range ends before the first entry past `to`.
  const after = index.atChar(to - 1) + 1;
  const end = after < index.size ? (index.bytes[after] as number) : scan.size;
  const stream = new ChunkStream(session, index.bytes[first] as number, end, chunkBytes, 0, false);
  const decoder = new StringDecoder("utf8");
  let position = index.chars[first] as number;
  let out = "";
  for (;;) {
    const window = await stream.next();
    const text = window === undefined ? decoder.end() : decoder.write(window.bytes);
    const plain = !hasSurrogates(text);
    const length = plain ? text.length : codePointCount(text);
    if (position + length > from) {
      const begin = advanceCodePoints(text, 0, Math.max(0, from - position), plain);
      const taken = Math.min(position + length, to) - Math.max(position, from);
      out += text.slice(begin, advanceCodePoints(text, begin, taken, plain));
    }
    position += length;
    if (position >= to || window === undefined) return out;
  }
}
