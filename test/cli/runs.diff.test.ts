// `rlm-plan runs diff A B` after real `rlm-plan run` processes: two mocked runs of a five-step plan
// that differ at step 4 (another tool answer), identical runs, a plan edited between runs, the
// JSON shape, the Markdown summary with hostile values escaped, and usage errors (exit 2).

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace, runCliAsync } from "../support/cliWorkspace";

const ws = cliWorkspace("runs-diff");
ws.write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(lookup)", "tool(score)", "checkpoint"],
    // Never started: mocks answer every call.
    tools: {
      lookup: { type: "command", command: ["node", "absent.js"] },
      score: { type: "command", command: ["node", "absent.js"] },
    },
  }),
);
const FIVE = [
  { op: "tool", name: "lookup", args: { q: "a" }, bind: "a" },
  { op: "tool", name: "lookup", args: { q: "b" }, bind: "b" },
  { op: "checkpoint", label: "looked up" },
  { op: "tool", name: "score", args: { a: { ref: "var", name: "a" } }, bind: "s" },
  { op: "final", value: { score: { ref: "var", name: "s" }, b: { ref: "var", name: "b" } } },
];
const planText = (steps: readonly object[]) =>
  `{\n  "steps": [\n${steps.map((s) => `    ${JSON.stringify(s)}`).join(",\n")}\n  ]\n}\n`;
ws.write("five.rlmplan.json", planText(FIVE));
const mocks = (score: unknown) =>
  JSON.stringify({ tools: { lookup: [{ value: "A" }, { value: "B" }], score: [score] } });
ws.write("one.mocks.json", mocks({ value: 1 }));
ws.write("two.mocks.json", mocks({ value: 2 }));
const HOSTILE = "</td>| @admin *x* [l](http://e.invalid) $x$ :smile:\n::error::pwned `c`";
ws.write("hostile.mocks.json", mocks({ value: HOSTILE }));
ws.write("failing.mocks.json", mocks({ error: { message: "|@t <b>\n::x" } }));

const run = (plan: string, mocksFile: string): number => {
  const result = ws.cli("run", plan, "--mocks", mocksFile);
  const id = /recorded as run (\d+)/.exec(result.stderr)?.[1];
  assert.ok(id, result.stderr);
  return Number(id);
};
/** Timing is shown, never compared: written as N here. */
/** Times as "N ms", the table's columns kept where they were (a wider time had less padding). */
const timeless = (text: string) =>
  text.replace(/(\d+) ms( *)/g, (_all, digits: string, pad: string) =>
    pad === "" ? "N ms" : `N ms${" ".repeat(digits.length - 1 + pad.length)}`,
  );

const first = run("five.rlmplan.json", "one.mocks.json");
const second = run("five.rlmplan.json", "two.mocks.json");
const again = run("five.rlmplan.json", "one.mocks.json");
const hostile = run("five.rlmplan.json", "hostile.mocks.json");
const failing = run("five.rlmplan.json", "failing.mocks.json");
ws.write(
  "five.rlmplan.json",
  planText([
    ...FIVE.slice(0, 4),
    { op: "tool", name: "score", args: { b: { ref: "var", name: "b" } }, bind: "t" },
    FIVE[4] as object,
  ]),
);
ws.write("one.mocks.json", mocks({ value: 1 }).replace('"score":[{"value":1}]', '"score":[{"value":1},{"value":3}]'));
const edited = run("five.rlmplan.json", "one.mocks.json");

