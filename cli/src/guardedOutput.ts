// Text from a plan, a profile, a file name or a model, made fit for the CLI's output: escaped into
// one line where a command puts it (lineText, shownFile), and stripped of what could drive a
// terminal (escape sequences, OSC 52 clipboard writes, cursor moves) by the output sink (sink.ts),
// which every command prints through.

/** Our own color sequences (output.ts): the only escapes allowed through. */
// eslint-disable-next-line no-control-regex
const OWN_STYLE = /^\u001b\[(?:1|22|31|32|33|36|39)m/;

/**
 * C0 controls but tab and newline, DEL, the C1 controls (U+0080-U+009F, CSI among them), and the
 * bidirectional controls that make a terminal show text in another order than it is (Trojan Source).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** What cannot stay inside one line of output: every control, line breaks included, and bidi controls. */
// eslint-disable-next-line no-control-regex
const NOT_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from a plan, a profile, a file name or a model, made fit for one line of output: line
 * breaks, controls and bidi controls written as escapes (`\n`, `\u001b`), so a name cannot start
 * a line of its own (a CI log runs `::error ...::` lines as workflow commands) or drive a terminal.
 */
export function lineText(text: string): string {
  NOT_IN_A_LINE.lastIndex = 0;
  if (!NOT_IN_A_LINE.test(text)) return text;
  return text.replace(NOT_IN_A_LINE, (char) => {
    if (char === "\n") return "\\n";
    if (char === "\r") return "\\r";
    if (char === "\t") return "\\t";
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** A file name as one line shows it; `./` before a name that would start a line with `::`. */
export function shownFile(file: string): string {
  const shown = lineText(file);
  return shown.startsWith("::") ? `./${shown}` : shown;
}

/**
 * The text without control characters, newline and tab kept, and our own style codes kept when
 * the stream has any (text from plans and models reaches a styled stream only through lineText
 * or JSON, which escape ESC, so a raw ESC there is ours).
 */
export function terminalText(text: string, keepStyles = true): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  CONTROL.lastIndex = 0;
  return text.replace(CONTROL, (char, offset: number) =>
    keepStyles && char === "\u001b" && OWN_STYLE.test(text.slice(offset, offset + 5)) ? char : "",
  );
}

/** Markdown's own characters in `text` (a plan's names, values, messages), written so they render as text. */
const MARKDOWN_ENTITY: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "|": "&#124;",
  // No @mention of a person and no #123 link to an issue from a plan's text.
  "@": "&#64;",
};

/**
 * Text from a plan, a profile or a model made fit for one Markdown table cell or line
 * (`runs diff --format github`): one line (lineText); what Markdown would read as emphasis, code,
 * a link, an image, math ($) or an emoji or link (:) backslash-escaped; what an escape cannot hold
 * (HTML, a table's bar, a mention) as an entity. Lines never start with such text: no block forms.
 */
export function markdownText(text: string): string {
  return lineText(text).replace(/[&<>|@]|[\\`*_[\]#!~:$]/g, (c) => MARKDOWN_ENTITY[c] ?? `\\${c}`);
}
