// File-backed texts (registerTextFile) give exactly what the same text in memory gives, for every
// action under many limits and with tiny chunks and index strides (so that lines, characters and
// patterns straddle chunk boundaries); and a file that changes or goes away fails cleanly.

import assert from "node:assert/strict";
import {
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  appendFileSync,
  renameSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { ContextAction } from "@rlm-plan/core/plan/ast";
import {
  ContextStore,
  type ContextLimits,
  type ContextOutcome,
  type TextFileOptions,
} from "@rlm-plan/core/context/store";

const dir = mkdtempSync(join(tmpdir(), "rlm-context-file-"));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function tempFile(content: string | Buffer): string {
  const path = join(dir, `text-${++files}.txt`);
  writeFileSync(path, content);
  return path;
}

function newStore(): ContextStore {
  return new ContextStore({ now: () => 1700000000, newId: () => "ctx" });
}

/** A seeded generator, so a failure names a text that can be made again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

function mixedText(seed: number, units: number): string {
  const next = random(seed);
  const pieces = ["a", "needle", " ", "\n", "é", "日本", "😀", "\r\n", "K", "xy", "\n\n", "ß", "İ", "\uFFFD", "🎉x"];
  let out = "";
  for (let i = 0; i < units; i++) out += pieces[Math.floor(next() * pieces.length)];
  return out;
}

const TEXTS: Readonly<Record<string, string>> = {
  empty: "",
  word: "hello",
  sample: "alpha\nneedle one\nneedle two\nomega",
  trailingNewline: "a\nb\n",
  onlyNewlines: "\n\n\n",
  crlf: "one\r\ntwo\r\n\r\nthree\r\n",
  multibyte: "été café\nnaïve ñ needle\n日本語のテキスト\nΣίσυφος needle",
  astral: "😀a😀b\n𝔘x needle\n🎉🎉🎉 party 🎉\n",
  bom: "\uFEFFfirst line\nsecond",
  replacementChar: "valid \uFFFD here\nand \uFFFD\uFFFD there",
  kelvin: "\u212A".repeat(150) + "\n" + "\u0130".repeat(100) + "\nı".repeat(30),
  longLines:
    "x".repeat(700) +
    "needle" +
    "y".repeat(400) +
    "\nshort needle\n" +
    "é".repeat(300) +
    "\n" +
    "😀".repeat(200) +
    "needle",
  asciiThenAstral: "a".repeat(300) + "😀 needle\n" + "b".repeat(90) + "😀",
  lastLineLong: "x\n" + "b".repeat(90) + "😀",
  mixed: mixedText(7, 600),
};

// Patterns with a lone surrogate (and U+FFFD in a file with invalid bytes) take the reader's
// line-by-line path; the others its byte search.
const PATTERNS = [
  ...["needle", "e", "a", "é", "😀", "x", "xy", "yyyy", "\r", "\r\n", "K", "ne", "\uFFFD", "zzz"],
  ...["\uD83D", "\uDE00", "a\uD83D", "\uDE00needle", "\uDE00\uD83D"],
];

function actionsFor(text: string): ContextAction[] {
  const total = Array.from(text).length;
  const actions: ContextAction[] = [{ type: "peek", selector: { type: "metadata" } }];
  for (const count of [0, 1, 3, 50, 1_000_000]) {
    actions.push(
      { type: "peek", selector: { type: "head", count } },
      { type: "peek", selector: { type: "tail", count } },
    );
  }
  for (const start of new Set([0, 1, 5, Math.floor(total / 2), Math.max(0, total - 3), total, total + 1])) {
    for (const length of [0, 1, 7, 100, 1_000_000]) actions.push({ type: "slice", start, length });
  }
  for (const pattern of PATTERNS) actions.push({ type: "search", pattern });
  for (const size of [1, 3, 64, 1000]) actions.push({ type: "partition", strategy: { type: "fixed", size } });
  for (const size of [1, 2, 5, 1000]) actions.push({ type: "partition", strategy: { type: "lines", size } });
  for (const transform of ["identity", "lowercase", "uppercase", "length"]) actions.push({ type: "map", transform });
  actions.push({ type: "reduce", reducer: "count" }, { type: "reduce", reducer: "byte_count" });
  return actions;
}

const LIMITS: readonly ContextLimits[] = [
  { maxResults: 1, maxBytes: 1 },
  { maxResults: 2, maxBytes: 5 },
  { maxResults: 3, maxBytes: 16 },
  { maxResults: 5, maxBytes: 100 },
  // Lowercase shrinks the line of Kelvin signs (3 bytes each) to a third: 450 bytes fit in 200.
  { maxResults: 4, maxBytes: 200 },
  { maxResults: 32, maxBytes: 16384 },
  { maxResults: 1000, maxBytes: 1_000_000 },
];

/** Tiny chunks make every line and character cross chunk boundaries; larger texts take fewer reads. */
function chunkings(text: string): readonly TextFileOptions[] {
  if (Buffer.byteLength(text) <= 600) {
    return [{ chunkBytes: 7, indexStrideBytes: 5 }, { chunkBytes: 16, indexStrideBytes: 40 }, {}];
  }
  return [{ chunkBytes: 61, indexStrideBytes: 50 }, { chunkBytes: 256, indexStrideBytes: 300 }, {}];
}

function plain(outcome: ContextOutcome): unknown {
  return JSON.parse(JSON.stringify(outcome));
}

/** A few limits for the many random texts. */
const SOME_LIMITS: readonly ContextLimits[] = [
  LIMITS[1] as ContextLimits,
  LIMITS[3] as ContextLimits,
  LIMITS[5] as ContextLimits,
];

/** Runs every action under every limit on both registrations and lists what differs. */
async function differences(
  text: string,
  file: string,
  options: TextFileOptions,
  limitSet: readonly ContextLimits[] = LIMITS,
): Promise<string[]> {
  const store = newStore();
  const memory = store.registerText(text);
  const backed = await store.registerTextFile(file, options);
  const cases = actionsFor(text).flatMap((action) => limitSet.map((limits) => ({ action, limits })));
  const found: string[] = [];
  // Several operations at once, as a host may run them (each opens the file for itself).
  for (let at = 0; at < cases.length; at += 8) {
    await Promise.all(
      cases.slice(at, at + 8).map(async ({ action, limits }) => {
        const expected = plain(await store.run(memory, action, limits));
        const actual = plain(await store.run(backed, action, limits));
        try {
          assert.deepStrictEqual(actual, expected);
        } catch {
          found.push(
            `${JSON.stringify(action)} ${JSON.stringify(limits)}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`,
          );
        }
      }),
    );
  }
  return found;
}

function chunkingName(options: TextFileOptions): string {
  return options.chunkBytes === undefined
    ? "default chunks"
    : `${options.chunkBytes}-byte chunks, stride ${options.indexStrideBytes}`;
}

describe("a file-backed text answers like the same text in memory", () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    test(name, async () => {
      const file = tempFile(text);
      for (const options of chunkings(text)) {
        const found = await differences(text, file, options);
        assert.deepStrictEqual(found.slice(0, 5), [], `${name}, ${chunkingName(options)}: ${found.length} differences`);
      }
    });
  }

  test("random texts with 1- to 9-byte chunks", async () => {
    for (let seed = 1; seed <= 9; seed++) {
      const text = mixedText(seed, 40 + seed * 7);
      const file = tempFile(text);
      const options = { chunkBytes: seed, indexStrideBytes: 1 + (seed % 5) };
      const found = await differences(text, file, options, SOME_LIMITS);
      assert.deepStrictEqual(found.slice(0, 3), [], `seed ${seed}, ${chunkingName(options)}`);
    }
  });
});

