// A damaged run journal is never written into (issue 33 item 7): a journal of real runs has the
// middle of its file overwritten in each way a disk or a stray write damages it (zeros over a
// page, garbage in the header's page count, the file cut short, random bytes over an index page);
// after each, `rlm-plan run` says once that the file was moved aside (the bytes kept there as they
// were), records its run as run 1 in a fresh journal, and `runs list` lists it. The same with
// `runs list` as the first command, and when the last close had found the file sound. On each
// SQLite the journal can use: better-sqlite3, and node:sqlite where this Node has it
// (RLM_PLAN_SQLITE=node; from Node 22.13).

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { sqlite } from "@rlm-plan/core/journal/sqlite";
import { cliWorkspace, runCli } from "../support/cliWorkspace";

const ws = cliWorkspace("journal-damage");
ws.write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(count_items)"],
    budget: { max_steps: 100, max_tool_calls: 60 },
    tools: { count_items: { type: "builtin", builtin: "count_items" } },
  }),
);
ws.write(
  "p.rlmplan.json",
  JSON.stringify({
    steps: [
      ...Array.from({ length: 30 }, (_, i) => ({
        op: "tool",
        name: "count_items",
        args: [i, "x".repeat(60)],
        bind: `v${i}`,
      })),
      { op: "final", value: { ref: "var", name: "v29" } },
    ],
  }),
);

const JOURNAL = join(ws.dir, ".rlm-plan");
const FILE = join(JOURNAL, "runs.sqlite");
const PAGE = 4096;

const nodeSqlite = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
})();
const BACKENDS: readonly { name: string; env: NodeJS.ProcessEnv; skip: string | false }[] = [
  { name: "better-sqlite3", env: {}, skip: false },
  {
    name: "node:sqlite",
    env: { RLM_PLAN_SQLITE: "node" },
    skip: nodeSqlite ? false : `node:sqlite is not in Node ${process.version} (Node 22.13 or later)`,
  },
];

function cli(env: NodeJS.ProcessEnv, ...args: string[]) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    return runCli(ws.dir, args);
  } finally {
    for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
  }
}

/** Bytes that look random and are the same on every run (a seed hashed again and again). */
function noise(bytes: number): Buffer {
  const parts: Buffer[] = [];
  let seed = Buffer.from("rlm-plan journal damage");
  for (let n = 0; n < bytes; n += 32) parts.push((seed = createHash("sha256").update(seed).digest()));
  return Buffer.concat(parts).subarray(0, bytes);
}

function overwrite(at: number, bytes: Buffer): void {
  const file = readFileSync(FILE);
  bytes.copy(file, at);
  writeFileSync(FILE, file);
}

