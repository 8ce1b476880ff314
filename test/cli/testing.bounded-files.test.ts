// What `rlm-plan test` reads is capped before it is read, and datasets are streamed line by line
// (text/boundedFile.ts): each limit is refused with a message naming the file and the limit. The
// files over a limit are sparse (no disk, no time); the control is a small dataset whose rows
// cross the reader's 64 KiB pieces, with a byte order mark, CRLF and a blank line, run for real.
// RLM_PLAN_HOSTILE=1 adds the sizes: 1.2 million rows (100 MB) listed and a shard of them
// run, and a real 200 MB cassette refused before it is read (figures in the report, not asserted).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, openSync, truncateSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { CLI, cliWorkspace } from "../support/cliWorkspace";

const MiB = 1024 * 1024;
const ws = cliWorkspace("bounded-files");
ws.write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: [],
    budget: { max_output_bytes: 1_000_000 },
    inputs: { v: { type: "value", value: 0 } },
  }),
);
ws.write("p.rlmplan.json", JSON.stringify({ steps: [{ op: "final", value: { ref: "input", name: "v" } }] }));

/** A test file of one dataset (and, if given, a cassette), run with `expect`. */
function datasetTest(name: string, file: string, expect: object, cassette?: string): string {
  return ws.write(
    `${name}.rlmplan.test.json`,
    JSON.stringify({ plan: "p.rlmplan.json", ...(cassette ? { cassette } : {}), dataset: { file, expect } }),
  );
}

/** A sparse file of `bytes` bytes. */
function sparse(path: string, bytes: number): void {
  truncateSync(ws.write(path, ""), bytes);
}

describe("rlm-plan test: bounded reads", () => {
  test("control: rows across the reader's pieces, BOM, CRLF and a blank line, each case its own inputs", () => {
    const long = "x".repeat(70_000);
    ws.write("rows.jsonl", `\ufeff{"v": "${long}"}\r\n\n{"v": 2}\r\n{"v": "é${long}"}`);
    datasetTest("control", "rows.jsonl", { value: { schema: { anyOf: [{ type: "number" }, { minLength: 70000 }] } } });
    const listed = ws.cli("test", "control.rlmplan.test.json", "--list", "--no-journal");
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      listed.stdout.split("\n").map((line) => line.split("  ")[1]),
      [
        "control.rlmplan.test.json#rows.jsonl:1",
        "control.rlmplan.test.json#rows.jsonl:3",
        "control.rlmplan.test.json#rows.jsonl:4",
        undefined,
        undefined,
      ],
    );
    const run = ws.cli("test", "control.rlmplan.test.json", "--json", "--no-journal");
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { summary: { passed: number } };
    assert.equal(report.summary.passed, 3);
    // The values are the rows' own: checked exactly through a failing expectation's actual value.
    datasetTest("values", "rows.jsonl", { value: { equals: 2 } });
    const values = JSON.parse(ws.cli("test", "values.rlmplan.test.json", "--json", "--no-journal").stdout) as {
      cases: { failures: { actual?: unknown }[] }[];
    };
    assert.deepEqual(
      values.cases.map((c) => c.failures[0]?.actual),
      [long, undefined, `é${long}`],
    );
  });

  test("a dataset over 256 MiB is refused before it is read, naming the file and the limit", () => {
    sparse("huge.jsonl", 256 * MiB + 1);
    datasetTest("huge", "huge.jsonl", {});
    const run = ws.cli("test", "huge.rlmplan.test.json", "--list", "--no-journal");
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr.split("\n")[0],
      `huge.jsonl:1:1: error: cannot read the dataset: it has ${256 * MiB + 1} bytes or more, over the limit of ${256 * MiB}`,
    );
  });

  test("a dataset line over 1 MiB is refused at its line", () => {
    ws.write("wide.jsonl", `{"v": 1}\n{"v": 2}\n{"v": "${"x".repeat(MiB)}"}\n{"v": 4}\n`);
    datasetTest("wide", "wide.jsonl", {});
    const run = ws.cli("test", "wide.rlmplan.test.json", "--list", "--no-journal");
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr.split("\n")[0],
      `wide.jsonl:3:1: error: cannot read the dataset: line 3 has more than ${MiB} bytes, over the limit of a line`,
    );
  });

  test("a cassette over 16 MiB is refused before it is read, naming the file and the limit", () => {
    ws.write("one.jsonl", '{"v": 1}\n');
    sparse("big.cassette.json", 16 * MiB + 1);
    datasetTest("taped", "one.jsonl", {}, "big.cassette.json");
    const run = ws.cli("test", "taped.rlmplan.test.json", "--replay", "--json", "--no-journal");
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout) as { cases: { failures: { message: string }[] }[] };
    assert.ok(
      report.cases[0]?.failures.some((f) =>
        f.message.endsWith(
          `big.cassette.json:1:1: cannot read the cassette: it has ${16 * MiB + 1} bytes or more, over the limit of ${16 * MiB}`,
        ),
      ),
      JSON.stringify(report.cases[0]?.failures),
    );
  });

  test("a test file over 16 MiB is refused before it is read, naming the file and the limit", () => {
    sparse("fat.rlmplan.test.json", 16 * MiB + 1);
    const run = ws.cli("test", "fat.rlmplan.test.json", "--list", "--no-journal");
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr.split("\n")[0],
      `fat.rlmplan.test.json:1:1: error: cannot read the test file: it has ${16 * MiB + 1} bytes or more, over the limit of ${16 * MiB}`,
    );
  });
});

