// The CLI's output boundary: everything `run` and `propose` write goes through here, so secrets
// are masked (run/secrets.ts) and text a model or a plan controls cannot drive the terminal
// (escape sequences, OSC 52 clipboard writes, cursor moves) whichever line it ends up in.

import { SecretMask } from "@rlm-plan/core/run/secrets";

/** Our own color sequences (output.ts): the only escapes allowed through. */
// eslint-disable-next-line no-control-regex
const OWN_STYLE = /^\u001b\[(?:1|22|31|32|33|36|39)m/;

/** C0 controls but tab and newline, DEL, and the C1 controls (U+0080-U+009F, CSI among them). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The text without control characters, newline and tab kept, and our own style codes kept. */
export function terminalText(text: string): string {
  if (!CONTROL.test(text)) return text;
  CONTROL.lastIndex = 0;
  return text.replace(CONTROL, (char, offset: number) =>
    char === "\u001b" && OWN_STYLE.test(text.slice(offset, offset + 5)) ? char : "",
  );
}

/** Masks secrets, then strips control characters: what any line the CLI prints goes through. */
export function guardText(mask: SecretMask, text: string): string {
  return terminalText(mask.mask(text));
}

/** A stream whose writes are masked (across writes: a key split between two is still masked), then stripped. */
export interface GuardedStream {
  write(text: string): unknown;
  /** Writes what the mask still holds back: call once the command's output is complete. */
  end(): void;
  readonly isTTY?: boolean;
}

export function guardedStream<S extends { write(text: string): unknown; readonly isTTY?: boolean }>(
  stream: S,
  mask: SecretMask,
): GuardedStream {
  const masked = mask.stream();
  const put = (text: string) => (text === "" ? true : stream.write(terminalText(text)));
  return { write: (text: string) => put(masked.write(text)), end: () => void put(masked.end()), isTTY: stream.isTTY };
}