/** The first page of an index of the journal (read before the damage). */
function indexPage(): number {
  const db = new (sqlite())(FILE, { readonly: true });
  try {
    return (db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'calls_by_key'").get() as { rootpage: number })
      .rootpage;
  } finally {
    db.close();
  }
}

const DAMAGE: readonly { name: string; damage: (pages: number) => void }[] = [
  {
    name: "zeros over a page in the middle",
    damage: (pages) => overwrite(Math.floor(pages / 2) * PAGE, Buffer.alloc(PAGE)),
  },
  {
    name: "garbage in the header's page count",
    damage: () => overwrite(28, Buffer.from([0x7f, 0xff, 0x12, 0x34])),
  },
  {
    name: "the file cut short in the middle of a page",
    damage: (pages) => truncateSync(FILE, (pages / 2) * PAGE + 1000),
  },
  // Over the page's cells (its end: SQLite fills a page from the end; bytes over its free middle change nothing).
  { name: "random bytes over an index page's cells", damage: () => overwrite(indexPage() * PAGE - 1500, noise(1500)) },
];

let pristine: string | undefined;
/** A journal of three recorded runs, made once and copied for each case. */
function journalOfThreeRuns(): string {
  if (pristine) return pristine;
  for (let i = 0; i < 3; i++) assert.equal(runCli(ws.dir, ["run", "p.rlmplan.json"]).code, 0);
  assert.equal(existsSync(`${FILE}-wal`), false, "the last connection's close folds the log into the file");
  pristine = join(ws.dir, "pristine.sqlite");
  copyFileSync(FILE, pristine);
  return pristine;
}

function freshDamaged(damage: (pages: number) => void): Buffer {
  rmSync(JOURNAL, { recursive: true, force: true });
  ws.write(".rlm-plan/.gitignore", "*\n");
  copyFileSync(journalOfThreeRuns(), FILE);
  const pages = readFileSync(FILE).length / PAGE;
  assert.ok(pages >= 8, `a journal of ${pages} pages is too small to damage its middle`);
  damage(pages);
  return readFileSync(FILE);
}

const WARNING =
  /^rlm-plan: the run journal \S*runs\.sqlite was not used: it is damaged \([^\n]+\); it was moved to (runs\.sqlite\.damaged-\d{8}T\d{6}Z) \(nothing deleted\) and a new journal was started$/m;

/** The one warning, and the moved file holding exactly the damaged bytes. */
function movedAside(stderr: string, damaged: Buffer): void {
  const warnings = stderr.split("\n").filter((line) => line.includes("was not used"));
  assert.equal(warnings.length, 1, stderr);
  const aside = WARNING.exec(stderr)?.[1];
  assert.ok(aside, stderr);
  assert.deepEqual(
    readdirSync(JOURNAL).filter((n) => n.startsWith("runs.sqlite.damaged-")),
    [aside],
  );
  assert.deepEqual(readFileSync(join(JOURNAL, aside)), damaged);
}

for (const backend of BACKENDS) {
  describe(`a damaged journal is moved aside, never written into (${backend.name})`, { skip: backend.skip }, () => {
    for (const { name, damage } of DAMAGE) {
      test(`${name}: run warns once and records run 1 in a fresh journal; runs list lists it`, () => {
        const damaged = freshDamaged(damage);
        const ran = cli(backend.env, "run", "p.rlmplan.json");
        assert.equal(ran.code, 0, ran.stderr);
        assert.equal(ran.stdout, "2\n");
        movedAside(ran.stderr, damaged);
        assert.match(ran.stderr, /\nrlm-plan: recorded as run 1 in \.rlm-plan \(rlm-plan runs show 1\)\n$/);
        const listed = cli(backend.env, "runs", "list", "--json");
        assert.equal(listed.code, 0, listed.stderr);
        assert.doesNotMatch(listed.stderr, /was not used/);
        assert.deepEqual(
          (JSON.parse(listed.stdout) as { id: number; status: string }[]).map((r) => [r.id, r.status]),
          [[1, "ok"]],
        );
      });
    }

    test("a journal its last run closed sound, damaged since: checked again on open, moved aside", () => {
      rmSync(JOURNAL, { recursive: true, force: true });
      for (let i = 0; i < 2; i++) assert.equal(cli(backend.env, "run", "p.rlmplan.json").code, 0);
      // The last close noted the file's state (the next open need not read every page)...
      assert.equal(existsSync(`${FILE}.checked`), true);
      const pages = readFileSync(FILE).length / PAGE;
      assert.ok(pages >= 8, `${pages} pages`);
      // ...and a write since, by anything but the journal, is a file to check again.
      overwrite(Math.floor(pages / 2) * PAGE, Buffer.alloc(PAGE));
      const damaged = readFileSync(FILE);
      const ran = cli(backend.env, "run", "p.rlmplan.json");
      assert.equal(ran.code, 0, ran.stderr);
      movedAside(ran.stderr, damaged);
      assert.match(ran.stderr, /\nrlm-plan: recorded as run 1 in \.rlm-plan \(rlm-plan runs show 1\)\n$/);
    });

    test("zeros over a page: runs list, the first to open it, warns and lists the fresh journal", () => {
      const damaged = freshDamaged(DAMAGE[0]!.damage);
      const listed = cli(backend.env, "runs", "list", "--json");
      assert.equal(listed.code, 0, listed.stderr);
      assert.equal(listed.stdout, "[]\n");
      movedAside(listed.stderr, damaged);
      const ran = cli(backend.env, "run", "p.rlmplan.json");
      assert.match(ran.stderr, /^rlm-plan: recorded as run 1 in \.rlm-plan/m);
    });
  });
}
