// The output boundary's guard: every value known to be secret (provider keys from the environment
// or from the editor's secret storage) is replaced with `***` in whatever is about to be shown,
// stored or sent, the way CI systems mask secrets. A provider or a plan that repeats a key in
// another form is masked too: the match is on the key's letters and digits (case and width folded;
// punctuation, whitespace, line breaks and terminal escapes between them ignored; percent, HTML
// and backslash escapes decoded), on its distinctive parts (any 12 letters of it in a row), and on
// its reversed, base64 and hex forms (secretMatcher.ts). A stream (chunked output) holds back a
// tail that could begin a key until the next write says whether it does.
// This sits on top of the provider's own error filtering, which never puts the key in an error.

import { SecretMatcher } from "./secretMatcher";

export const MASK = "***";

/**
 * Values with fewer letters and digits than this are not masked: masking `abc` everywhere would
 * destroy output and protect nothing a key-shaped secret needs.
 */
export const MIN_SECRET_CHARS = 6;

/** A stream holds back at most this much text; beyond it, what is held is masked and written. */
const MAX_HELD = 64 * 1024;

/** Environment variable names that hold secrets even when no provider names them. */
const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)(?:_|$)/i;

/** A set of secrets and the one function that masks them in text and in JSON-like values. */
export class SecretMask {
  private readonly secrets = new Set<string>();
  private matcher: SecretMatcher | undefined;

  constructor(values: Iterable<string> = []) {
    this.add(values);
  }

  /** Adds secrets; values too short to be a key are ignored (see MIN_SECRET_CHARS). */
  add(values: Iterable<string>): this {
    for (const value of values) {
      if (lettersIn(value) >= MIN_SECRET_CHARS && !this.secrets.has(value)) {
        this.secrets.add(value);
        this.matcher = undefined;
      }
    }
    return this;
  }

  get size(): number {
    return this.secrets.size;
  }

  /** The text with every secret, in any folded, split or encoded form, replaced by `***`. */
  mask(text: string): string {
    if (this.secrets.size === 0 || text.length < MIN_SECRET_CHARS) return text;
    return replaced(text, this.scanner().scan(text, false).ranges);
  }

  /**
   * A masking stream for output written in chunks: `write` returns what may be shown now (a
   * tail that could be the start of a key split across two writes is held back), `end` the rest.
   */
  stream(): MaskedStream {
    let held = "";
    return {
      write: (chunk: string) => {
        if (this.secrets.size === 0) return held === "" ? chunk : ((chunk = held + chunk), (held = ""), chunk);
        const text = held + chunk;
        const { ranges, holdFrom } = this.scanner().scan(text, true);
        const cut = text.length - holdFrom > MAX_HELD ? text.length : holdFrom;
        if (cut === text.length && holdFrom < text.length) {
          held = "";
          return this.mask(text);
        }
        held = text.slice(cut);
        return replaced(text.slice(0, cut), ranges);
      },
      end: () => {
        const rest = held;
        held = "";
        return this.mask(rest);
      },
    };
  }

  /** A copy of a JSON-like value with every string (object keys included) masked. */
  maskValue<T>(value: T): T {
    if (this.secrets.size === 0) return value;
    return this.walk(value, 0) as T;
  }

  private scanner(): SecretMatcher {
    this.matcher ??= new SecretMatcher(this.secrets, MIN_SECRET_CHARS);
    return this.matcher;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.mask(value);
    if (typeof value !== "object" || value === null || depth > 256) return value;
    if (Array.isArray(value)) return value.map((item) => this.walk(item, depth + 1));
    const copy = Object.create(Object.getPrototypeOf(value) === null ? null : Object.prototype) as Record<
      string,
      unknown
    >;
    for (const [key, item] of Object.entries(value)) copy[this.mask(key)] = this.walk(item, depth + 1);
    return copy;
  }
}

/** Output written in chunks, masked across the chunks' boundaries. */
export interface MaskedStream {
  /** What may be written now of everything given so far. */
  write(chunk: string): string;
  /** Everything still held back, masked. */
  end(): string;
}

function lettersIn(value: string): number {
  return value.replace(/[^\p{L}\p{N}]/gu, "").length;
}

/** The text with each range (in order, possibly overlapping) replaced by one `***`. */
function replaced(text: string, ranges: readonly (readonly [number, number])[]): string {
  if (ranges.length === 0) return text;
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end] of sorted) {
    if (end <= at) continue;
    if (start >= at) out += text.slice(at, start) + MASK;
    at = end;
  }
  return out + text.slice(at);
}

/** What the mask reads of a host profile (written out, so the mask needs no host): its providers' key variables. */
export interface ProviderKeys {
  readonly providers: ReadonlyMap<string, { readonly apiKeyEnv?: string }>;
}

/**
 * The secrets a run knows from its environment: the key variable of every provider the host
 * profile declares, and any variable whose name says it holds a key, token or password.
 */
export function environmentSecrets(env: NodeJS.ProcessEnv, profile?: ProviderKeys): string[] {
  const names = new Set<string>();
  for (const spec of profile?.providers.values() ?? []) if (spec.apiKeyEnv !== undefined) names.add(spec.apiKeyEnv);
  for (const name of Object.keys(env)) if (SECRET_NAME.test(name)) names.add(name);
  const values: string[] = [];
  for (const name of names) {
    const value = Object.prototype.hasOwnProperty.call(env, name) ? env[name] : undefined;
    if (value !== undefined && value.trim() !== "") values.push(value.trim());
  }
  return values;
}

/**
 * The same object with every string passed to its methods masked: for a log or output channel
 * (the language client's trace in the editor), so what it writes, to the screen or its log file,
 * never holds a secret in clear. Properties that are not methods are read through unchanged.
 */
export function maskedMethods<T extends object>(target: T, mask: SecretMask): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        (value as (...a: unknown[]) => unknown).apply(
          object,
          args.map((arg) =>
            typeof arg === "string" ? mask.mask(arg) : arg instanceof Error ? maskError(arg, mask) : arg,
          ),
        );
    },
  });
}

function maskError(error: Error, mask: SecretMask): Error {
  const copy = new Error(mask.mask(error.message));
  copy.name = error.name;
  if (error.stack !== undefined) copy.stack = mask.mask(error.stack);
  return copy;
}
