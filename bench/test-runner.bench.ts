// Figures for `rlm-plan test` (`npm run bench:test`): a dataset of 1,000 mocked cases (a tool
// call and a model call each) run with --jobs 8 against --jobs 1 in the same process, twice:
// with mocks that answer after DELAY_MS (as a model or tool does: the case waits, the CPU does
// not) and with mocks that answer at once (pure CPU: on this 2-core machine a single Node
// process runs its JavaScript on one core, so jobs cannot speed that part up). Also the whole
// CLI (`rlm-plan test --jobs 8`) on the delayed dataset, for what a user waits. Nothing asserts.

import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import * as os from "node:os";
import { resolve } from "node:path";
import { loadTestFile, type TestCase } from "@rlm-plan/core/testing/testFile";
import { mockedCases } from "./mockedCases";
import { runCases } from "@rlm-plan/core/testing/testRun";

const CASES = 1000;
const DELAY_MS = 25;
const CLI = resolve(__dirname, "..", "..", "cli", "out", "main.js");

function load(file: string): readonly TestCase[] {
  const loaded = loadTestFile(file);
  if (!loaded.ok) throw new Error(loaded.errors.map((e) => e.message).join("\n"));
  return loaded.suite.cases;
}

async function timedRun(cases: readonly TestCase[], jobs: number): Promise<number> {
  const begun = performance.now();
  const results = await runCases(cases, { jobs });
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`${failed.length} cases failed: ${failed[0]?.failures[0]?.message}`);
  return performance.now() - begun;
}

async function compare(label: string, delayMs: number): Promise<void> {
  const { dir, file } = mockedCases(CASES, delayMs);
  try {
    const cases = load(file);
    await runCases(cases.slice(0, 50), { jobs: 8 }); // warm up
    const one = await timedRun(cases, 1);
    const eight = await timedRun(cases, 8);
    console.log(
      `${label}: ${CASES} cases, --jobs 1 ${(one / 1000).toFixed(2)} s (${(one / CASES).toFixed(1)} ms a case), --jobs 8 ${(eight / 1000).toFixed(2)} s: ${(one / eight).toFixed(1)}x`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}`);
  await compare(`mocks answering after ${DELAY_MS} ms (2 calls a case)`, DELAY_MS);
  await compare("mocks answering at once (CPU only)", 0);
  const { dir } = mockedCases(CASES, DELAY_MS);
  try {
    for (const jobs of [1, 8]) {
      const begun = performance.now();
      const run = spawnSync(process.execPath, [CLI, "test", "--jobs", String(jobs), "--json"], {
        cwd: dir,
        encoding: "utf8",
      });
      const ms = performance.now() - begun;
      const summary = (JSON.parse(run.stdout) as { summary: { passed: number } }).summary;
      console.log(
        `rlm-plan test --jobs ${jobs} (whole CLI, delayed mocks): ${(ms / 1000).toFixed(2)} s, ${summary.passed} passed`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
