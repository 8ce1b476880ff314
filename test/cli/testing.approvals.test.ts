// Approvals in `rlm-plan test` (docs/approvals.md, "Testing approvals"), with the CLI as a real
// process on the approval workspace (its `send` tool, held for alice and bob, marks each call): a
// case's approve vote lets the held call run once and the case passes on its value; a deny vote
// fails the run at the step with approval_denied, as the case expects; a non-approver's vote fails
// the case with the core's refusal at the entry's line; a held call the case gives no vote for
// fails naming the step and the rule; a quorum takes two approvers; a case may let a request time
// out (on_timeout applies, no real wait); malformed answers are located; `expect.approvals` counts
// requests with exact messages; a cassette records the approved call once and replays it; a
// blessed baseline holds the resumed run's end and stays the same; without the journal the case
// is not run.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { approvalWorkspace, SENT, type Rule } from "../support/approvalWorkspace";
import type { CliWorkspace } from "../support/cliWorkspace";

/** The workspace with one test file of `cases` (one a line, so a case's line is its index + 4). */
function withCases(name: string, cases: object[], rule: Rule = {}) {
  const ws = approvalWorkspace(`test-${name}`, rule);
  const lines = cases.map((c, i) => `    ${JSON.stringify(c)}${i < cases.length - 1 ? "," : ""}`);
  ws.write("plan.rlmplan.test.json", `{\n  "plan": "plan.rlmplan.json",\n  "cases": [\n${lines.join("\n")}\n  ]\n}\n`);
  return ws;
}

/** Runs the workspace's tests, which must fail: its stdout, and each failed case with its one failure line. */
function failing(ws: CliWorkspace): { stdout: string; failed: [string, string][] } {
  const run = ws.cli("test", "plan.rlmplan.test.json", "--jobs", "1");
  assert.equal(run.code, 1, run.stderr);
  const section = run.stdout.slice(run.stdout.indexOf("\nfailed:\n") + 9).split(/\n\d+ passed/)[0] as string;
  const lines = section.split("\n");
  const failed: [string, string][] = [];
  for (let i = 0; i + 1 < lines.length; i += 2)
    failed.push([(lines[i] as string).trim(), (lines[i + 1] as string).trim()]);
  return { stdout: run.stdout, failed };
}

