// The run journal's SQLite, loaded the first time a journal is opened, never at start-up. Which
// one is one rule, sqliteBackend(): Node's built-in node:sqlite from Node 22.13 (the first release
// where it needs no flag), the better-sqlite3 addon before that (Node 20, where node:sqlite does not
// exist). If the chosen one cannot load (a Node built without node:sqlite; an addon built for
// another Node, or not installed) the other is tried; where neither loads the process runs
// unrecorded, with a message. RLM_PLAN_SQLITE=node or =addon takes one and only that one (the
// tests of each backend on any Node). docs/journal.md, "Which SQLite", says the same for users.
// better-sqlite3 is a native addon: the language server and debug adapter bundles keep it outside
// (scripts/bundle.mjs). It is loaded from its known place (build/Release of the package `require`
// resolves) and handed to better-sqlite3, whose own lookup (the `bindings` package) tries a dozen
// paths, and the CLI's bundle holds better-sqlite3's JavaScript (scripts/bundle-cli.mjs): fourteen
// modules loaded one by one were a sixth of a bare Node start (bench/README.md, "The CLI's start").

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { nodeSqlite } from "./nodeSqlite";

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;
type Constructor = typeof BetterSqlite3;

/** The two SQLite libraries the journal runs on, with one file format. */
export type SqliteBackend = "node:sqlite" | "better-sqlite3";

/** The first Node release whose node:sqlite loads without --experimental-sqlite. */
const NODE_SQLITE_SINCE: readonly [number, number] = [22, 13];

/**
 * The journal's SQLite on a Node (the rule): node:sqlite from Node 22.13, better-sqlite3 before.
 * `override` is RLM_PLAN_SQLITE's value: "node" or "addon" picks that one; anything else is a
 * mistake said as such, not ignored.
 */
export function sqliteBackend(
  nodeVersion: string = process.versions.node,
  override: string | undefined = process.env.RLM_PLAN_SQLITE,
): SqliteBackend {
  if (override === "node") return "node:sqlite";
  if (override === "addon") return "better-sqlite3";
  if (override !== undefined && override !== "")
    throw new Error(`RLM_PLAN_SQLITE is "node" or "addon" (or unset), not ${JSON.stringify(override)}`);
  const [major = 0, minor = 0] = nodeVersion.split(".").map(Number);
  const [sinceMajor, sinceMinor] = NODE_SQLITE_SINCE;
  return major > sinceMajor || (major === sinceMajor && minor >= sinceMinor) ? "node:sqlite" : "better-sqlite3";
}

const LOADERS: Readonly<Record<SqliteBackend, () => Constructor>> = {
  "node:sqlite": nodeSqlite,
  "better-sqlite3": betterSqlite3,
};

let loaded: { readonly backend: SqliteBackend; readonly Database: Constructor } | undefined;

/** The Database constructor (better-sqlite3's, or node:sqlite's behind the same API); throws an Error saying why none loads. */
export function sqlite(): Constructor {
  if (loaded) return loaded.Database;
  const chosen = sqliteBackend();
  const forced = Boolean(process.env.RLM_PLAN_SQLITE);
  const order: SqliteBackend[] = forced
    ? [chosen]
    : [chosen, chosen === "node:sqlite" ? "better-sqlite3" : "node:sqlite"];
  const failures: string[] = [];
  for (const backend of order) {
    try {
      loaded = { backend, Database: LOADERS[backend]() };
      return loaded.Database;
    } catch (error) {
      failures.push(`${backend}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    }
  }
  throw new Error(
    `the run journal needs Node's node:sqlite (Node 22.13 or later) or the better-sqlite3 package (Node 20), and none loaded here (${failures.join("; ")})`,
  );
}

/** The SQLite the journal opened its databases with in this process, once one was opened. */
export function sqliteInUse(): SqliteBackend | undefined {
  return loaded?.backend;
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
