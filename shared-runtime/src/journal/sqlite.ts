// Loads better-sqlite3 (a native addon) the first time a journal is opened, never at start-up:
// the language server and the debug adapter bundles keep it outside (scripts/bundle.mjs), and a
// process where it cannot load (another Node ABI, a missing build) runs unrecorded, with a message.

import type BetterSqlite3 from "better-sqlite3";

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;
type Constructor = typeof BetterSqlite3;

let loaded: Constructor | undefined;

/** better-sqlite3's Database constructor; throws an Error saying why it cannot load. */
export function sqlite(): Constructor {
  if (loaded) return loaded;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require("better-sqlite3") as Constructor;
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new Error(`the run journal needs the better-sqlite3 package, which did not load here (${why})`);
  }
  return loaded;
}

/** SQLite's result code of a failed statement ("SQLITE_CORRUPT", ...), when it has one. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** Codes that say the file is not (or no longer) a usable database. */
export function isDamage(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
}
