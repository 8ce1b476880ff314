// Text written into XML (the graph's SVG, `rlm-plan test`'s JUnit report): markup characters
// escaped, and what XML 1.0 cannot hold at all replaced, so any name a plan carries stays well-formed.

/**
 * Characters XML 1.0 cannot hold at all (C0 controls but tab, newline and return; lone
 * surrogates; U+FFFE and U+FFFF), even as references.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these control characters are what it finds
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Character data: `&`, `<` and `>` escaped; a character XML cannot hold becomes `unholdable` (U+FFFD unless given). */
export function xmlText(value: string, unholdable = "\uFFFD"): string {
  return value.replace(NOT_XML, unholdable).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** An attribute value: quotes escaped, and tab, newline and return as references, which XML would otherwise read as spaces. */
export function xmlAttribute(value: string, unholdable = "\uFFFD"): string {
  return xmlText(value, unholdable)
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#9;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;");
}
