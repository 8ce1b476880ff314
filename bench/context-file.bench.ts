// A file-backed text context on a large file (default 1 GiB), timed beside `grep -c -F` on the
// same file in the same run: registration (one indexing pass), search, reduce and slice, with
// throughput and peak memory. Nothing here asserts on time: this is a measurement, not a test.
//
//   node bench/out/context-file.bench.js [--size-mb N]
//
// The file is generated once per size under the OS temp directory and reused. Page caches are
// not dropped: every figure is the second of two runs, so both sides read a warm cache and the
// comparison is of CPU work per byte, not of the disk.

import { spawn } from "node:child_process";
import { createWriteStream, existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import { ContextStore, type ContextHandle, type ContextOutcome } from "@rlm-plan/shared-runtime/out/context/store";

const NEEDLE = "NEEDLE-7f3a9c";
const ABSENT = "QZXJ-never-present";
const NEEDLES = 5;
const MB = 1024 * 1024;

function sizeFromArgs(): number {
  const at = process.argv.indexOf("--size-mb");
  if (at < 0) return 1024;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error("--size-mb needs a positive integer");
  return value;
}

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
  for (let full = false; !full; ) {
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
    if (!out.write(text)) await new Promise((resolve) => out.once("drain", resolve));
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

/** Runs twice and reports the second (warm) run. */
async function warm<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  await run();
  return timed(run);
}

function summary(outcome: ContextOutcome): string {
  if (!outcome.ok) return `error ${outcome.error.kind}`;
  const text = JSON.stringify(outcome.value);
  return (text.length > 70 ? `${text.slice(0, 67)}...` : text) + (outcome.truncated ? " (truncated)" : "");
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join("  ");
}

async function main(): Promise<void> {
  const sizeMb = sizeFromArgs();
  console.log(`machine: ${os.cpus()[0]?.model ?? "unknown CPU"} (${os.cpus().length} cores), Node ${process.version}`);
  const file = await ensureFile(sizeMb);
  const { path, bytes } = file;
  const rssBefore = process.memoryUsage().rss;
  console.log(`file: ${path}, ${(bytes / MB).toFixed(1)} MiB, lines of 3-24 English words, 1 in 64 with non-ASCII`);
  console.log(`      words; ${NEEDLES} lines hold "${NEEDLE}" (the last line is one of them)`);
  console.log("each figure is the second of two runs (warm page cache; caches are not dropped)\n");

  const grepNeedle = await warm(() => timeCommand("grep", ["-c", "-F", NEEDLE, path]));
  const grepAbsent = await warm(() => timeCommand("grep", ["-c", "-F", ABSENT, path]));

  const store = new ContextStore();
  const register = await warm(() => store.registerTextFile(path));
  const handle: ContextHandle = register.value;
  const run = (action: Parameters<ContextStore["run"]>[1], maxResults = 32) =>
    warm(() => store.run(handle, action, { maxResults, maxBytes: 16384 }));
  const count = await run({ type: "reduce", reducer: "count" });
  const chars = await run({ type: "peek", selector: { type: "metadata" } });
  const searchNeedle = await run({ type: "search", pattern: NEEDLE });
  const searchAbsent = await run({ type: "search", pattern: ABSENT });
  const metadata = chars.value;
  const sliceAt = Math.max(0, file.chars - 4096);
  const slice = await run({ type: "slice", start: sliceAt, length: 200 });
  const partition = await run({ type: "partition", strategy: { type: "lines", size: 1000 } }, 4);
  const peakRss = process.resourceUsage().maxRSS * 1024;

  const mbps = (ms: number): string => `${(bytes / MB / (ms / 1000)).toFixed(0)} MB/s`;
  const ms = (value: number): string => (value >= 100 ? value.toFixed(0) : value.toFixed(value >= 1 ? 1 : 3)) + " ms";
  const widths = [38, 10, 11, 12, 40];
  console.log(pad(["", "wall", "throughput", "ours / grep", "result"], widths));
  const row = (name: string, t: { ms: number }, result: string, versus?: { ms: number }, whole = true): void => {
    const ratio = versus === undefined ? "" : `${(t.ms / versus.ms).toFixed(2)}x`;
    console.log(pad([name, ms(t.ms), whole ? mbps(t.ms) : "-", ratio, result], widths));
  };
  row(`grep -c -F ${NEEDLE}`, grepNeedle, `count ${grepNeedle.value.out}`);
  row(`grep -c -F ${ABSENT}`, grepAbsent, `count ${grepAbsent.value.out}`);
  row("registerTextFile (index pass)", register, "", grepAbsent);
  row(`search ${NEEDLE} (max_results 32)`, searchNeedle, summary(searchNeedle.value), grepNeedle);
  row(`search ${ABSENT} (full scan)`, searchAbsent, summary(searchAbsent.value), grepAbsent);
  row("reduce count", count, summary(count.value), undefined, false);
  row("peek metadata", chars, summary(metadata.value), undefined, false);
  row(`slice ${sliceAt} 200`, slice, summary(slice.value), undefined, false);
  row("partition lines(1000), max_results 4", partition, summary(partition.value), undefined, false);
  console.log(
    `\npeak RSS of this process: ${(peakRss / MB).toFixed(0)} MiB (${(rssBefore / MB).toFixed(0)} MiB before the` +
      ` file was registered); the file is ${(bytes / MB).toFixed(0)} MiB`,
  );
  console.log(
    "ours / grep: registration is compared with the full-scan grep; a search with fewer matches than" +
      " max_results reads the whole file, as grep -c does.",
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