describe("rlm-plan test: approvals", () => {
  test("approve: the held call runs once and the case passes on its value and its count of requests", () => {
    const ws = withCases("approve", [
      {
        name: "sends",
        approvals: [{ step: "/steps/1", vote: "approve", as: "alice", reason: "checked the address" }],
        expect: { value: { equals: { sent: true } }, approvals: [{ step: "/steps/1", requests: 1 }] },
      },
    ]);
    const run = ws.cli("test", "plan.rlmplan.test.json");
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^pass {2}plan\.rlmplan\.test\.json#sends {2}\(\d+ ms\)\n1 passed, 0 failed \(1 case, /);
    assert.deepEqual(ws.marks(), [SENT]);
    // The vote is the journal's, with who and why, as `runs approve` records it.
    const shown = ws.cli("runs", "show", "1").stdout;
    assert.match(shown, /approved by alice \(request #1\): checked the address {2}sha256 [0-9a-f]{64}\n/);
  });

  test("deny: the run fails at the step with approval_denied, which the case expects; the tool never runs", () => {
    const ws = withCases("deny", [
      {
        name: "refused",
        approvals: [{ vote: "deny", as: "bob", reason: "wrong customer" }],
        expect: {
          error: { kind: "approval_denied", step: "/steps/1", message: 'denied by "bob": wrong customer' },
        },
      },
    ]);
    const run = ws.cli("test", "plan.rlmplan.test.json");
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(ws.marks(), []);
  });

  test("a vote the rule refuses, and a held call with no vote, fail the case: located, with the core's words", () => {
    const ws = withCases("refused", [
      { name: "stranger", approvals: [{ vote: "approve", as: "mallory" }] },
      { name: "undeclared" },
      { name: "expects the wait", expect: { error: { kind: "approval_pending", step: "/steps/1" } } },
    ]);
    const { stdout, failed } = failing(ws);
    assert.deepEqual(failed, [
      [
        "plan.rlmplan.test.json#stranger",
        'plan.rlmplan.test.json:4:37: the vote of "mallory" on /steps/1 was refused: "mallory" is not an approver of this step (approvers: alice, bob)',
      ],
      [
        "plan.rlmplan.test.json#undeclared",
        'plan.rlmplan.test.json:5:5: the call of tool(send) at /steps/1 waits for approval (approval rule 0, approvers: alice, bob; 0 of 1): the case gives no vote for it: add "approvals": [{"step": "/steps/1", "vote": "approve", "as": "NAME"}]',
      ],
    ]);
    assert.match(stdout, /pass {2}plan\.rlmplan\.test\.json#expects the wait/);
    assert.deepEqual(ws.marks(), []);
  });

  test("a quorum of 2 takes two approvers' entries; one is not enough", () => {
    const ws = withCases(
      "quorum",
      [
        {
          name: "two",
          approvals: [
            { vote: "approve", as: "alice" },
            { vote: "approve", as: "bob" },
          ],
        },
        { name: "one", approvals: [{ vote: "approve", as: "alice" }] },
        {
          name: "twice",
          approvals: [
            { vote: "approve", as: "alice" },
            { vote: "approve", as: "alice" },
          ],
        },
      ],
      { quorum: 2 },
    );
    assert.deepEqual(failing(ws).failed, [
      [
        "plan.rlmplan.test.json#one",
        "plan.rlmplan.test.json:5:5: the call of tool(send) at /steps/1 waits for approval (approval rule 0, approvers: alice, bob; 1 of 2): the case's votes give 1 of the 2 it needs",
      ],
      [
        "plan.rlmplan.test.json#twice",
        'plan.rlmplan.test.json:6:66: the vote of "alice" on /steps/1 was refused: "alice" already approved steps/1: the quorum needs different approvers',
      ],
    ]);
    assert.deepEqual(ws.marks(), [SENT]);
  });

  test("timeout: the request is left to time out, its rule's on_timeout applies at once; no real wait", () => {
    for (const [onTimeout, kind] of [
      ["fail", "approval_timeout"],
      ["deny", "approval_denied"],
    ] as const) {
      const ws = withCases(
        `timeout-${onTimeout}`,
        [
          {
            name: "left",
            approvals: [{ step: "/steps/1", vote: "timeout" }],
            expect: {
              error: { kind, step: "/steps/1", message: `was not approved within 600 s (on_timeout: ${onTimeout})` },
              approvals: [{ step: "/steps/1", requests: 1 }],
            },
          },
        ],
        { on_timeout: onTimeout },
      );
      const run = ws.cli("test", "plan.rlmplan.test.json");
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(ws.marks(), []);
    }
  });

  test("answers the loader refuses: located, nothing runs", () => {
    const ws = withCases("malformed", [
      {
        name: "bad",
        approvals: [
          { vote: "timeout", as: "alice" },
          { vote: "deny" },
          { vote: "approve", as: "alice", step: "/steps/9" },
        ],
      },
    ]);
    const run = ws.cli("test", "plan.rlmplan.test.json");
    assert.equal(run.code, 2, run.stdout);
    assert.equal(
      run.stderr,
      'plan.rlmplan.test.json:4:55: error: "as" is for a vote: a request left to time out has no voter\n' +
        'plan.rlmplan.test.json:4:64: error: a vote needs "as": who denies (one of the approval rule\'s approvers)\n' +
        "plan.rlmplan.test.json:4:118: error: the plan has no step /steps/9\n" +
        "rlm-plan: 3 problems in the test files; nothing ran\n",
    );
    assert.deepEqual(ws.marks(), []);
  });

  test("--bless of cases with approvals: the resumed run's end, no times or ids; --baseline holds, re-blessing is the same", () => {
    const ws = withCases("baseline", [
      { name: "approved", approvals: [{ vote: "approve", as: "alice" }] },
      { name: "denied", approvals: [{ vote: "deny", as: "bob" }], expect: { error: { kind: "approval_denied" } } },
    ]);
    assert.equal(ws.cli("test", "plan.rlmplan.test.json", "--bless").code, 0);
    const file = join(ws.dir, "plan.rlmplan.baseline.json");
    const blessed = readFileSync(file, "utf8");
    const cases = (JSON.parse(blessed) as { cases: Record<string, Record<string, unknown>> }).cases;
    // The approved run ended ok: its earlier wait (approval_pending) is not its end.
    assert.deepEqual([cases["approved"]!["status"], cases["approved"]!["error"]], ["ok", undefined]);
    assert.deepEqual(cases["approved"]!["value"], { sent: true });
    assert.equal((cases["denied"]!["error"] as { kind: string }).kind, "approval_denied");
    const held = ws.cli("test", "plan.rlmplan.test.json", "--baseline");
    assert.equal(held.code, 0, held.stdout + held.stderr);
    assert.equal(ws.cli("test", "plan.rlmplan.test.json", "--bless").code, 0);
    assert.equal(readFileSync(file, "utf8"), blessed);
  });

  test("--record of an approved case writes the approved call once; --replay answers it, the tool never runs again", () => {
    const ws = withCases("cassette", [
      {
        name: "approved",
        cassette: "send.cassette.json",
        approvals: [{ vote: "approve", as: "alice" }],
        expect: { value: { equals: { sent: true } }, approvals: [{ step: "/steps/1", requests: 1 }] },
      },
    ]);
    const recorded = ws.cli("test", "plan.rlmplan.test.json", "--record");
    assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
    const cassette = JSON.parse(readFileSync(join(ws.dir, "send.cassette.json"), "utf8")) as { entries: unknown[] };
    assert.deepEqual(cassette.entries, [
      {
        case: "plan.rlmplan.test.json#approved",
        request: { kind: "tool", tool: "send", args: { to: "ada@example.com" } },
        reply: { value: { sent: true } },
      },
    ]);
    const replayed = ws.cli("test", "plan.rlmplan.test.json", "--replay");
    assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
    assert.deepEqual(ws.marks(), [SENT]);
  });

  test("expect.approvals: exact expected and actual counts; the journal off is said, not run", () => {
    const ws = withCases("count", [
      {
        name: "counted",
        approvals: [{ vote: "approve", as: "alice" }],
        expect: {
          approvals: [
            { step: "/steps/1", requests: 2 },
            { step: "/steps/2", requests: 0 },
            { step: "/steps/0", requests: 1 },
          ],
        },
      },
    ]);
    const run = ws.cli("test", "plan.rlmplan.test.json", "--format", "json");
    assert.equal(run.code, 1, run.stderr);
    const report = JSON.parse(run.stdout) as { cases: { failures: unknown[] }[] };
    assert.deepEqual(report.cases[0]!.failures, [
      {
        assertion: "approvals",
        message: "approvals: expected 2 requests for approval at /steps/1, got 1",
        expected: 2,
        actual: 1,
      },
      {
        assertion: "approvals",
        message: "approvals: expected 1 request for approval at /steps/0, got 0",
        expected: 1,
        actual: 0,
      },
    ]);
    const off = ws.cli("test", "plan.rlmplan.test.json", "--no-journal");
    assert.equal(off.code, 1);
    assert.match(
      off.stdout,
      /plan\.rlmplan\.test\.json:4:5: the case's approvals are votes in the run journal, and the run journal is off \(--no-journal\)\n/,
    );
  });
});
