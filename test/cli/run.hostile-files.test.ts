// Files that would hang or swamp `rlm-plan run`, through the built CLI as a child process: a mocks
// file that is a FIFO (it blocked forever, deaf to Ctrl-C), /dev/zero (2 GB read in 15 s), a file
// over the size limit (a 126 MB one took 37 s and 3.5 GB; a sparse file stands in for it here), a
// mocks file or an items file nested too deep (each was told to "flatten the plan"), and an items-file input that is
// a FIFO. Each is refused at once with a message naming what the file is.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { openSync, closeSync, ftruncateSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cliWorkspace } from "../support/cliWorkspace";

const { dir, write, cli } = cliWorkspace("hostile-files");
write("rlmplan.host.json", JSON.stringify({ capabilities: [] }));
write("ok.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: 1 }] }));
execFileSync("mkfifo", [join(dir, "fifo.json")]);

const HOST_LINE = "rlm-plan: host profile rlmplan.host.json\n";

test("--mocks on a FIFO, /dev/zero, an oversized file: refused at once, exit 2", () => {
  const big = join(dir, "big.json");
  const fd = openSync(big, "w");
  ftruncateSync(fd, 126 * 1024 * 1024);
  closeSync(fd);
  const cases: [string, string][] = [
    ["fifo.json", "fifo.json:1:1: cannot read the mocks file: it is a FIFO (named pipe), not a regular file\n"],
    ["/dev/zero", "/dev/zero:1:1: cannot read the mocks file: it is a character device, not a regular file\n"],
    [
      "big.json",
      "big.json:1:1: cannot read the mocks file: it has 132120576 bytes or more, over the limit of 16777216\n",
    ],
  ];
  for (const [mocks, message] of cases) {
    const run = cli("run", "ok.rlmplan.json", "--mocks", mocks);
    assert.equal(run.code, 2, mocks);
    assert.equal(run.stderr, HOST_LINE + message);
  }
});

test("a mocks file nested too deep is told so, not to flatten a plan", () => {
  write("deep.json", `{"tools":{"t":[{"answer":${"[".repeat(1500)}${"]".repeat(1500)}}]}}`);
  const run = cli("run", "ok.rlmplan.json", "--mocks", "deep.json");
  assert.equal(run.code, 2);
  assert.equal(
    run.stderr,
    `${HOST_LINE}deep.json:1:1022: JSON nested too deep (over 1000 levels): the mocks file is not read\n`,
  );
  // `check` of a mocks file says the same, as an error of that file.
  write("deep.mocks.json", `{"tools":{"t":[{"answer":${"[".repeat(1500)}${"]".repeat(1500)}}]}}`);
  const checked = cli("check", "deep.mocks.json");
  assert.equal(checked.code, 1);
  assert.equal(
    checked.stdout,
    "deep.mocks.json:1:1022: error: JSON nested too deep (over 1000 levels): the mocks file is not read [invalid_mocks]\ndeep.mocks.json: 1 error\n",
  );
});

test("an items-file input that is a FIFO: a host error at once (it blocked a thread for ever)", () => {
  write(
    "items.host.json",
    JSON.stringify({ capabilities: [], inputs: { rows: { type: "items-file", path: "fifo.json" } } }),
  );
  write("items.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: { ref: "input", name: "rows" } }] }));
  const run = cli("run", "items.rlmplan.json", "--host", "items.host.json");
  assert.equal(run.code, 2, run.stderr);
  assert.equal(
    run.stderr,
    `rlm-plan: host profile items.host.json\nitems.host.json:1:65: cannot read "fifo.json" for input "rows": it is a FIFO (named pipe), not a regular file\n`,
  );
});

test("an items file nested too deep is told what it is, not to flatten a plan", () => {
  write("deep.jsonl", `${"[".repeat(1500)}${"]".repeat(1500)}\n`);
  write(
    "deep.host.json",
    JSON.stringify({ capabilities: [], inputs: { rows: { type: "items-file", path: "deep.jsonl", format: "jsonl" } } }),
  );
  write("deep.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: { ref: "input", name: "rows" } }] }));
  const run = cli("run", "deep.rlmplan.json", "--host", "deep.host.json");
  assert.equal(run.code, 2, run.stderr);
  assert.equal(
    run.stderr,
    "rlm-plan: host profile deep.host.json\ndeep.jsonl:1:1001: line 1 of deep.jsonl is not JSON (JSON nested more than 1000 levels deep): each line of a jsonl file holds one JSON value\n",
  );
});
