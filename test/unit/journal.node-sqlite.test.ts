// The journal's node:sqlite adapter (journal/nodeSqlite.ts) against what the journal relies on
// better-sqlite3 for: named `@` parameters, raw rows, simple pragmas, transactions (nested ones
// as savepoints, rolled back on a throw, the depth kept after a failure) and SQLite's code names
// on errors. node:sqlite exists from Node 22.13: on Node 20 the file says so and skips; the Node 22
// tier (scripts/test-node.sh) runs it.

import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { isDamage, sqliteCode } from "@rlm-plan/core/journal/sqlite";
import { nodeSqlite } from "@rlm-plan/core/journal/nodeSqlite";

const available = (() => {
  try {
    nodeSqlite();
    return true;
  } catch {
    return false;
  }
})();
const skip = available ? false : `node:sqlite is not in Node ${process.version} (Node 22.13 or later)`;

test("named parameters, raw rows and simple pragmas as better-sqlite3 gives them", { skip }, () => {
  const Database = nodeSqlite();
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (a INTEGER, b TEXT)");
  const info = db.prepare("INSERT INTO t (a, b) VALUES (@a, @b)").run({ a: 1, b: "one" });
  assert.deepEqual(info, { changes: 1, lastInsertRowid: 1 });
  db.prepare("INSERT INTO t (a, b) VALUES (?, ?)").run(2, "two");
  assert.deepEqual(db.prepare("SELECT a, b FROM t ORDER BY a").raw().all(), [
    [1, "one"],
    [2, "two"],
  ]);
  assert.deepEqual({ ...(db.prepare("SELECT b FROM t WHERE a = ?").get(2) as object) }, { b: "two" });
  assert.equal(db.prepare("SELECT b FROM t WHERE a = ?").get(3), undefined);
  db.pragma("user_version = 7");
  assert.equal(db.pragma("user_version", { simple: true }), 7);
  db.close();
});

test("a transaction commits, a throw rolls it back, a nested one is a savepoint", { skip }, () => {
  const db = new (nodeSqlite())(":memory:");
  db.exec("CREATE TABLE t (a INTEGER)");
  const count = () => (db.prepare("SELECT count(*) AS n FROM t").get() as { n: number }).n;
  db.transaction(() => db.prepare("INSERT INTO t VALUES (1)").run()).immediate();
  assert.equal(count(), 1);
  assert.throws(
    () =>
      db.transaction(() => {
        db.prepare("INSERT INTO t VALUES (2)").run();
        throw new Error("stop");
      })(),
    /stop/,
  );
  assert.equal(count(), 1);
  db.transaction(() => {
    db.prepare("INSERT INTO t VALUES (3)").run();
    assert.throws(
      () =>
        db.transaction(() => {
          db.prepare("INSERT INTO t VALUES (4)").run();
          throw new Error("inner");
        })(),
      /inner/,
    );
  })();
  assert.deepEqual(db.prepare("SELECT a FROM t ORDER BY a").raw().all(), [[1], [3]]);
  // After the failures the next transaction is a top-level one again (BEGIN, not a savepoint).
  db.transaction(() => db.prepare("INSERT INTO t VALUES (5)").run())();
  assert.equal(count(), 3);
  db.close();
});

test("errors carry SQLite's code name: a file that is not a database is damage", { skip }, () => {
  const file = join(mkdtempSync(join(tmpdir(), "rlm-plan-node-sqlite-")), "runs.sqlite");
  writeFileSync(file, Buffer.alloc(8192, 0x5a));
  const Database = nodeSqlite();
  const error = (() => {
    try {
      new Database(file).pragma("user_version", { simple: true });
    } catch (caught) {
      return caught;
    }
    return undefined;
  })();
  assert.equal(sqliteCode(error), "SQLITE_NOTADB");
  assert.equal(isDamage(error), true);
  const db = new Database(":memory:");
  assert.throws(
    () => db.exec("garbage"),
    (e: unknown) => sqliteCode(e) === "SQLITE_ERROR",
  );
  db.close();
});
