// Where known secrets are in a text, in one linear pass: each secret becomes forms (its letters and
// digits as secretText.ts reads them, reversed, its base64 at each of the 3 byte offsets, its hex),
// and any run of WINDOW letters of a form (all of it, for a shorter form) found in the text's
// skeleton marks a match, extended as far as the form goes on both sides. So a key's distinctive
// part (after `sk-`, its random part alone) is found as well as the whole key, however it is split,
// cased or encoded. Windows are found by a rolling hash and confirmed letter by letter.

import { foldedCodes, MAX_GAP, readSkeleton, type SkeletonSink } from "./secretText";

/** Letters and digits of a form that identify it: a run this long of a key is the key's. */
export const WINDOW = 12;
/** A stream holds back a trailing run of at least this many letters that could begin a key. */
const MIN_HOLD = 3;
/** How far back (in letters) a match may extend before the window that found it. */
const RING = 256;
const BASE = 0x01000193;
/** A bit per hash slot: most windows of a text are no key's, and a bit says so faster than a Map. */
const FILTER_BITS = 1 << 20;

interface Candidate {
  readonly form: Uint8Array;
  readonly offset: number;
}

/** A match in progress: a form, the next letter it expects and where its match began. */
interface Active {
  readonly form: Uint8Array;
  next: number;
}

/** The ranges to mask, and (for a stream) where the text must be held back until more comes. */
export interface Scan {
  readonly ranges: [number, number][];
  /** The index from which the text may still be part of a key the next chunk completes. */
  readonly holdFrom: number;
}

/** The forms of a set of secrets and the scan over a text. */
export class SecretMatcher {
  private readonly forms: Uint8Array[] = [];
  private readonly windows = new Map<number, Map<number, Candidate[]>>();
  private readonly formText: string[] = [];
  private readonly filter = new Uint8Array(FILTER_BITS >> 3);

  constructor(secrets: Iterable<string>, minChars: number) {
    const seen = new Set<string>();
    for (const secret of secrets) {
      for (const codes of formsOf(secret)) {
        if (codes.length < minChars) continue;
        const key = String.fromCharCode(...codes);
        if (seen.has(key)) continue;
        seen.add(key);
        this.addForm(Uint8Array.from(codes), key);
      }
    }
  }

  private addForm(form: Uint8Array, text: string): void {
    this.forms.push(form);
    this.formText.push(text);
    const width = Math.min(WINDOW, form.length);
    let byWidth = this.windows.get(width);
    if (byWidth === undefined) this.windows.set(width, (byWidth = new Map()));
    for (let offset = 0; offset + width <= form.length; offset++) {
      const hash = hashOf(form, offset, width);
      const slot = hash & (FILTER_BITS - 1);
      this.filter[slot >> 3]! |= 1 << (slot & 7);
      const list = byWidth.get(hash);
      if (list === undefined) byWidth.set(hash, [{ form, offset }]);
      else list.push({ form, offset });
    }
  }

  /** Every range of `text` that holds a form of a secret; `stream` also says what to hold back. */
  scan(text: string, stream: boolean): Scan {
    const state = new ScanState(this.windows, this.filter);
    const open = readSkeleton(text, state);
    let holdFrom = text.length;
    if (stream) {
      holdFrom = state.holdFrom(this.formText, text.length);
      if (open >= 0 && open < holdFrom) holdFrom = open;
      // A range that runs past the hold is held back whole.
      for (const [start, end] of state.ranges) if (end > holdFrom && start < holdFrom) holdFrom = start;
    }
    state.close();
    const ranges = stream ? state.ranges.filter(([, end]) => end <= holdFrom) : state.ranges;
    return { ranges, holdFrom };
  }
}

/** One scan's letters so far (a ring of the last RING), rolling hashes and matches in progress. */
class ScanState implements SkeletonSink {
  readonly ranges: [number, number][] = [];
  private readonly widths: Int32Array;
  private readonly powers: Int32Array;
  private readonly tables: Map<number, Candidate[]>[];
  private readonly hashes: Int32Array;
  private readonly maxWidth: number;
  private readonly codes = new Uint8Array(RING);
  private readonly starts = new Int32Array(RING);
  /** Letters since the last break. */
  private count = 0;
  private trailingGap = 0;
  private active: Active[] = [];
  private matchStart = -1;
  private matchEnd = -1;

  constructor(
    windows: ReadonlyMap<number, Map<number, Candidate[]>>,
    private readonly filter: Uint8Array,
  ) {
    this.widths = Int32Array.from(windows.keys());
    this.powers = this.widths.map(power);
    this.tables = [...this.widths].map((width) => windows.get(width)!);
    this.hashes = new Int32Array(this.widths.length);
    this.maxWidth = Math.max(0, ...this.widths);
  }

