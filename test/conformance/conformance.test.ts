// Every case the reference produced, run through our runtime and scored as compare.py scores:
// all hard cases must agree; soft cases (accidents of SWI-Prolog) are reported, not scored.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCase, type ConformanceCase } from "@rlm-plan/shared-runtime/out/conformance/runCase";
import { diffCase, isSoft, type CorpusCase, type Json } from "./compare";

const corpusFile = join(__dirname, "..", "..", "fixtures", "conformance", "public.jsonl");
const cases = readFileSync(corpusFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as CorpusCase);

test("the corpus holds the 389 reference cases", () => {
  assert.equal(cases.length, 389);
});

for (const c of cases) {
  const soft = isSoft(c);
  test(`${c.id}${soft ? " (soft)" : ""}`, async (t) => {
    const actual = (await runCase(c as unknown as ConformanceCase)) as unknown as { [key: string]: Json };
    const differences = diffCase(c.expected, actual);
    if (soft) {
      if (differences.length > 0) t.diagnostic(`soft case differs: ${differences.join("; ")}`);
      return;
    }
    assert.deepEqual(differences, [], `${c.id}: ${String(c.note ?? "")}`);
  });
}
