#!/usr/bin/env node
// `npm run -s conformance -- FILE.jsonl`: one result line per case on stdout, in the format
// the reference's vectors use, so `compare.py` (or compareCase) can score agreement.

import { readFileSync } from "node:fs";
import { exactJsonText } from "@rlm-plan/core/json";
import { runCase, type ConformanceCase } from "./runCase";

async function main(argv: readonly string[]): Promise<number> {
  const file = argv[0];
  if (!file || argv.length > 1) {
    process.stderr.write("usage: conformance FILE.jsonl\n");
    return 2;
  }
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  for (const line of lines) {
    const c = JSON.parse(line) as ConformanceCase;
    process.stdout.write(`${exactJsonText(await runCase(c))}\n`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
