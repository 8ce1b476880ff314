// The output boundary's guard: every value known to be secret (provider keys from the environment
// or from the editor's secret storage) is replaced with `***` in whatever is about to be shown,
// stored or sent, the way CI systems mask secrets. A provider or a plan that repeats a key
// lowercased, uppercased or with its punctuation changed (`sk-AbC` as `sk_abc`, `SKABC`,
// `sk%2DAbC`) is masked too: the match is on the key's letters and digits, case-insensitively,
// with up to a few punctuation characters (or percent/unicode escapes) between any two of them.
// This sits on top of the provider's own error filtering, which never puts the key in an error.

import type { HostProfile } from "../host/profile";

export const MASK = "***";

/**
 * Values with fewer letters and digits than this are not masked: masking `abc` everywhere would
 * destroy output and protect nothing a key-shaped secret needs.
 */
export const MIN_SECRET_CHARS = 6;

/** Environment variable names that hold secrets even when no provider names them. */
const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)(?:_|$)/i;

/** What may sit between two letters or digits of a folded secret: punctuation or an escape. */
// Escapes may be escaped again (JSON inside JSON), hence any number of backslashes.
const GAP = String.raw`(?:%[0-9A-Fa-f]{2}|\\+u[0-9A-Fa-f]{4}|\\+x[0-9A-Fa-f]{2}|[^A-Za-z0-9\s]){0,4}`;

/** A set of secrets and the one function that masks them in text and in JSON-like values. */
export class SecretMask {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  constructor(values: Iterable<string> = []) {
    this.add(values);
  }

  /** Adds secrets; values too short to be a key are ignored (see MIN_SECRET_CHARS). */
  add(values: Iterable<string>): this {
    for (const value of values) {
      const folded = fold(value);
      if (folded.length >= MIN_SECRET_CHARS && !this.secrets.has(folded)) {
        this.secrets.add(folded);
        this.pattern = undefined;
      }
    }
    return this;
  }

  get size(): number {
    return this.secrets.size;
  }

  /** The text with every secret, in any case- or punctuation-folded form, replaced by `***`. */
  mask(text: string): string {
    if (this.secrets.size === 0 || text.length < MIN_SECRET_CHARS) return text;
    this.pattern ??= buildPattern(this.secrets);
    this.pattern.lastIndex = 0;
    return text.replace(this.pattern, MASK);
  }

  /** A copy of a JSON-like value with every string (object keys included) masked. */
  maskValue<T>(value: T): T {
    if (this.secrets.size === 0) return value;
    return this.walk(value, 0) as T;
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

/** A secret's letters and digits, lowercased: what every folded form of it has in common. */
export function fold(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
}

function buildPattern(secrets: ReadonlySet<string>): RegExp {
  // Longest first, so a secret that contains another is masked whole.
  const alternatives = [...secrets].sort((a, b) => b.length - a.length).map((s) => [...s].join(GAP));
  return new RegExp(alternatives.join("|"), "gi");
}

/**
 * The secrets a run knows from its environment: the key variable of every provider the host
 * profile declares, and any variable whose name says it holds a key, token or password.
 */
export function environmentSecrets(env: NodeJS.ProcessEnv, profile?: Pick<HostProfile, "providers">): string[] {
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
