// Every case the reference produced, run through our runtime and scored as compare.py scores:
// all hard cases must agree; soft cases (accidents of SWI-Prolog) are reported, not scored.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { parseExactJson } from "@rlm-plan/core/json";
import { runCase, type ConformanceCase } from "./support/runCase";
import { diffCase, isSoft, type CorpusCase, type Json } from "./compare";

/** The two corpora and how many cases each holds. */
const CORPORA = [
  { file: "public.jsonl", cases: 389 },
  { file: "public-v2.jsonl", cases: 1722 },
] as const;

/**
 * A corpus line as a host would pass the case (JSON.parse), with the reference's answer read
 * exactly: its estimates go beyond 2^53.
 */
function corpusCase(line: string): CorpusCase {
  const c = JSON.parse(line) as CorpusCase;
  const exact = parseExactJson(line) as { expected: CorpusCase["expected"] };
  return { ...c, expected: exact.expected };
}

/** Where every soft difference is written down, with what we do instead. */
const DOCS = readFileSync(join(__dirname, "..", "..", "..", "docs", "conformance.md"), "utf8");

for (const corpus of CORPORA) {
  const cases = readFileSync(join(__dirname, "..", "..", "fixtures", "conformance", corpus.file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(corpusCase);

  describe(corpus.file, () => {
    const softDifferences: string[] = [];
    test(`holds the ${corpus.cases} reference cases`, () => {
      assert.equal(cases.length, corpus.cases);
    });

    for (const c of cases) {
      const soft = isSoft(c);
      test(`${c.id}${soft ? " (soft)" : ""}`, async (t) => {
        const actual = (await runCase(c as unknown as ConformanceCase)) as unknown as { [key: string]: Json };
        const differences = diffCase(c.expected, actual);
        if (soft) {
          if (differences.length > 0) {
            softDifferences.push(c.id);
            t.diagnostic(`soft case differs: ${differences.join("; ")}`);
          }
          return;
        }
        assert.deepEqual(differences, [], `${c.id}: ${String(c.note ?? "")}`);
      });
    }

    // Runs after every case above (tests of a suite run in order).
    test("every soft case that differs is documented in docs/conformance.md", () => {
      const undocumented = softDifferences
        .map((id) => id.replace(/-s\d+$/, ""))
        .filter((id) => !new RegExp(`\\b${id}\\b`).test(DOCS));
      assert.deepEqual(undocumented, []);
    });
  });
}
