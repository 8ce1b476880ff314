// The journal's SQLite over Node's built-in `node:sqlite`, what every Node from 22.13 uses (the
// rule: sqlite.ts, sqliteBackend), the editor's extension host included, so the .vsix ships no
// native addon. It offers
// the part of better-sqlite3's API the journal uses, with the same semantics (named `@`
// parameters, `raw()` rows, `pragma(..., { simple })`, transactions with `.immediate()`, errors
// carrying SQLite's code name), so the store, the recorder and the queries run unchanged.

import type BetterSqlite3 from "better-sqlite3";

type Constructor = typeof BetterSqlite3;

/** The part of node:sqlite's statement the adapter uses. */
interface NodeStatement {
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  setReturnArrays?(enabled: boolean): void;
}

interface NodeDatabase {
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
}

type NodeDatabaseConstructor = new (file: string, options?: Record<string, unknown>) => NodeDatabase;

/** SQLite's primary result codes, by number (sqlite3.h), for errors node:sqlite reports as ERR_SQLITE_ERROR. */
const RESULT_CODES: Readonly<Record<number, string>> = {
  1: "SQLITE_ERROR",
  2: "SQLITE_INTERNAL",
  3: "SQLITE_PERM",
  4: "SQLITE_ABORT",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  7: "SQLITE_NOMEM",
  8: "SQLITE_READONLY",
  9: "SQLITE_INTERRUPT",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  12: "SQLITE_NOTFOUND",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  15: "SQLITE_PROTOCOL",
  17: "SQLITE_SCHEMA",
  18: "SQLITE_TOOBIG",
  19: "SQLITE_CONSTRAINT",
  20: "SQLITE_MISMATCH",
  21: "SQLITE_MISUSE",
  23: "SQLITE_AUTH",
  25: "SQLITE_RANGE",
  26: "SQLITE_NOTADB",
};

/** The same error, its `code` SQLite's name as better-sqlite3 gives it ("SQLITE_CORRUPT"). */
function named(error: unknown): unknown {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof errcode === "number" && error instanceof Error) {
    const name = RESULT_CODES[errcode & 0xff];
    if (name) Object.defineProperty(error, "code", { value: name, configurable: true, writable: true });
  }
  return error;
}

function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw named(error);
  }
}

class Statement {
  private arrays = false;
  constructor(private readonly statement: NodeStatement) {}

  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint } {
    const info = guarded(() => this.statement.run(...params));
    return { changes: Number(info.changes), lastInsertRowid: info.lastInsertRowid };
  }

  get(...params: unknown[]): unknown {
    const row = guarded(() => this.statement.get(...params));
    return this.arrays && row !== undefined && !Array.isArray(row) ? Object.values(row as object) : row;
  }

  all(...params: unknown[]): unknown[] {
    const rows = guarded(() => this.statement.all(...params));
    return this.arrays ? rows.map((row) => (Array.isArray(row) ? row : Object.values(row as object))) : rows;
  }

  /** Rows as arrays in column order (better-sqlite3's `raw()`). */
  raw(enabled = true): this {
    this.arrays = enabled;
    this.statement.setReturnArrays?.(enabled);
    return this;
  }
}

class Database {
  private depth = 0;
  private readonly db: NodeDatabase;

  constructor(Native: NodeDatabaseConstructor, file: string, options: { readonly?: boolean; timeout?: number } = {}) {
    this.db = guarded(
      () =>
        new Native(file, {
          readOnly: options.readonly === true,
          ...(options.timeout ? { timeout: options.timeout } : {}),
        }),
    );
  }

  prepare(sql: string): Statement {
    return new Statement(guarded(() => this.db.prepare(sql)));
  }

  exec(sql: string): this {
    guarded(() => this.db.exec(sql));
    return this;
  }

  /** `PRAGMA text`: every row, or with `simple` the first column of the first row. */
  pragma(text: string, options: { simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${text}`);
    if (!options.simple) return statement.all();
    const row = statement.get() as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }

  /** better-sqlite3's transaction: a function running `work` in one transaction (a savepoint when nested). */
  transaction<A extends unknown[], R>(work: (...args: A) => R): ((...args: A) => R) & { immediate: (...args: A) => R } {
    const begin =
      (mode: string) =>
      (...args: A): R => {
        const nested = this.depth > 0;
        const name = `rlm_plan_${this.depth}`;
        this.exec(nested ? `SAVEPOINT ${name}` : `BEGIN ${mode}`);
        const undo = () => {
          try {
            this.exec(nested ? `ROLLBACK TO ${name}; RELEASE ${name}` : "ROLLBACK");
          } catch {
            // SQLite rolled back itself (a failed COMMIT, a full disk): the first error says why
          }
        };
        this.depth++;
        let result: R;
        try {
          result = work(...args);
        } catch (error) {
          this.depth--;
          undo();
          throw error;
        }
        // Counted down once, before the end is written: a failed COMMIT must not count it twice.
        this.depth--;
        try {
          this.exec(nested ? `RELEASE ${name}` : "COMMIT");
        } catch (error) {
          undo();
          throw error;
        }
        return result;
      };
    return Object.assign(begin("DEFERRED"), { immediate: begin("IMMEDIATE") });
  }

  close(): void {
    guarded(() => this.db.close());
  }
}

/**
 * A constructor shaped like better-sqlite3's over node:sqlite; throws when this Node has none.
 * The module's one-time "SQLite is an experimental feature" warning is not printed: a CLI or
 * an extension host would show it to users who asked for nothing of the kind.
 */
export function nodeSqlite(): Constructor {
  const emit = process.emitWarning;
  let native: { DatabaseSync: NodeDatabaseConstructor };
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    native = require("node:sqlite") as { DatabaseSync: NodeDatabaseConstructor };
  } finally {
    process.emitWarning = emit;
  }
  const { DatabaseSync } = native;
  return function open(file: string, options?: { readonly?: boolean; timeout?: number }) {
    return new Database(DatabaseSync, file, options);
  } as unknown as Constructor;
}
