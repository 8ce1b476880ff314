// A file-backed text of about 200 MB is registered, searched, sliced, partitioned and counted
// with exact results while the process's resident memory grows by far less than the file.

import assert from "node:assert/strict";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { ContextStore, type ContextOutcome } from "@rlm-plan/core/context/store";

const BLOCKS = 200;
const MB = 1024 * 1024;
const MAX_GROWTH = 64 * MB;

/** About 1 MiB of short lines, some with multibyte characters, none with the needle. */
function block(): string {
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "café", "日本語", "😀", "omega"];
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < MB - 200; i++) {
    const line = `line ${i}: ${words[i % words.length]} ${words[(i * 7) % words.length]} ${"x".repeat(i % 50)}`;
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
  }
  return lines.join("\n") + "\n";
}

const LAST = "the very last line holds the needle-END-42 and a few more words";

const dir = mkdtempSync(join(tmpdir(), "rlm-context-memory-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a 200 MB file is searched, sliced, partitioned and counted in bounded memory", async () => {
  const text = block();
  const bytes = Buffer.from(text, "utf8");
  const blockLines = text.split("\n").length - 1;
  const blockChars = Array.from(text).length;
  const path = join(dir, "large.txt");
  const fd = openSync(path, "w");
  try {
    for (let i = 0; i < BLOCKS; i++) writeSync(fd, bytes);
    writeSync(fd, LAST);
  } finally {
    closeSync(fd);
  }
  const totalChars = BLOCKS * blockChars + LAST.length;
  const lastIndex = BLOCKS * blockLines;

  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sample = (): void => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 2);
  const store = new ContextStore();
  const results: ContextOutcome[] = [];
  try {
    const handle = await store.registerTextFile(path);
    sample();
    const limits = { maxResults: 32, maxBytes: 16384 };
    for (const action of [
      { type: "search", pattern: "needle-END-42" },
      { type: "search", pattern: "this pattern is nowhere" },
      { type: "slice", start: totalChars - 40, length: 25 },
      { type: "partition", strategy: { type: "lines", size: 3 } },
      { type: "reduce", reducer: "count" },
      { type: "reduce", reducer: "byte_count" },
    ] as const) {
      const maxResults = action.type === "partition" ? 4 : limits.maxResults;
      results.push(await store.run(handle, action, { ...limits, maxResults }));
      sample();
    }
  } finally {
    clearInterval(sampler);
  }

  const firstLines = text.split("\n").slice(0, 12);
  const parts = [0, 1, 2, 3].map((i) => ({
    index: i,
    start: i * 3,
    length: 3,
    value: firstLines.slice(i * 3, i * 3 + 3),
  }));
  assert.deepStrictEqual(JSON.parse(JSON.stringify(results)), [
    { ok: true, value: [{ index: lastIndex, value: LAST }], truncated: false },
    { ok: true, value: [], truncated: false },
    { ok: true, value: LAST.slice(LAST.length - 40, LAST.length - 15), truncated: false },
    { ok: true, value: parts, truncated: true },
    { ok: true, value: lastIndex + 1, truncated: false },
    { ok: true, value: BLOCKS * bytes.length + LAST.length, truncated: false },
  ]);
  const growth = peak - baseline;
  assert.ok(growth < MAX_GROWTH, `resident memory grew by ${(growth / MB).toFixed(1)} MiB for a ${BLOCKS} MiB file`);
});
