// A file-backed text context on a large file (default 1 GiB), timed beside `grep -c -F` on the
// same file in the same run: registration (one indexing pass), search, reduce and slice, with
// throughput and peak memory. Nothing here asserts on time: this is a measurement, not a test.
//
//   node bench/out/context-file.bench.js [--size-mb N] [--runs R]
//
// The file is generated once per size under the OS temp directory and reused. Page caches are
// not dropped: every figure is the second of two runs (or, with --runs R, the median of runs 2 to
// R), so both sides read a warm cache and the comparison is of CPU work per byte, not of the disk.

import { spawn } from "node:child_process";
import {
  closeSync,
  createWriteStream,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import { usesSimd } from "@rlm-plan/core/context/sources/file/byteCounts";
import { ContextStore, type ContextHandle, type ContextOutcome } from "@rlm-plan/core/context/store";

const NEEDLE = "NEEDLE-7f3a9c";
const ABSENT = "QZXJ-never-present";
const NEEDLES = 5;
const MB = 1024 * 1024;

function numberArg(name: string, fallback: number, least: number): number {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < least) throw new Error(`${name} needs an integer of at least ${least}`);
  return value;
}

const SIZE_MB = numberArg("--size-mb", 1024, 1);
const RUNS = numberArg("--runs", 2, 2);

const WORDS = (
  "the of and to in is that for it as was with be by on not he this are or his from at which but have an they you " +
  "were her all she there would their we him been has when who will more no if out so said what up its about into " +
  "than them can only other new some could time these two may then do first any my now such like our over man me"
).split(" ");
const WIDE = ["café", "naïve", "日本語", "😀", "Σίσυφος", "ß", "İstanbul"];

/** A deterministic text: lines of 3 to 24 words, one line in 64 with non-ASCII words. */
function* lines(seed: number): Generator<string> {
  let state = seed >>> 0;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  for (let line = 0; ; line++) {
    const count = 3 + next(22);
    const words: string[] = [];
    for (let i = 0; i < count; i++) words.push(WORDS[next(WORDS.length)] as string);
    if (line % 64 === 17) words.splice(next(count), 0, WIDE[next(WIDE.length)] as string);
    yield words.join(" ");
  }
}

interface Generated {
  readonly path: string;
  readonly bytes: number;
  readonly chars: number;
  readonly lines: number;
}