describe("invalid UTF-8", () => {
  // Each maximal invalid sequence reads as one U+FFFD, as readFileSync(path, "utf8") decodes it.
  const pool = [0x61, 0x0a, 0x80, 0xbf, 0xc0, 0xc2, 0xe0, 0xe2, 0xed, 0xf0, 0xf4, 0xf5, 0xff, 0x9f, 0x82, 0xa9];

  test("reads as U+FFFD, exactly as Buffer#toString decodes it", async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed);
      const bytes = Buffer.from(
        Array.from({ length: 40 + seed * 3 }, () => pool[Math.floor(next() * pool.length)] as number),
      );
      const file = tempFile(bytes);
      const text = bytes.toString("utf8");
      for (const options of [{ chunkBytes: 1 + (seed % 7), indexStrideBytes: 1 + (seed % 4) }, {}]) {
        const found = await differences(text, file, options, SOME_LIMITS);
        assert.deepStrictEqual(found.slice(0, 3), [], `seed ${seed}, ${chunkingName(options)}`);
      }
    }
  });

  test("long lines with invalid bytes, in small chunks", async () => {
    const bytes = Buffer.concat([
      Buffer.from("a".repeat(200)),
      Buffer.from([0xff]),
      Buffer.from("b".repeat(100) + "\n" + "c".repeat(50)),
      Buffer.from([0xe2, 0x82, 0x0a, 0xf0, 0x9f]),
      Buffer.from("😀".repeat(30) + "d".repeat(70)),
      Buffer.from([0xed, 0xa0, 0x80]),
    ]);
    const file = tempFile(bytes);
    for (const options of [
      { chunkBytes: 7, indexStrideBytes: 11 },
      { chunkBytes: 50, indexStrideBytes: 3 },
    ]) {
      const found = await differences(bytes.toString("utf8"), file, options);
      assert.deepStrictEqual(found.slice(0, 3), [], chunkingName(options));
    }
  });

  test("a search for U+FFFD finds invalid bytes", async () => {
    const store = newStore();
    const handle = await store.registerTextFile(
      tempFile(Buffer.from([0x61, 0x0a, 0x62, 0xff, 0x63, 0x0a, 0xe2, 0x82])),
    );
    assert.deepStrictEqual(plain(await store.run(handle, { type: "search", pattern: "\uFFFD" })), {
      ok: true,
      value: [
        { index: 1, value: "b\uFFFDc" },
        { index: 2, value: "\uFFFD" },
      ],
      truncated: false,
    });
    assert.deepStrictEqual(plain(await store.run(handle, { type: "reduce", reducer: "byte_count" })), {
      ok: true,
      value: 11,
      truncated: false,
    });
  });
});

