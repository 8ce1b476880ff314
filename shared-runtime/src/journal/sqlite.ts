// Loads better-sqlite3 (a native addon) the first time a journal is opened, never at start-up:
// the language server and the debug adapter bundles keep it outside (scripts/bundle.mjs). Where
// it cannot load (another Node ABI: VS Code's extension host runs its own Node; a missing build)
// the journal uses Node's built-in node:sqlite through the same API (nodeSqlite.ts); where
// neither exists (Node 20 without the addon) the process runs unrecorded, with a message.
// RLM_PLAN_SQLITE=node picks node:sqlite (the Node 22 test tier runs the journal's tests so).
// The addon is loaded from its known place (build/Release of the package `require` resolves) and
// handed to better-sqlite3, whose own lookup (the `bindings` package) tries a dozen paths, and the
// CLI's bundle holds better-sqlite3's JavaScript (scripts/bundle-cli.mjs): fourteen modules loaded
// one by one were a sixth of a bare Node start (bench/README.md, "The CLI's start").

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
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
    loaded = betterSqlite3();
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

/**
 * better-sqlite3 with its native part loaded: another Node's ABI ("compiled against a different
 * Node.js version") throws here, not at the first journal.
 */
function betterSqlite3(): Constructor {
  // The package's own entry, found as `require` finds it (the Node 22 tier redirects that name
  // to a copy built for its Node: scripts/native-modules.cjs); throws when it is not installed.
  const entry = require.resolve("better-sqlite3");
  const installed = join(dirname(entry), "..");
  // What this file was built with: in the CLI's bundle, the copy of better-sqlite3 inlined there;
  // compiled, the installed one. Its JavaScript and its addon must come from one version.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const own = require("better-sqlite3/package.json") as { version: string };
  const addonFile = join(installed, "build", "Release", "better_sqlite3.node");
  if (versionOf(installed) !== own.version || !existsSync(addonFile)) {
    // Another version installed, or an addon elsewhere: the installed package as it is, its
    // native part found by its own lookup, which runs on the first database: open one in memory.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const addon = require(entry) as Constructor;
    new addon(":memory:").close();
    return addon;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require("better-sqlite3") as Constructor;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const nativeBinding = require(addonFile) as object;
  // Every database of the journal gets the loaded addon (better-sqlite3 takes the object itself).
  const Bound = function (this: unknown, filename?: string | Buffer, options?: BetterSqlite3.Options) {
    return new Database(filename, { ...options, nativeBinding: nativeBinding as unknown as string });
  } as unknown as Constructor;
  Bound.prototype = Database.prototype;
  return Bound;
}

function versionOf(folder: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
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
