// The CLI's output sink (cli/src/sink.ts) against what the commands printed through before it, timed
// in the same process on the same text: the secret mask's stream and the control stripping alone
// (the old guarded stream). The difference is the sink's line guard (no line starting with `::`)
// and its bookkeeping; the mask dominates both. Rows as `runs list` prints them, some holding `::`.
// Nothing asserts on time.
//   npx tsc -b && node bench/out/output-sink.bench.js

import { sessionMask } from "@rlm-plan/core/secrets";
import { terminalText } from "rlm-plan/guardedOutput";
import { openSink } from "rlm-plan/sink";
import { calls, measure } from "./measure";

const env = { OPENAI_API_KEY: "sklive9f8e7d6c5b4a39281706f5e4d3c2b1a0" };
const discard = { write: () => true };

function rows(count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `${String(i).padStart(6)}  ok  2026-12-05 14:22:54Z  7 ms  plans/p${i}.rlmplan.json  test t#case ${i}\n::x\n`,
  ).join("");
}

async function main(): Promise<void> {
  console.log("output sink: ms per write of the whole text (median), ratio to the mask stream + control stripping");
  console.log("rows        MB    sink ms   guarded ms   ratio");
  for (const count of [1_000, 10_000, 40_000]) {
    const text = rows(count);
    const [sink, guarded] = await measure(
      calls(() => {
        const out = openSink({ stdout: discard, stderr: discard }, { env });
        out.stdout.write(text);
        out.end();
      }),
      calls(() => {
        const masked = sessionMask({ env }).stream();
        return terminalText(masked.write(text)) + terminalText(masked.end());
      }),
    );
    console.log(
      `${String(count).padStart(6)} ${(text.length / 1e6).toFixed(2).padStart(7)} ${sink.ms.toFixed(2).padStart(10)} ${guarded.ms.toFixed(2).padStart(12)} ${(sink.ms / guarded.ms).toFixed(2).padStart(7)}x`,
    );
  }
}

void main();
