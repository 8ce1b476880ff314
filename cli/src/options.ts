// One reader of a command's options for every rlm-plan command, on node:util's parseArgs (its
// tokens, so each mistake still gets a short message of our own, as a value, never an exception).

import { parseArgs } from "node:util";

export interface OptionSpec {
  /** Options that take a value, by their spelling ("--host", "-o"), to what the value is ("a FILE"). */
  readonly values: Readonly<Record<string, string>>;
  /** Options that take none ("--json", "-h"). */
  readonly flags: readonly string[];
  /** Value options whose empty value counts as missing. */
  readonly nonEmpty?: readonly string[];
}

export interface Options {
  readonly positionals: readonly string[];
  /** The last value of each value option given. */
  readonly values: ReadonlyMap<string, string>;
  /** Every value of each value option given, in order (for repeatable ones such as --input). */
  readonly repeated: ReadonlyMap<string, readonly string[]>;
  readonly flags: ReadonlySet<string>;
}

/** Splits options from positionals; returns a message for anything the spec does not allow. */
export function readOptions(argv: readonly string[], spec: OptionSpec): Options | string {
  const config: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  const spellings = new Map<string, string>();
  const declare = (spelling: string, type: "string" | "boolean") => {
    // parseArgs names a short option by a long one; ours stand alone, so each gets a key of its own.
    const key = spelling.startsWith("--") ? spelling.slice(2) : `short${spelling}`;
    config[key] = spelling.startsWith("--") ? { type } : { type, short: spelling.slice(1) };
    spellings.set(key, spelling);
  };
  for (const spelling of Object.keys(spec.values)) declare(spelling, "string");
  for (const spelling of spec.flags) declare(spelling, "boolean");
  const { tokens } = parseArgs({
    args: [...argv],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals: string[] = [];
  const repeated = new Map<string, string[]>();
  const flags = new Set<string>();
  for (const token of tokens) {
    if (token.kind === "positional") positionals.push(token.value);
    if (token.kind !== "option") continue;
    const spelling = spellings.get(token.name);
    if (spelling === undefined) return `unknown option ${token.rawName}`;
    if (spelling in spec.values) {
      const value = token.value;
      if (value === undefined || (value === "" && spec.nonEmpty?.includes(spelling)))
        return `${spelling} needs ${spec.values[spelling]}`;
      repeated.set(spelling, [...(repeated.get(spelling) ?? []), value]);
    } else {
      if (token.inlineValue) return `${spelling} takes no value`;
      flags.add(spelling);
    }
  }
  const values = new Map([...repeated].map(([name, all]) => [name, all[all.length - 1] as string]));
  return { positionals, values, repeated, flags };
}