describe("runs diff", () => {
  test("two runs that differ at step 4: it is the first divergence, each difference shown, exit 1", () => {
    const result = ws.cli("runs", "diff", String(first), String(second));
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stderr, "rlm-plan: journal .rlm-plan/runs.sqlite\n");
    assert.equal(
      timeless(result.stdout),
      `run 1 (ok, mocked, N ms) against run 2 (ok, mocked, N ms): 2 of 5 steps differ (2 changed, 0 added, 0 removed)
plan: five.rlmplan.json (sha256 ${sha(planText(FIVE)).slice(0, 12)}), the same in both
first divergence: five.rlmplan.json:6:5 /steps/3 tool(score): value

STEP      OPERATION    CHANGE   WHAT   RUN 1                                    RUN 2
/steps/3  tool(score)  changed  value  sha256 6b86b273ff34 1                    sha256 d4735e3a265e 2
                                time   N ms                                     N ms
/steps/4  final        changed  value  sha256 4b363ab6ef6c {"b":"B","score":1}  sha256 e4ef5ca3c04e {"b":"B","score":2}
                                time   N ms                                     N ms

run 1: ok, value sha256 4b363ab6ef6c {"b":"B","score":1}
run 2: ok, value sha256 e4ef5ca3c04e {"b":"B","score":2}
`,
    );
  });

  test("identical runs: no differences, exit 0", () => {
    const result = ws.cli("runs", "diff", String(first), String(again));
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^run 1 \(ok, mocked, \d+ ms\) against run 3 \(ok, mocked, \d+ ms\): no differences \(5 steps alike\)\n/,
    );
    assert.doesNotMatch(result.stdout, /STEP/);
  });

  test("a failed step: its status, error and calls, and the steps after it not run", () => {
    const result = ws.cli("runs", "diff", String(first), String(failing));
    assert.equal(result.code, 1);
    const lines = timeless(result.stdout).split("\n");
    // A request's key is the SHA-256 of its canonical JSON (the arguments and tool of the recorded call).
    const SCORE_A = sha('{"arguments":{"a":"A"},"kind":"tool","tool":"score"}').slice(0, 8);
    assert.deepEqual(lines.slice(2, 12), [
      "first divergence: five.rlmplan.json:6:5 /steps/3 tool(score): status, error, value, calls",
      "",
      "STEP      OPERATION    CHANGE   WHAT    RUN 1                                    RUN 5",
      "/steps/3  tool(score)  changed  status  ok                                       failed",
      '                                error   -                                        [execute/tool_error] tool "score" failed: |@t <b>\\n::x',
      "                                value   sha256 6b86b273ff34 1                    -",
      `                                calls   tool score x1; requests ${SCORE_A}         tool score x1 (1 failed); requests ${SCORE_A}`,
      "                                time    N ms                                     N ms",
      "/steps/4  final        changed  status  ok                                       not run",
      '                                value   sha256 4b363ab6ef6c {"b":"B","score":1}  -',
    ]);
  });

  test("a plan edited between the runs: the step at a moved path changed, the new path added", () => {
    const result = ws.cli("runs", "diff", String(first), String(edited));
    assert.equal(result.code, 1);
    const text = timeless(result.stdout);
    assert.match(text, /: 2 of 6 steps differ \(1 changed, 1 added, 0 removed\)\n/);
    assert.match(
      text,
      /\nplan: five\.rlmplan\.json \(sha256 [0-9a-f]{12}\) against five\.rlmplan\.json \(sha256 [0-9a-f]{12}\)\n/,
    );
    assert.match(
      text,
      /\nfirst divergence: five\.rlmplan\.json:7:5 \/steps\/4 tool\(score\): operation, value, calls\n/,
    );
    assert.match(text, /\n\/steps\/4 +tool\(score\) +changed +operation +final +tool\(score\) -> t\n/);
    assert.match(text, /\n\/steps\/5 +final +added +step +- +ok\n/);
    const back = ws.cli("runs", "diff", String(edited), String(first));
    assert.match(timeless(back.stdout), /\n\/steps\/5 +final +removed +step +ok +-\n/);
  });

  test("--json: the whole comparison", () => {
    const result = ws.cli("runs", "diff", String(first), String(second), "--json");
    assert.equal(result.code, 1);
    // Timing is written 0 and request keys (SHA-256s, checked for their form) K: the rest is exact.
    const json = JSON.parse(result.stdout, (key, value: unknown) => {
      if (key === "elapsedMs" || key === "durationMs") return typeof value === "number" ? 0 : value;
      if (key === "requests") return (value as string[]).map((k) => (assert.match(k, /^[0-9a-f]{64}$/), "K"));
      return value;
    }) as Record<string, unknown>;
    const planDigest = sha(planText(FIVE));
    // A value's hash is the SHA-256 of its canonical JSON (sorted keys), its preview that text.
    const v = (canonical: string) => ({ sha256: sha(canonical), preview: canonical });
    const outcome = (operation: string, bind: string | null, line: number, value: unknown, calls: unknown[]) => ({
      status: "ok",
      operation,
      bind,
      line,
      column: 5,
      attempts: 1,
      failedAttempts: 0,
      branches: null,
      error: null,
      value,
      calls,
      requests: calls.length === 0 ? [] : ["K"],
      durationMs: 0,
      usage: null,
    });
    const lookup = [{ kind: "tool", name: "lookup", model: null, count: 1, failed: 0 }];
    const score = [{ kind: "tool", name: "score", model: null, count: 1, failed: 0 }];
    const same = (n: number, o: object) => ({
      path: ["steps", n],
      pointer: `/steps/${n}`,
      change: "same",
      differs: [],
      a: o,
      b: o,
    });
    const changed = (n: number, a: object, b: object) => ({
      path: ["steps", n],
      pointer: `/steps/${n}`,
      change: "changed",
      differs: ["value"],
      a,
      b,
    });
    const run = (id: number, value: unknown) => ({
      id,
      status: "ok",
      plan: "five.rlmplan.json",
      planFile: join(realpathSync(ws.dir), "five.rlmplan.json"),
      planDigest,
      mocked: true,
      elapsedMs: 0,
      value,
      error: null,
      usage: null,
      currency: null,
    });
    const step3 = changed(
      3,
      outcome("tool(score)", "s", 6, v("1"), score),
      outcome("tool(score)", "s", 6, v("2"), score),
    );
    assert.deepEqual(json, {
      a: run(1, v('{"b":"B","score":1}')),
      b: run(2, v('{"b":"B","score":2}')),
      agree: false,
      samePlan: true,
      firstDivergence: step3,
      steps: [
        same(0, outcome("tool(lookup)", "a", 3, v('"A"'), lookup)),
        same(1, outcome("tool(lookup)", "b", 4, v('"B"'), lookup)),
        same(2, outcome("checkpoint", null, 5, null, [])),
        step3,
        changed(
          4,
          outcome("final", null, 7, v('{"b":"B","score":1}'), []),
          outcome("final", null, 7, v('{"b":"B","score":2}'), []),
        ),
      ],
      summary: { steps: 5, same: 3, changed: 2, added: 0, removed: 0 },
    });
    const formatJson = ws.cli("runs", "diff", String(first), String(second), "--format", "json");
    assert.equal(formatJson.code, 1);
    assert.equal(
      formatJson.stdout.replace(/"(elapsedMs|durationMs)": \d+/g, ""),
      result.stdout.replace(/"(elapsedMs|durationMs)": \d+/g, ""),
    );
  });

  test("--format github: a Markdown summary, hostile values escaped into their cells", () => {
    const result = ws.cli("runs", "diff", String(first), String(hostile), "--format", "github");
    assert.equal(result.code, 1);
    const lines = timeless(result.stdout).split("\n");
    assert.equal(
      lines[0],
      "### Run 1 (ok, mocked, N ms) against Run 4 (ok, mocked, N ms): 2 of 5 steps differ (2 changed, 0 added, 0 removed)",
    );
    assert.equal(lines[4], "First divergence: five.rlmplan.json\\:6\\:5 /steps/3 tool(score)\\: value");
    assert.equal(lines[6], "| Step | Operation | Change | What | Run 1 | Run 4 |");
    assert.equal(lines[7], "| --- | --- | --- | --- | --- | --- |");
    assert.equal(
      lines[8],
      `| /steps/3 | tool(score) | changed | value | sha256 6b86b273ff34 1 | sha256 ${sha(JSON.stringify(HOSTILE)).slice(0, 12)} "&lt;/td&gt;&#124; &#64;admin \\*x\\* \\[l\\](http\\://e.invalid)… |`,
    );
    // Nothing the plan's values hold becomes markup, a mention, a workflow command or a second line of a cell.
    for (const line of lines) {
      assert.doesNotMatch(line, /^::/);
      assert.doesNotMatch(line, /<\/?td>|(?<!&#64;)@admin|[^\\]\*x\*/);
    }
    assert.equal(lines.filter((l) => l.startsWith("|")).length, 2 + 4);
    // An error's message: a line break inside it is an escape in its one cell.
    const failed = ws.cli("runs", "diff", String(first), String(failing), "--format", "github");
    assert.equal(failed.code, 1);
    assert.equal(
      timeless(failed.stdout).split("\n")[9],
      '|   |   |   | error | - | \\[execute/tool\\_error\\] tool "score" failed\\: &#124;&#64;t &lt;b&gt;\\\\n\\:\\:x |',
    );
  });

  test("a secret in a value: masked in the journal, so in every format of the diff", async () => {
    const SENTINEL = "sk-diff-SENTINEL-9c2e";
    ws.write(
      "secret.mocks.json",
      JSON.stringify({
        tools: { lookup: [{ value: "A" }, { value: "B" }], score: [{ value: `key ${SENTINEL} here` }, { value: 3 }] },
      }),
    );
    const secretRun = await runCliAsync(ws.dir, ["run", "five.rlmplan.json", "--mocks", "secret.mocks.json"], {
      DIFF_API_KEY: SENTINEL,
    });
    const id = /recorded as run (\d+)/.exec(secretRun.stderr)?.[1] ?? "none";
    // Read back without the key in the environment: only what the journal holds can show.
    const shown = { text: '"key *** here"', json: '"preview": "\\"key *** here\\""', github: '"key \\*\\*\\* here"' };
    for (const [format, masked] of Object.entries(shown)) {
      const result = ws.cli("runs", "diff", String(edited), id, "--format", format);
      assert.equal(result.code, 1, result.stderr);
      assert.ok(!result.stdout.includes(SENTINEL) && !result.stderr.includes(SENTINEL), format);
      assert.ok(result.stdout.includes(masked), `${format}: ${result.stdout}`);
    }
  });

  test("usage errors and a run the journal does not hold: exit 2", () => {
    const missing = ws.cli("runs", "diff", "1", "99");
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /\nrlm-plan: there is no run 99 in .*runs\.sqlite\n$/);
    assert.equal(missing.stdout, "");
    const one = ws.cli("runs", "diff", "1");
    assert.equal(one.code, 2);
    assert.equal(one.stderr, "rlm-plan: runs diff needs two RUN numbers (A and B)\nsee rlm-plan runs --help\n");
    const hex = ws.cli("runs", "diff", "1", "0x2");
    assert.equal(hex.code, 2);
    assert.match(hex.stderr, /runs diff needs a run number as rlm-plan runs list shows it .*not "0x2"/);
    const format = ws.cli("runs", "diff", "1", "2", "--format", "sarif");
    assert.equal(format.code, 2);
    assert.equal(format.stderr, "rlm-plan: --format needs one of text, json, github\nsee rlm-plan runs --help\n");
    const both = ws.cli("runs", "diff", "1", "2", "--json", "--format", "github");
    assert.equal(both.code, 2);
  });
});

function sha(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