  gap(units: number): void {
    this.trailingGap += units;
    if (this.trailingGap > MAX_GAP && this.count > 0) this.reset();
  }

  broken(): void {
    this.trailingGap = MAX_GAP + 1;
    this.reset();
  }

  code(code: number, start: number, end: number): void {
    this.trailingGap = 0;
    const codes = this.codes;
    codes[this.count & (RING - 1)] = code;
    this.starts[this.count & (RING - 1)] = start;
    const count = ++this.count;
    // Matches in progress take the letter or end.
    if (this.active.length > 0) {
      this.active = this.active.filter((a) => a.next < a.form.length && a.form[a.next] === code);
      for (const a of this.active) a.next++;
      if (this.active.length > 0) this.matchEnd = end;
    }
    const widths = this.widths;
    for (let w = 0; w < widths.length; w++) {
      const width = widths[w]!;
      const outgoing = count > width ? codes[(count - 1 - width) & (RING - 1)]! : 0;
      const hash = (Math.imul(this.hashes[w]!, BASE) + code - Math.imul(outgoing, this.powers[w]!)) | 0;
      this.hashes[w] = hash;
      if (count < width) continue;
      const bit = hash & (FILTER_BITS - 1);
      if ((this.filter[bit >> 3]! & (1 << (bit & 7))) === 0) continue;
      const candidates = this.tables[w]!.get(hash);
      if (candidates !== undefined) this.found(candidates, width, end);
    }
    if (this.active.length === 0 && this.matchStart >= 0) this.close();
  }

  /** Windows whose hash is a form's: confirmed letter by letter, then extended back. */
  private found(candidates: readonly Candidate[], width: number, end: number): void {
    const { codes, count } = this;
    for (const { form, offset } of candidates) {
      let same = true;
      for (let k = 0; k < width && same; k++) same = codes[(count - width + k) & (RING - 1)] === form[offset + k];
      if (!same) continue;
      if (this.active.some((a) => a.form === form && a.next === offset + width)) continue;
      let back = 0;
      const limit = Math.min(count - width, RING - width, offset);
      while (back < limit && codes[(count - 1 - width - back) & (RING - 1)] === form[offset - 1 - back]) back++;
      const first = this.starts[(count - width - back) & (RING - 1)]!;
      if (this.matchStart < 0 || first < this.matchStart) this.matchStart = first;
      this.matchEnd = end;
      this.active.push({ form, next: offset + width });
    }
  }

  close(): void {
    if (this.matchStart >= 0) this.ranges.push([this.matchStart, this.matchEnd]);
    this.matchStart = -1;
    this.active = [];
  }

  private reset(): void {
    this.close();
    this.count = 0;
    this.hashes.fill(0);
  }

  /** Where a stream must hold back: a match still open, or a tail that could begin a form. */
  holdFrom(forms: readonly string[], length: number): number {
    if (this.matchStart >= 0) return this.matchStart;
    if (this.trailingGap > MAX_GAP || this.count < MIN_HOLD) return length;
    const tail = Math.min(this.count, this.maxWidth - 1, RING);
    for (let t = tail; t >= MIN_HOLD; t--) {
      let letters = "";
      for (let k = this.count - t; k < this.count; k++) letters += String.fromCharCode(this.codes[k & (RING - 1)]!);
      if (forms.some((form) => form.includes(letters))) return this.starts[(this.count - t) & (RING - 1)]!;
    }
    return length;
  }
}

function hashOf(form: Uint8Array, offset: number, width: number): number {
  let hash = 0;
  for (let k = 0; k < width; k++) hash = (Math.imul(hash, BASE) + form[offset + k]!) | 0;
  return hash;
}

function power(width: number): number {
  let p = 1;
  for (let k = 0; k < width; k++) p = Math.imul(p, BASE);
  return p;
}

/** A secret's forms, as letter codes: folded, reversed, base64 at 3 offsets, hex. */
function formsOf(secret: string): number[][] {
  const folded = foldedCodes(secret);
  const bytes = Buffer.from(secret, "utf8");
  const forms = [folded, [...folded].reverse(), asciiCodes(bytes.toString("hex"))];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    // Only the characters made of the secret's bits alone: the rest depend on its neighbours.
    const from = Math.ceil((8 * offset) / 6);
    const to = Math.floor((8 * (offset + bytes.length)) / 6);
    forms.push(foldedCodes(encoded.slice(from, to)));
  }
  return forms;
}

function asciiCodes(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}
