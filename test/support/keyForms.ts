// Every form of one provider key that a careless or hostile provider, plan or tool may print: split,
// spaced, cased, encoded, reversed. The mask's table test and its CLI test share the table, so
// both prove the same forms masked.

/** The sentinel key of the forms (a fixed one: the forms are a golden table). */
export const SENTINEL_KEY = "sk-SENTINEL-abc123XYZ789qq";

export interface KeyForm {
  readonly name: string;
  readonly text: string;
  /** What the mask leaves of `before TEXT after` (base64 keeps the characters its neighbours share). */
  readonly masked: string;
}

const fullWidth = (text: string) =>
  [...text].map((c) => (/[A-Za-z0-9]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join("");
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

export function keyForms(key = SENTINEL_KEY): KeyForm[] {
  const plain = (name: string, text: string): KeyForm => ({ name, text, masked: "before *** after" });
  const random = key.slice(key.lastIndexOf("-") + 1);
  return [
    plain("the key", key),
    plain("without its prefix sk-", key.slice(3)),
    plain("its random part alone", random),
    plain("uppercased", key.toUpperCase()),
    plain("spaced around its dashes", key.replace(/-/g, " - ")),
    plain("split by a newline", `${key.slice(0, 8)}\n${key.slice(8)}`),
    plain("split by CR/LF", `${key.slice(0, 15)}\r\n${key.slice(15)}`),
    plain("punctuation between letters", [...key].join(".")),
    plain("spaces between letters", [...key].join(" ")),
    plain("tabs between letters", [...key].join("\t")),
    plain("NBSP between letters", [...key].join("\u00a0")),
    plain("zero-width spaces between letters", [...key].join("\u200b")),
    plain("a colour code inside", `${key.slice(0, 7)}\u001b[31m${key.slice(7)}`),
    plain("a colour code inside, escaped as JSON writes it", `${key.slice(0, 7)}\\u001b[31m${key.slice(7)}`),
    plain("percent-encoded in full", [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase()}`).join("")),
    plain("JSON unicode escapes", [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")),
    plain("full-width letters", fullWidth(key)),
    plain("HTML decimal entities", [...key].map((c) => `&#${c.charCodeAt(0)};`).join("")),
    plain("HTML hex entities", [...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join("")),
    plain("reversed", [...key].reverse().join("")),
    plain("hex", Buffer.from(key).toString("hex")),
    plain(
      "Cyrillic look-alike letters",
      key.replace(/S/g, "Ѕ").replace(/a/g, "а").replace(/c/g, "с").replace(/X/g, "Х"),
    ),
    plain("Greek look-alike letters", key.replace(/E/g, "Ε").replace(/T/g, "Τ").replace(/N/g, "Ν").replace(/Z/g, "Ζ")),
    {
      name: "spread over three fields of a JSON object, as printed",
      text: JSON.stringify({ p1: key.slice(0, 8), p2: key.slice(8, 16), p3: key.slice(16) }, null, 2),
      masked: 'before {\n  "p1": "***"\n} after',
    },
    {
      name: "four pieces in a JSON list, as printed",
      text: JSON.stringify({ v: [key.slice(0, 7), key.slice(7, 15), key.slice(15, 21), key.slice(21)] }, null, 2),
      masked: 'before {\n  "v": [\n    "***"\n  ]\n} after',
    },
    { name: "base64", text: base64(key), masked: "before ***E= after" },
    { name: "base64 at offset 1", text: base64(`x${key}`), masked: "before eH*** after" },
    { name: "base64 at offset 2", text: base64(`xy${key}`), masked: "before eHl***Q== after" },
    {
      name: "base64url at offset 2",
      text: Buffer.from(`zz${key}`).toString("base64url"),
      masked: "before enp***Q after",
    },
  ];
}
