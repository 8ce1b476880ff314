// The regular expression engine every JSON Schema `pattern` (and `patternProperties`) runs on
// (the schema engine, text/schemaEngine.ts, gives it to every validator it makes):
// RE2 (re2js, a pure JavaScript port, so the extension's bundles need no native addon), whose
// matching time is linear in the input. The engine's own backtracking RegExp let a schema from an
// MCP server or a profile freeze the checker: "^(a+)+$" against forty a's and a "!" ran for
// minutes, in `check` and in the language server. Patterns are JavaScript syntax, translated to
// RE2's. A pattern RE2 cannot run (lookaround, backreferences) is not checked: it matches
// everything, so a tool keeps its other checks and judges such arguments itself.

import type { RE2JS } from "re2js";
import type { Options } from "ajv";

type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;

/** Compiles one schema pattern for ajv: `test` is RE2's unanchored search. */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string): { test(text: string): boolean; toString(): string } => {
    // ajv keys its compiled patterns by toString(): each must say which pattern it is.
    const toString = () => `re2:${pattern}`;
    let compiled: RE2JS;
    try {
      const engine = re2();
      compiled = engine.compile(engine.translateRegExp(pattern));
    } catch {
      return { test: () => true, toString };
    }
    return { test: (text: string) => compiled.test(text), toString };
  },
  // Only ajv's standalone code generation reads this; nothing here generates standalone code.
  { code: 'require("re2js").RE2JS' },
);

/** re2js on the first pattern: its Unicode tables are built when it loads, a cost no start should pay. */
function re2(): typeof RE2JS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("re2js") as typeof import("re2js")).RE2JS;
}
