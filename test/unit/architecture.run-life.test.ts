// Holds "the session owns a run's life" (issue 35 item 1; ARCHITECTURE.md): a front end (cli/,
// server/, debug-adapter/, client/) never reads a recorded run's details itself, never starts or
// continues a journal entry (RunRecorder.begin/resume), never resumes or replays from the journal
// itself (a resume point, recorded replies), and writes no SQL; the core's session
// (`resume`, `replay`, recordedRun.ts) and journal/ do. The scanner is shown a planted offender of
// each kind first, so it can fail.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { sourceFiles } from "../support/importGraph";

const root = join(__dirname, "..", "..", "..");
const FRONT_ENDS = ["cli/src", "server/src", "debug-adapter/src", "client/src"];

const ACTS: readonly { readonly act: string; readonly pattern: RegExp }[] = [
  { act: "parses a recorded run's details", pattern: /JSON\.parse\([^;]*?\.details\b/ },
  { act: "starts or continues a journal entry", pattern: /\bRunRecorder\s*\.\s*(?:begin|resume)\s*\(/ },
  {
    act: "resumes or replays from the journal itself",
    pattern: /\b(?:resumePoint|recordedRun|checkSameInputs|replayMocks|callsBefore)\s*\(|\bnew\s+RecordedReplies\s*\(/,
  },
  {
    act: "writes SQL",
    pattern:
      /\.\s*(?:prepare|exec|pragma)\s*\(\s*["'`]|["'`]\s*(?:SELECT\s[\s\S]*?\sFROM\s|INSERT\s+(?:OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(?:TABLE|INDEX)\s)/,
  },
];

/** Comments say what other modules do; only code counts. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

function offences(file: string, text: string): string[] {
  const body = code(text);
  return ACTS.filter(({ pattern }) => pattern.test(body)).map(({ act }) => `${file} ${act}`);
}

test("the scanner finds each act, and not in comments", () => {
  assert.deepEqual(offences("x.ts", "const o = (JSON.parse(point.run.details) as X).options;"), [
    "x.ts parses a recorded run's details",
  ]);
  assert.deepEqual(offences("x.ts", "const r = RunRecorder.resume(store, point, meta);"), [
    "x.ts starts or continues a journal entry",
  ]);
  assert.deepEqual(offences("x.ts", "const r = new RecordedReplies(callsBefore(recordedRun(store, 3), at), mask);"), [
    "x.ts resumes or replays from the journal itself",
  ]);
  assert.deepEqual(offences("x.ts", 'store.db.prepare("SELECT id FROM runs WHERE origin = ?").get(o);'), [
    "x.ts writes SQL",
  ]);
  assert.deepEqual(offences("x.ts", "const q = `DELETE FROM runs WHERE id = ${id}`;"), ["x.ts writes SQL"]);
  assert.deepEqual(
    offences("x.ts", "// RunRecorder.begin(store, meta) and JSON.parse(run.details) are the core's\nconst a = 1;"),
    [],
  );
  // Words in messages and help are not SQL; a parsed detail the core handed over is not a parse.
  assert.deepEqual(
    offences("x.ts", 'say("select a run from the list"); const d = run.details as Record<string, unknown>;'),
    [],
  );
});

test("no front end parses a run's details, starts a journal entry or writes SQL: the session and journal/ do", () => {
  const found = FRONT_ENDS.flatMap((dir) =>
    sourceFiles(join(root, dir)).flatMap((path) =>
      offences(relative(root, path).split("\\").join("/"), readFileSync(path, "utf8")),
    ),
  );
  assert.deepEqual(found, []);
});
