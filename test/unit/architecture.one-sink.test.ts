// Holds "one sink" (ARCHITECTURE.md, cli/src/sink.ts): no CLI source file writes to stdout or
// stderr itself (process.stdout.write, process.stderr.write, console.*, fs.writeSync on 1 or 2);
// each prints through the output sink, which masks keys, strips controls and keeps `::` from
// starting a line. Only the sink and the descriptor writer under it (directOutput.ts) write. The
// rule is shown the code it was written against first, so it can fail.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repositoryRoot, slashed, sourceFiles } from "../support/importGraph";

/** The sink, and the descriptor writer it writes the synchronous commands' output with. */
const WRITERS = new Set(["cli/src/sink.ts", "cli/src/directOutput.ts"]);

/** Comments name the streams in prose; only code counts. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** A write of its own: to a standard stream of the process, through the console, or to descriptor 1 or 2. */
const DIRECT_WRITE =
  /\bprocess\s*\.\s*(?:stdout|stderr)\s*\.\s*write\b|\bconsole\s*\.\s*\w+\s*\(|\bwriteSync\s*\(\s*(?:[12]\b|process\s*\.\s*(?:stdout|stderr)\b)/;

function offenders(): string[] {
  return sourceFiles(join(repositoryRoot, "cli", "src"))
    .map((path) => ({ path, file: slashed(path.slice(repositoryRoot.length + 1)) }))
    .filter(({ file }) => !WRITERS.has(file))
    .filter(({ path }) => DIRECT_WRITE.test(code(readFileSync(path, "utf8"))))
    .map(({ file }) => file);
}

test("the rule catches the direct writes the CLI had before the sink", () => {
  for (const copy of [
    "process.stderr.write(`rlm-plan: internal error: ${message}\\n`);",
    "out: (text) => void process.stdout.write(text),",
    "console.error(error);",
    "writeSync(2, `rlm-plan: ${line}\\n`);",
  ])
    assert.ok(DIRECT_WRITE.test(code(copy)), copy);
  // Naming a stream is not writing to it: main.ts hands process.stdout to the sink.
  assert.ok(!DIRECT_WRITE.test(code("openSink({ stdout: process.stdout, stderr: process.stderr });")));
});

test("the scan reads the CLI's commands, recursively", () => {
  const files = sourceFiles(join(repositoryRoot, "cli", "src")).map((path) =>
    slashed(path.slice(repositoryRoot.length + 1)),
  );
  for (const expected of [
    "cli/src/main.ts",
    "cli/src/runs.ts",
    "cli/src/planTests/printReport.ts",
    "cli/src/queue/workerCommand.ts",
  ])
    assert.ok(files.includes(expected), expected);
});

test("no CLI source file writes to stdout or stderr but through the sink", () => {
  assert.deepEqual(offenders(), []);
});
