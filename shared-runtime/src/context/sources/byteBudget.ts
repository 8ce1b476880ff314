// Cutting text to a byte budget exactly as the reference's truncate_text_bytes does.

import { utf8Length } from "../../json";

export interface BoundedText {
  readonly text: string;
  readonly truncated: boolean;
}

function utf8Size(c: number): number {
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  return c < 0x10000 ? 3 : 4;
}

/**
 * The first `maxBytes` UTF-8 bytes of `text`. The reference means to back off to a valid UTF-8
 * prefix, but SWI-Prolog 9.0.4 decodes the cut bytes leniently: each byte of a character cut in
 * the middle becomes the character with that byte's value (cutting "é" after one byte gives
 * "Ã"). We reproduce that, because previews and byte totals must agree with the reference;
 * such a tail costs two bytes per stray byte when it is measured again.
 */
export function truncateToBytes(text: string, maxBytes: number): BoundedText {
  if (maxBytes <= 0) return { text: "", truncated: true };
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return { text, truncated: false };
  let used = 0;
  let end = 0;
  for (;;) {
    const c = text.codePointAt(end) as number;
    const size = utf8Size(c);
    if (used + size > maxBytes) {
      let out = text.slice(0, end);
      const stray = Buffer.from(String.fromCodePoint(c), "utf8").subarray(0, maxBytes - used);
      for (const byte of stray) out += String.fromCharCode(byte);
      return { text: out, truncated: true };
    }
    used += size;
    end += c > 0xffff ? 2 : 1;
  }
}
