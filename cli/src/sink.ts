// The CLI's one output sink: every string a command prints, to stdout or stderr, in every format,
// goes through here, so no command can forget a guard. Three guards, in order:
// - the secret mask (a key split between two writes still masked): built from the environment
//   when the sink opens, and every plan session a command opens adds its host profile's keys to it
//   (sessionFor and the commands' sessions take `sink.mask`);
// - control characters stripped (guardedOutput.ts' terminalText: no escape sequence, OSC 52
//   write or bidi control from a plan, a profile or a model reaches a terminal);
// - no line starts with `::`, leading whitespace or not (GitHub's runner trims it and then runs
//   `::name ...::` lines as workflow commands): the first colon of such a line is written as an
//   escape of the line's format, `\u003a` in text and JSON (where it decodes to the same value),
//   `&#58;` in XML. Our own annotations are written with `workflowCommand`, the one way a line may
//   start with `::`.
// Values are escaped into one line where they are put into text (guardedOutput.ts' lineText);
// the line guard is what still holds when one is missed.

import { sessionMask, type SecretMask } from "@rlm-plan/core/secrets";
import { terminalText } from "./guardedOutput";

/** A descriptor's writer: directOutput.ts, a Node stream, or a test's collector. */
export interface SinkStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** One of the sink's two streams. */
export interface SinkWriter {
  /** Text (a line, a table, pretty JSON): masked, stripped, no line starting with `::`. */
  write(text: string): true;
  /** JSON text: as `write`, and what JSON.stringify leaves raw but a terminal acts on (C1 and bidi controls) written as `\u` escapes, so the value is kept. */
  json(text: string): void;
  /** An XML document (JUnit): as `write`, a line-leading colon written `&#58;`. */
  xml(text: string): void;
  /** A GitHub workflow command we print (`::error file=...::message`), built with `commandData` and `commandProperty`. */
  workflowCommand(line: string): void;
  readonly isTTY?: boolean;
}

export interface OutputSink {
  readonly stdout: SinkWriter;
  readonly stderr: SinkWriter;
  /** The mask every write passes through; sessions add their profiles' keys to it. */
  readonly mask: SecretMask;
  /** Writes what the mask still holds back: call once the command's output is complete. */
  end(): void;
}

export interface SinkOptions {
  /** Where secret-named variables are read from (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Whether our own colour codes may pass (default both): stdout of `run` and `propose` holds values only. */
  readonly styles?: { readonly stdout: boolean; readonly stderr: boolean };
}

export function openSink(
  streams: { readonly stdout: SinkStream; readonly stderr: SinkStream },
  options: SinkOptions = {},
): OutputSink {
  const mask = sessionMask({ env: options.env ?? process.env });
  const stdout = sinkWriter(streams.stdout, mask, options.styles?.stdout ?? true);
  const stderr = sinkWriter(streams.stderr, mask, options.styles?.stderr ?? true);
  return {
    stdout,
    stderr,
    mask,
    end() {
      stdout.flush();
      stderr.flush();
    },
  };
}

/** What replaces the first colon of a line that would start with `::`, per format. */
const LINE_COLON = { text: "\\u003a", xml: "&#58;" } as const;
type Encoding = keyof typeof LINE_COLON;

/** C1 and bidi controls (and U+2028/2029, which end a line in JavaScript): JSON.stringify writes them raw. */
const JSON_RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function sinkWriter(stream: SinkStream, mask: SecretMask, keepStyles: boolean): SinkWriter & { flush(): void } {
  const masked = mask.stream();
  // Whether what follows starts a line: nothing but whitespace since the last line break.
  let lineStart = true;
  const put = (text: string, encoding: Encoding) => {
    if (text === "") return;
    let shown = guardLineStarts(terminalText(text, keepStyles), lineStart, LINE_COLON[encoding]);
    const lastBreak = shown.lastIndexOf("\n");
    const tail = shown.slice(lastBreak + 1);
    const tailStartsLine = lastBreak >= 0 || lineStart;
    // A line's first colon at the end of a write: the next write may begin with the second.
    if (tailStartsLine && /^\s*:$/.test(tail)) shown = shown.slice(0, -1) + LINE_COLON[encoding];
    lineStart = tailStartsLine && /^\s*$/.test(tail);
    stream.write(shown);
  };
  return {
    write(text) {
      put(masked.write(text), "text");
      return true;
    },
    json(text) {
      put(masked.write(text.replace(JSON_RAW, unicodeEscape)), "text");
    },
    xml(text) {
      put(masked.write(text), "xml");
    },
    workflowCommand(line) {
      put(masked.end(), "text");
      // One line whatever it was given: a break inside would start a line of someone else's.
      const one = terminalText(mask.mask(line), false).replace(/\r/g, "%0D").replace(/\n/g, "%0A");
      stream.write(lineStart ? `${one}\n` : `\n${one}\n`);
      lineStart = true;
    },
    flush() {
      put(masked.end(), "text");
    },
    get isTTY() {
      return stream.isTTY;
    },
  };
}

/** `text` with the first colon of every line that starts with `::` (after whitespace) replaced. */
function guardLineStarts(text: string, atLineStart: boolean, colon: string): string {
  if (!text.includes("::")) return text;
  const guarded = text.replace(/(\n\s*)::/g, `$1${colon}:`);
  return atLineStart ? guarded.replace(/^(\s*)::/, `$1${colon}:`) : guarded;
}

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** The escaping GitHub's runner undoes in a workflow command's message. */
export function commandData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** The escaping of a workflow command's property value: also `:` and `,`, which separate properties. */
export function commandProperty(text: string): string {
  return commandData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