describe(
  "rlm-plan test: the issue's sizes",
  { skip: process.env.RLM_PLAN_HOSTILE !== "1" && "RLM_PLAN_HOSTILE=1" },
  () => {
    test("1.2 million rows (100 MB): listed, and a shard of them run", () => {
      const fd = openSync(join(ws.dir, "million.jsonl"), "w");
      const pad = "x".repeat(60);
      for (let start = 0; start < 1_200_000; start += 10_000) {
        const rows = Array.from({ length: 10_000 }, (_, i) => JSON.stringify({ v: `row ${start + i} ${pad}` }));
        writeSync(fd, `${rows.join("\n")}\n`);
      }
      closeSync(fd);
      datasetTest("million", "million.jsonl", { value: { schema: { type: "string" } } });
      // 1.2 million lines of listing: past runCli's buffer.
      const listed = spawnSync(process.execPath, [CLI, "test", "million.rlmplan.test.json", "--list", "--no-journal"], {
        cwd: ws.dir,
        encoding: "utf8",
        maxBuffer: 512 * MiB,
      });
      assert.equal(listed.status, 0, listed.stderr);
      assert.match(listed.stdout, /\n1200000 cases in 1 file; /);
      const run = ws.cli("test", "million.rlmplan.test.json", "--shard", "1/1000", "--no-journal");
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^1200 passed, 0 failed \(1200 cases, /m);
    });

    test("a real 200 MB cassette is refused before it is read", () => {
      const fd = openSync(join(ws.dir, "real.cassette.json"), "w");
      const entry = JSON.stringify({
        request: { kind: "tool", tool: "t", args: { q: "x".repeat(900) } },
        reply: { value: "y" },
      });
      writeSync(fd, '{"version": 1, "recorded": "2026-01-01T00:00:00Z", "entries": [\n');
      for (let i = 0; i < 200; i++)
        writeSync(fd, `${Array.from({ length: 1000 }, () => entry).join(",\n")}${i < 199 ? ",\n" : "\n"}`);
      writeSync(fd, "]}\n");
      closeSync(fd);
      writeFileSync(join(ws.dir, "one.jsonl"), '{"v": 1}\n');
      datasetTest("real", "one.jsonl", {}, "real.cassette.json");
      const run = ws.cli("test", "real.rlmplan.test.json", "--replay", "--no-journal");
      assert.equal(run.code, 1, run.stderr);
      assert.match(
        run.stdout,
        /real\.cassette\.json:1:1: cannot read the cassette: it has \d+ bytes or more, over the limit of 16777216/,
      );
    });
  },
);