/** Writes about `sizeMb` MiB ending in a needle line, unless that file exists already. */
async function ensureFile(sizeMb: number): Promise<Generated> {
  const path = join(os.tmpdir(), `rlm-context-bench-${sizeMb}mb.txt`);
  const facts = `${path}.json`;
  if (existsSync(path) && existsSync(facts)) {
    const known = JSON.parse(readFileSync(facts, "utf8")) as Generated;
    if (known.bytes === statSync(path).size) return known;
  }
  const target = sizeMb * MB;
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  const source = lines(42);
  const last = `the last line holds the ${NEEDLE}`;
  const needleEvery = Math.floor(target / NEEDLES);
  let bytes = 0;
  let chars = 0;
  let newlines = 0;
  let planted = 0;
  const started = Date.now();
  for (let full = false; !full;) {
    const block: string[] = [];
    let blockBytes = 0;
    while (blockBytes < 1 << 20) {
      let line = source.next().value as string;
      if (bytes + blockBytes >= (planted + 1) * needleEvery && planted < NEEDLES - 1) {
        line = `${line} ${NEEDLE} ${line}`;
        planted++;
      }
      const size = Buffer.byteLength(line) + 1;
      if (bytes + blockBytes + size + Buffer.byteLength(last) > target) {
        full = true;
        break;
      }
      block.push(line);
      blockBytes += size;
      chars += Array.from(line).length + 1;
      newlines++;
    }
    const text = block.length === 0 ? "" : block.join("\n") + "\n";
    bytes += blockBytes;
    if (!out.write(text)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end(last);
  await new Promise<void>((resolve, reject) => out.once("finish", resolve).once("error", reject));
  renameSync(partial, path);
  const generated: Generated = {
    path,
    bytes: bytes + Buffer.byteLength(last),
    chars: chars + last.length,
    lines: newlines + 1,
  };
  writeFileSync(facts, JSON.stringify(generated));
  console.log(`generated ${path} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return generated;
}

/** Wall time of a spawned command, and its stdout. */
function timeCommand(command: string, args: readonly string[]): Promise<{ ms: number; out: string }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("error", reject);
    child.once("close", () => resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, out: out.trim() }));
  });
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await run();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** Runs RUNS times and reports the median of all but the first (with two runs: the second). */
async function warm<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  await run();
  const runs: { ms: number; value: T }[] = [];
  for (let i = 1; i < RUNS; i++) runs.push(await timed(run));
  runs.sort((a, b) => a.ms - b.ms);
  return runs[Math.floor((runs.length - 1) / 2)] as { ms: number; value: T };
}

function summary(outcome: ContextOutcome): string {
  if (!outcome.ok) return `error ${outcome.error.kind}`;
  const text = JSON.stringify(outcome.value);
  return (text.length > 70 ? `${text.slice(0, 67)}...` : text) + (outcome.truncated ? " (truncated)" : "");
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
    .join("  ");
}

/** Peak resident memory of a command, where /usr/bin/time can tell it (GNU time). */
async function peakRssOf(command: string, args: readonly string[]): Promise<number | undefined> {
  if (!existsSync("/usr/bin/time")) return undefined;
  return new Promise((resolve) => {
    const child = spawn("/usr/bin/time", ["-f", "%M", command, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("error", () => resolve(undefined));
    child.once("close", () => {
      const kb = Number(err.trim().split("\n").pop());
      resolve(Number.isFinite(kb) && kb > 0 ? kb * 1024 : undefined);
    });
  });
}

/** The code points [start, start + length) of the file, counted back from its end. */
function tailChars(file: Generated, start: number, length: number): string {
  const tailBytes = Math.min(file.bytes, 64 * 1024);
  const buffer = Buffer.alloc(tailBytes);
  const fd = openSync(file.path, "r");
  try {
    readSync(fd, buffer, 0, tailBytes, file.bytes - tailBytes);
  } finally {
    closeSync(fd);
  }
  let from = 0;
  while (from < buffer.length && ((buffer[from] as number) & 0xc0) === 0x80) from++;
  const chars = Array.from(buffer.subarray(from).toString("utf8"));
  const offset = chars.length - (file.chars - start);
  return chars.slice(offset, offset + length).join("");
}

async function main(): Promise<void> {
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  const load = os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");
  console.log(`machine: ${cpu} (${os.cpus().length} cores), Node ${process.version}, ${os.platform()} ${os.release()}`);
  console.log(`load average at start: ${load} (other processes share the CPUs; rerun on a quiet machine)`);
  const file = await ensureFile(SIZE_MB);
  const { path, bytes } = file;
  console.log(`file: ${path}, ${(bytes / MB).toFixed(1)} MiB, ${file.lines.toLocaleString("en-US")} lines of 3-24`);
  console.log(`      English words, 1 line in 64 with a non-ASCII word; ${NEEDLES} lines hold "${NEEDLE}"`);
  console.log(`      (the last line is one of them); "${ABSENT}" occurs nowhere`);
  console.log(`line and code point counting at registration: ${usesSimd() ? "WebAssembly SIMD" : "JavaScript"}`);
  const which = RUNS === 2 ? "the second of two runs" : `the median of runs 2 to ${RUNS}`;
  console.log(`each figure is ${which}: warm page cache (caches are not dropped), so this`);
  console.log("compares CPU work per byte; a cold read would be bound by the disk for grep and us alike\n");

  const grepNeedle = await warm(() => timeCommand("grep", ["-c", "-F", NEEDLE, path]));
  const grepAbsent = await warm(() => timeCommand("grep", ["-c", "-F", ABSENT, path]));
  const grepRss = await peakRssOf("grep", ["-c", "-F", ABSENT, path]);

  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 5);
  const store = new ContextStore();
  const register = await warm(() => store.registerTextFile(path));
  const handle: ContextHandle = register.value;
  const run = (action: Parameters<ContextStore["run"]>[1], maxResults = 32) =>
    warm(() => store.run(handle, action, { maxResults, maxBytes: 16384 }));
  const searchNeedle = await run({ type: "search", pattern: NEEDLE });
  const searchFirst = await run({ type: "search", pattern: NEEDLE }, 1);
  const searchAbsent = await run({ type: "search", pattern: ABSENT });
  const count = await run({ type: "reduce", reducer: "count" });
  const byteCount = await run({ type: "reduce", reducer: "byte_count" });
  const sliceAt = Math.max(0, file.chars - 4096);
  const slice = await run({ type: "slice", start: sliceAt, length: 200 });
  const tail = await run({ type: "peek", selector: { type: "tail", count: 100 } });
  const partition = await run({ type: "partition", strategy: { type: "lines", size: 1000 } }, 4);
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);

  const mbps = (ms: number): string => `${(bytes / MB / (ms / 1000)).toFixed(0)} MB/s`;
  const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(value >= 1 ? 1 : 3)) + " ms";
  const widths = [40, 9, 11, 11, 42];
  console.log(pad(["", "wall", "throughput", "ours/grep", "result"], widths));
  const row = (name: string, t: { ms: number }, result: string, versus?: { ms: number }, whole = true): void => {
    const ratio = versus === undefined ? "" : `${(t.ms / versus.ms).toFixed(2)}x`;
    console.log(pad([name, ms(t.ms), whole ? mbps(t.ms) : "", ratio, result], widths));
  };
  row(`grep -c -F ${NEEDLE} (spawned)`, grepNeedle, `count ${grepNeedle.value.out}`);
  row(`grep -c -F ${ABSENT} (spawned)`, grepAbsent, `count ${grepAbsent.value.out}`);
  row("registerTextFile (the one indexing pass)", register, "", grepAbsent);
  row(`search ${NEEDLE}, max_results 32`, searchNeedle, summary(searchNeedle.value), grepNeedle);
  row(`search ${ABSENT} (full scan)`, searchAbsent, summary(searchAbsent.value), grepAbsent);
  row(`search ${NEEDLE}, max_results 1`, searchFirst, summary(searchFirst.value), undefined, false);
  row("reduce count", count, summary(count.value), undefined, false);
  row("reduce byte_count", byteCount, summary(byteCount.value), undefined, false);
  row(`slice(${sliceAt}, 200) (near the end)`, slice, summary(slice.value), undefined, false);
  row("peek tail(100)", tail, summary(tail.value), undefined, false);
  row("partition lines(1000), max_results 4", partition, summary(partition.value), undefined, false);

  const rss = (value: number): string => `${(value / MB).toFixed(0)} MiB`;
  console.log(
    `\npeak RSS of this process while registering and running the above: ${rss(rssPeak)}` +
      ` (${rss(rssBefore)} before registering, so +${rss(rssPeak - rssBefore)});` +
      ` grep -c -F: ${grepRss === undefined ? "unknown" : rss(grepRss)}; the file: ${rss(bytes)}`,
  );

  const matches = searchNeedle.value.ok ? (searchNeedle.value.value as { index: number; value: string }[]) : [];
  const checks: [string, boolean][] = [
    ["grep counts", grepNeedle.value.out === String(NEEDLES) && grepAbsent.value.out === "0"],
    ["reduce count = lines", count.value.ok && count.value.value === file.lines],
    ["reduce byte_count = file size", byteCount.value.ok && byteCount.value.value === bytes],
    [
      `search finds the ${NEEDLES} needle lines`,
      matches.length === NEEDLES && searchNeedle.value.ok && !searchNeedle.value.truncated,
    ],
    ["the last match is the last line", matches[NEEDLES - 1]?.index === file.lines - 1],
    [
      "search for the absent pattern is empty",
      searchAbsent.value.ok && JSON.stringify(searchAbsent.value.value) === "[]",
    ],
    ["slice = the file's text there", slice.value.ok && slice.value.value === tailChars(file, sliceAt, 200)],
  ];
  const failed = checks.filter(([, ok]) => !ok).map(([name]) => name);
  console.log(
    failed.length === 0
      ? `results checked: ${checks.map(([name]) => name).join("; ")}`
      : `CHECKS FAILED: ${failed.join("; ")}`,
  );
  if (failed.length > 0) process.exitCode = 1;
  console.log(
    "ours/grep: registration is set against the full-scan grep; a search with fewer matches than" +
      " max_results reads the whole file, as grep -c does. Our search looks for the pattern's bytes with" +
      " Buffer#indexOf in 1 MiB chunks read ahead of use, and works out line numbers only around a hit.",
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
