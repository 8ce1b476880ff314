// Plans and host profiles that are not regular files, or are too big: a FIFO, /dev/zero and an
// oversized file are refused at once, with the reason, by check, graph, run and propose, and by the
// readers themselves.

import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { readTextFile, readTextFileSync } from "@rlm-plan/core/text/boundedFile";
import { childOutput } from "../support/childOutput";
import { CLI } from "../support/cliWorkspace";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-special-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const FIFO = join(dir, "plan.fifo");
execFileSync("mkfifo", [FIFO]);
const PLAN = join(dir, "ok.rlmplan.json");
writeFileSync(PLAN, '{"steps":[{"op":"final","value":1}]}');

function cli(args: readonly string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  return childOutput(child);
}

const CASES: readonly [string, readonly string[], number, string][] = [
  [
    "check a FIFO",
    ["check", FIFO],
    1,
    `rlm-plan: cannot read ${FIFO}: it is a FIFO (named pipe), not a regular file\n`,
  ],
  [
    "check /dev/zero",
    ["check", "/dev/zero"],
    1,
    "rlm-plan: cannot read /dev/zero: it is a character device, not a regular file\n",
  ],
  [
    "graph a FIFO",
    ["graph", FIFO],
    1,
    `rlm-plan: cannot read ${FIFO}: it is a FIFO (named pipe), not a regular file\n`,
  ],
  [
    "graph /dev/zero",
    ["graph", "/dev/zero"],
    1,
    "rlm-plan: cannot read /dev/zero: it is a character device, not a regular file\n",
  ],
  [
    "run a FIFO",
    ["run", FIFO, "--host", PLAN],
    2,
    `rlm-plan: cannot read the plan ${FIFO}: it is a FIFO (named pipe), not a regular file\n`,
  ],
  [
    "run with /dev/zero as the host profile",
    ["run", PLAN, "--host", "/dev/zero"],
    2,
    "rlm-plan: host profile /dev/zero\n/dev/zero:1:1: cannot read the host profile: it is a character device, not a regular file\n",
  ],
  [
    "propose with a FIFO as the host profile",
    ["propose", "goal", "--provider", "p", "--host", FIFO],
    2,
    // Named relative to the working folder, as run names it; the error line gives the file as given.
    `rlm-plan propose: host profile plan.fifo\n${FIFO}:1:1: error: cannot read the host profile: it is a FIFO (named pipe), not a regular file\n`,
  ],
];

for (const [name, args, code, stderr] of CASES) {
  test(`${name} is refused at once`, async () => {
    const result = await cli(args);
    assert.equal(result.stderr.replace(/^rlm-plan: no host profile.*\n/, ""), stderr);
    assert.equal(result.code, code);
  });
}

test("the readers refuse a file over the limit, and read one at the limit", async () => {
  const file = join(dir, "big.json");
  writeFileSync(file, "x".repeat(100));
  assert.equal(readTextFileSync(file, 100), "x".repeat(100));
  assert.equal(await readTextFile(file, 100), "x".repeat(100));
  assert.throws(() => readTextFileSync(file, 99), { message: "it has 100 bytes or more, over the limit of 99" });
  await assert.rejects(readTextFile(file, 99), { message: "it has 100 bytes or more, over the limit of 99" });
});

test("a byte order mark is dropped", () => {
  const file = join(dir, "bom.json");
  writeFileSync(file, "\ufeff{}");
  assert.equal(readTextFileSync(file, 100), "{}");
});
