// Loads better-sqlite3 (a native addon) the first time a journal is opened, never at start-up:
// the language server and the debug adapter bundles keep it outside (scripts/bundle.mjs). Where
// it cannot load (another Node ABI: VS Code's extension host runs its own Node; a missing build)
// the journal uses Node's built-in node:sqlite through the same API (nodeSqlite.ts); where
// neither exists (Node 20 without the addon) the process runs unrecorded, with a message.
// RLM_PLAN_SQLITE=node picks node:sqlite (the Node 22 test tier runs the journal's tests so).

import type BetterSqlite3 from "better-sqlite3";
import { nodeSqlite } from "./nodeSqlite";

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;
type Constructor = typeof BetterSqlite3;

let loaded: Constructor | undefined;

/** The Database constructor (better-sqlite3's, or node:sqlite's behind the same API); throws an Error saying why neither loads. */
export function sqlite(): Constructor {
  if (loaded) return loaded;
  if (process.env.RLM_PLAN_SQLITE === "node") return (loaded = nodeSqlite());
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const addon = require("better-sqlite3") as Constructor;
    // The package loads its native part on the first database, not on require: open one in
    // memory so another Node's ABI ("compiled against a different Node.js version") shows here.
    new addon(":memory:").close();
    loaded = addon;
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    try {
      loaded = nodeSqlite();
    } catch {
      throw new Error(
        `the run journal needs the better-sqlite3 package or Node's node:sqlite (Node 22.13 or later), and neither loaded here (${why})`,
      );
    }
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
