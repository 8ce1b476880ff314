// Which SQLite the run journal runs on (journal/sqlite.ts, sqliteBackend; docs/journal.md, "Which
// SQLite"): node:sqlite from Node 22.13, the better-sqlite3 addon before. The last test opens a
// real journal and names the backend this Node must use, so each tier CI runs proves its own:
// `npm test` on Node 20 the addon, the Node 22 and Node 24 tiers (scripts/test-node.sh) node:sqlite.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { sqliteBackend, sqliteInUse } from "@rlm-plan/core/journal/sqlite";
import { JournalStore } from "@rlm-plan/core/journal/journalStore";

test("the rule: the addon up to Node 22.12, node:sqlite from 22.13", () => {
  const byVersion = Object.fromEntries(
    ["20.19.0", "22.12.0", "22.13.0", "22.22.1", "23.0.0", "24.11.1", "26.0.0"].map((version) => [
      version,
      sqliteBackend(version, undefined),
    ]),
  );
  assert.deepEqual(byVersion, {
    "20.19.0": "better-sqlite3",
    "22.12.0": "better-sqlite3",
    "22.13.0": "node:sqlite",
    "22.22.1": "node:sqlite",
    "23.0.0": "node:sqlite",
    "24.11.1": "node:sqlite",
    "26.0.0": "node:sqlite",
  });
});

test("RLM_PLAN_SQLITE picks either on any Node, and a value it does not know is an error", () => {
  assert.equal(sqliteBackend("24.11.1", "addon"), "better-sqlite3");
  assert.equal(sqliteBackend("20.19.0", "node"), "node:sqlite");
  assert.equal(sqliteBackend("20.19.0", ""), "better-sqlite3");
  assert.throws(() => sqliteBackend("24.11.1", "sqlite"), {
    message: 'RLM_PLAN_SQLITE is "node" or "addon" (or unset), not "sqlite"',
  });
});

test(`a journal on this Node (${process.version}) runs on the backend the rule names for it`, () => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  const forced = process.env.RLM_PLAN_SQLITE;
  // Written out, not asked of the rule: the Node versions CI runs are 20, 22 (22.13 or later) and 24.
  const expected =
    forced === "node"
      ? "node:sqlite"
      : forced === "addon"
        ? "better-sqlite3"
        : major >= 23 || (major === 22 && minor >= 13)
          ? "node:sqlite"
          : "better-sqlite3";
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-backend-"));
  try {
    const store = JournalStore.open(dir);
    try {
      assert.equal(sqliteInUse(), expected);
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
