// What a store of the current format gains when it is opened for writing, without a format bump:
// nullable columns added since (older readers name their columns, so they never see them) and the
// approvals log with its triggers (older readers never read it).

import { ADDED_CALL_COLUMNS, ADDED_RUN_COLUMNS, APPROVALS_SCHEMA } from "./schema";
import type { Database } from "./sqlite";

export function addMissingParts(db: Database): void {
  const tables = [
    { table: "runs", columns: ADDED_RUN_COLUMNS },
    { table: "calls", columns: ADDED_CALL_COLUMNS },
  ];
  const has = (table: string, name: string) =>
    (
      db.prepare("SELECT count(*) AS n FROM pragma_table_info(?) WHERE name = ?").get(table, name) as {
        n: number;
      }
    ).n > 0;
  const approvals = () =>
    (
      db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'approvals_kept_with_run'").get() as {
        n: number;
      }
    ).n > 0;
  if (tables.every(({ table, columns }) => columns.every((column) => has(table, column.name))) && approvals()) return;
  db.transaction(() => {
    // Another process may have added them between our read and our write lock.
    for (const { table, columns } of tables)
      for (const column of columns)
        if (!has(table, column.name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column.sql}`);
    db.exec(APPROVALS_SCHEMA);
  }).immediate();
}
