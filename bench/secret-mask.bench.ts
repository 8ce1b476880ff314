// The secret mask (shared-runtime/src/mask/secretMask.ts) on ordinary and hostile text of growing size,
// against a baseline timed in the same process: a case-insensitive regular expression search for
// the key itself (what a plain literal mask costs). Growth near ×4 per ×4 of text means linear
// time; the hostile texts (runs of escapes, backslashes, entities, colour codes, key fragments)
// are the ones a backtracking matcher would choke on. Nothing asserts on time.
//   npx tsc -b && node bench/out/secret-mask.bench.js

import { SecretMask } from "@rlm-plan/core/mask/secretMask";
import { calls, measure } from "./measure";

const KEY = "sk-SENTINEL-abc123XYZ789qq";
const mask = new SecretMask([KEY]);
const literal = new RegExp(KEY.replace(/-/g, "\\-"), "gi");

const TEXTS: Record<string, (size: number) => string> = {
  prose: (size) => "hello world, this is a normal line of output.\n".repeat(Math.ceil(size / 46)).slice(0, size),
  json: (size) =>
    JSON.stringify(Array.from({ length: Math.ceil(size / 24) }, (_, i) => ({ id: i, v: "text" }))).slice(0, size),
  "key fragments": (size) => "sk-SENTINEL-abc1 ".repeat(Math.ceil(size / 17)).slice(0, size),
  "%-escapes": (size) => "%41%4".repeat(Math.ceil(size / 5)).slice(0, size),
  backslashes: (size) => "a\\".repeat(Math.ceil(size / 2)).slice(0, size),
  "&#-entities": (size) => "&#".repeat(Math.ceil(size / 2)).slice(0, size),
  "ESC [": (size) => "\u001b[".repeat(Math.ceil(size / 2)).slice(0, size),
};

async function main(): Promise<void> {
  console.log("secret mask: ms per call (median), ratio to a literal regex search, growth per 4x of text");
  console.log("text            size     mask ms   regex ms   ratio   growth");
  for (const [name, make] of Object.entries(TEXTS)) {
    let previous: number | undefined;
    for (const size of [64 * 1024, 256 * 1024, 1024 * 1024]) {
      const text = make(size);
      const [ours, baseline] = await measure(
        calls(() => mask.mask(text)),
        calls(() => text.replace(literal, "***")),
      );
      const growth = previous === undefined ? "" : `x${(ours.ms / previous).toFixed(2)}`;
      previous = ours.ms;
      console.log(
        `${name.padEnd(14)} ${String(size / 1024).padStart(5)} KB ${ours.ms.toFixed(2).padStart(9)} ${baseline.ms.toFixed(3).padStart(10)} ${(ours.ms / baseline.ms).toFixed(1).padStart(7)}x ${growth.padStart(8)}`,
      );
    }
  }
}

void main();