describe("the file behind a text", () => {
  const slice: ContextAction = { type: "slice", start: 0, length: 5 };

  function errorKind(outcome: ContextOutcome): unknown {
    return outcome.ok ? outcome : { operation: outcome.error.operation, kind: outcome.error.kind };
  }

  test("grown after registration: source_changed", async () => {
    const file = tempFile("hello\nworld");
    const store = newStore();
    const handle = await store.registerTextFile(file);
    appendFileSync(file, "!");
    assert.deepStrictEqual(errorKind(await store.run(handle, slice)), {
      operation: "slice(0,5)",
      kind: "source_changed",
    });
    assert.deepStrictEqual(errorKind(await store.run(handle, { type: "reduce", reducer: "count" })), {
      operation: "reduce(count)",
      kind: "source_changed",
    });
  });

  test("rewritten in place with the same size: source_changed (modification time)", async () => {
    const file = tempFile("hello\nworld");
    const store = newStore();
    const handle = await store.registerTextFile(file);
    writeFileSync(file, "HELLO\nWORLD");
    const later = new Date(statSync(file).mtimeMs + 5000);
    utimesSync(file, later, later);
    const outcome = await store.run(handle, { type: "search", pattern: "o" });
    assert.deepStrictEqual(errorKind(outcome), { operation: 'search("o")', kind: "source_changed" });
    assert.ok(!outcome.ok && /changed after it was registered/.test(outcome.error.message));
  });

  test("replaced by another file with the same size and time: source_changed (identity)", async () => {
    const file = tempFile("hello\nworld");
    const store = newStore();
    const handle = await store.registerTextFile(file);
    const { atime, mtime } = statSync(file);
    const other = tempFile("HELLO\nWORLD");
    utimesSync(other, atime, mtime);
    renameSync(other, file);
    assert.deepStrictEqual(errorKind(await store.run(handle, slice)), {
      operation: "slice(0,5)",
      kind: "source_changed",
    });
  });

  test("deleted: source_unavailable, with the system's code", async () => {
    const file = tempFile("hello\nworld");
    const store = newStore();
    const handle = await store.registerTextFile(file);
    rmSync(file);
    const outcome = await store.run(handle, { type: "partition", strategy: { type: "lines", size: 1 } });
    assert.equal(outcome.ok, false);
    assert.ok(!outcome.ok);
    assert.equal(outcome.error.kind, "source_unavailable");
    assert.equal(outcome.error["code"], "ENOENT");
    // The file is opened before the action's arguments are looked at.
    const bad = await store.run(handle, { type: "slice", start: -1, length: 1 });
    assert.deepStrictEqual(errorKind(bad), { operation: "slice(-1,1)", kind: "source_unavailable" });
  });

  test("registration refuses what it cannot read", async () => {
    const store = newStore();
    await assert.rejects(store.registerTextFile(join(dir, "missing.txt")), { code: "ENOENT" });
    await assert.rejects(store.registerTextFile(dir), /not a regular file/);
    await assert.rejects(store.registerTextFile(tempFile("x"), { chunkBytes: 0 }), RangeError);
  });
});

describe("file descriptors", () => {
  const openFds = (): number => readdirSync("/proc/self/fd").length;
  const hasProc = ((): boolean => {
    try {
      openFds();
      return true;
    } catch {
      return false;
    }
  })();

  test(
    "none stays open: each operation opens the file and closes it, even when it stops early or fails",
    { skip: !hasProc },
    async () => {
      const text = mixedText(3, 4000);
      const file = tempFile(text);
      const store = newStore();
      const before = openFds();
      const handle = await store.registerTextFile(file, { chunkBytes: 64, indexStrideBytes: 32 });
      const limits = { maxResults: 2, maxBytes: 50 };
      const actions: ContextAction[] = [
        { type: "search", pattern: "needle" },
        { type: "search", pattern: "\uD83D" },
        { type: "partition", strategy: { type: "lines", size: 2 } },
        { type: "partition", strategy: { type: "fixed", size: 10 } },
        { type: "map", transform: "length" },
        { type: "slice", start: 1000, length: 20 },
        { type: "peek", selector: { type: "tail", count: 10 } },
        { type: "reduce", reducer: "count" },
      ];
      for (let round = 0; round < 5; round++) {
        await Promise.all(actions.map((action) => store.run(handle, action, limits)));
      }
      assert.equal(openFds(), before);
      rmSync(file);
      for (const action of actions) assert.equal((await store.run(handle, action, limits)).ok, false);
      assert.equal(openFds(), before);
    },
  );
});
