// Approvals (docs/approvals.md) with real processes: a run pauses before a call an approval rule
// holds (the marker tool has not run) and exits 3, waiting; `runs approve` from another process
// resumes it and the tool runs exactly once; a denial fails the run at the step; a timeout applies
// on_timeout; an approval of an action whose argument changed since is void; a quorum of 2 needs
// two different approvers; the run's starter cannot approve when the rule separates them; `run
// --wait` goes on when another process approves; a fork does not ask again for a step it answers
// from the journal; the journal refuses to edit a vote.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { childOutput } from "../support/childOutput";
import { approvalWorkspace as workspace, SENT } from "../support/approvalWorkspace";
import { CLI, jsonLines, runCliAsync, type CliRun, type CliWorkspace } from "../support/cliWorkspace";
import { JournalStore } from "@rlm-plan/core/journal";
import { startOtlpReceiver } from "../support/otlpReceiver";

interface SpanEvent {
  readonly name: string;
  readonly attributes: { key: string; value: Record<string, unknown> }[];
}

/** `run --json` as carol: the result line. */
function started(ws: CliWorkspace, ...more: string[]): { run: CliRun; result: Record<string, unknown> } {
  const run = ws.cli("run", "plan.rlmplan.json", "--json", "--as", "carol", ...more);
  return { run, result: jsonLines(run.stdout).pop() as Record<string, unknown> };
}

function status(ws: CliWorkspace): string {
  return (JSON.parse(ws.cli("runs", "list", "--json").stdout) as { status: string }[])[0]!.status;
}

describe("approvals", () => {
  test("a run pauses before the held call, exits 3 waiting; runs approve from another process resumes it once", () => {
    const ws = workspace("approve");
    const { run, result } = started(ws);
    assert.equal(run.code, 3, run.stderr);
    assert.deepEqual(ws.marks(), []);
    assert.equal((result["error"] as Record<string, unknown>)["kind"], "approval_pending");
    assert.equal(status(ws), "waiting");
    const hash = (result["error"] as Record<string, unknown>)["hash"] as string;
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.match(
      run.stderr,
      new RegExp(
        `rlm-plan: run 1 waits for approval of tool\\(send\\) at steps/1 \\(approval rule 0: 0 of 1 approvals; action sha256 ${hash}\\)\n` +
          "rlm-plan: approve with: rlm-plan runs approve 1 --as NAME --reason TEXT \\(or deny with rlm-plan runs deny\\); the run goes on once the quorum approves\n",
      ),
    );
    // Not yet decided: a resume is refused and runs nothing.
    const early = ws.cli("run", "--resume", "1");
    assert.equal(early.code, 1);
    assert.match(early.stderr, /cannot resume: run 1 is waiting for approval of steps\/1 \(0 of 1 approvals, until /);

    const approved = ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "checked the address");
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(
      approved.stderr,
      new RegExp(`alice approved tool\\(send\\) at steps/1 of run 1 \\(action sha256 ${hash}\\)`),
    );
    assert.match(approved.stderr, /the quorum approved: resuming run 1\n/);
    assert.equal(approved.stdout, '{\n  "sent": true\n}\n');
    assert.deepEqual(ws.marks(), [SENT]);
    assert.equal(status(ws), "ok");
    // Decided once: another vote and another resume are refused; the tool ran once.
    assert.match(
      ws.cli("runs", "approve", "1", "--as", "bob", "--reason", "late").stderr,
      /has no step waiting for approval/,
    );
    assert.equal(ws.cli("run", "--resume", "1").code, 1);
    assert.deepEqual(ws.marks(), [SENT]);

    // A fork after the held step answers it from run 1, and does not ask again; a fork at it is a
    // new run that asks anew.
    const after = ws.cli("run", "--from", "1", "--step", "steps/2");
    assert.equal(after.code, 0, after.stderr);
    assert.equal(ws.cli("run", "--from", "1", "--step", "steps/1").code, 3);
    assert.deepEqual(ws.marks(), [SENT]);

    const shown = ws.cli("runs", "show", "1").stdout;
    assert.match(shown, new RegExp(`request #1  tool\\(send\\) at steps/1  sha256 ${hash}\n`));
    assert.match(shown, /arguments \{"arguments":\{"to":"ada@example\.com"\},"kind":"tool","tool":"send"\}\n/);
    assert.match(shown, new RegExp(`approved by alice \\(request #1\\): checked the address  sha256 ${hash}\n`));
    assert.match(shown, new RegExp(`request #1 approved  sha256 ${hash}\n`));
  });

  test("a denial fails the run at the step with approval_denied; the tool never runs", () => {
    const ws = workspace("deny");
    assert.equal(started(ws).run.code, 3);
    const denied = ws.cli("runs", "deny", "1", "--as", "bob", "--reason", "wrong customer");
    assert.equal(denied.code, 1, denied.stderr);
    assert.match(denied.stderr, /denied: resuming run 1\n/);
    assert.match(
      denied.stderr,
      /plan\.rlmplan\.json:18:5: run failed: the call of tool\(send\) at steps\/1 was denied by "bob": wrong customer \[execute\/approval_denied\]/,
    );
    assert.deepEqual(ws.marks(), []);
    assert.equal(status(ws), "failed");
  });

  test("a timeout applies on_timeout: fail → approval_timeout, deny → approval_denied", async () => {
    const failing = workspace("timeout-fail", { timeout: 0.3, on_timeout: "fail" });
    const denying = workspace("timeout-deny", { timeout: 0.3, on_timeout: "deny" });
    assert.equal(started(failing).run.code, 3);
    assert.equal(started(denying).run.code, 3);
    await new Promise((r) => setTimeout(r, 400));
    const late = failing.cli("runs", "approve", "1", "--as", "alice", "--reason", "too late");
    assert.equal(late.code, 1);
    assert.match(late.stderr, /cannot approve: the request for steps\/1 timed out at .*: resume the run/);
    const failed = failing.cli("run", "--resume", "1", "--json");
    assert.equal(failed.code, 1, failed.stderr);
    const error = (jsonLines(failed.stdout).pop() as { error: Record<string, unknown> }).error;
    assert.equal(error["kind"], "approval_timeout");
    assert.equal(
      error["message"],
      "the call of tool(send) at steps/1 was not approved within 0.3 s (on_timeout: fail)",
    );
    const denied = denying.cli("run", "--resume", "1", "--json");
    assert.equal(
      (jsonLines(denied.stdout).pop() as { error: Record<string, unknown> }).error["kind"],
      "approval_denied",
    );
    assert.deepEqual([...failing.marks(), ...denying.marks()], []);
  });

  test("an approval of an action whose argument changed since is void: the step asks again", () => {
    const ws = workspace("void");
    const first = started(ws);
    const firstHash = (first.result["error"] as Record<string, unknown>)["hash"] as string;
    writeFileSync(join(ws.dir, "to.txt"), "eve@example.com");
    const approved = ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "ok for ada");
    assert.equal(approved.code, 3, approved.stderr);
    assert.match(
      approved.stderr,
      new RegExp(`the approvals given for action sha256 ${firstHash} are void: the action changed since`),
    );
    assert.deepEqual(ws.marks(), []);
    assert.equal(status(ws), "waiting");
    assert.match(
      ws.cli("runs", "show", "1").stdout,
      new RegExp(`request #1 void: the action changed to sha256 [0-9a-f]{64}  sha256 ${firstHash}`),
    );
    // The new action, approved, runs with the new argument, once.
    assert.equal(ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "ok for eve").code, 0);
    assert.deepEqual(ws.marks(), ['{"to":"eve@example.com"}']);
  });

  test("a quorum of 2 needs two different approvers", () => {
    const ws = workspace("quorum", { quorum: 2 });
    assert.equal(started(ws).run.code, 3);
    const one = ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "fine");
    assert.equal(one.code, 0);
    assert.match(one.stderr, /1 of 2 approvals: the run waits for 1 more\n/);
    const again = ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "still fine");
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /cannot approve: "alice" already approved steps\/1: the quorum needs different approvers/,
    );
    assert.deepEqual(ws.marks(), []);
    assert.equal(ws.cli("runs", "approve", "1", "--as", "bob", "--reason", "fine too").code, 0);
    assert.deepEqual(ws.marks(), [SENT]);
  });

  test("with separation on, the run's starter cannot approve; requester_may_approve lets them", () => {
    const separated = workspace("separated");
    assert.equal(separated.cli("run", "plan.rlmplan.json", "--as", "alice").code, 3);
    const self = separated.cli("runs", "approve", "1", "--as", "alice", "--reason", "mine");
    assert.equal(self.code, 1);
    assert.match(
      self.stderr,
      /cannot approve: "alice" started the run and may not approve it \(the rule says requester_may_approve: false\)/,
    );
    assert.match(
      separated.cli("runs", "approve", "1", "--as", "mallory", "--reason", "x").stderr,
      /"mallory" is not an approver of this step \(approvers: alice, bob\)/,
    );
    assert.deepEqual(separated.marks(), []);
    const allowed = workspace("self", { requester_may_approve: true });
    assert.equal(allowed.cli("run", "plan.rlmplan.json", "--as", "alice").code, 3);
    assert.equal(allowed.cli("runs", "approve", "1", "--as", "alice", "--reason", "mine").code, 0);
    assert.deepEqual(allowed.marks(), [SENT]);
  });

  test("run --wait waits for an approval from another process, then the step runs once", async () => {
    const ws = workspace("wait");
    const child = spawn(process.execPath, [CLI, "run", "plan.rlmplan.json", "--as", "carol", "--wait"], {
      cwd: ws.dir,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = childOutput(child);
    for (let i = 0; i < 400 && !existsSync(join(ws.dir, ".rlm-plan")); i++) await new Promise((r) => setTimeout(r, 25));
    for (let i = 0; i < 400 && status(ws) !== "waiting"; i++) await new Promise((r) => setTimeout(r, 25));
    const approved = ws.cli("runs", "approve", "1", "--as", "bob", "--reason", "go");
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stderr, /the quorum approved: run 1's own process \(\d+\) waits for it and goes on\n/);
    const done = await output;
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stderr, /waiting for the approvers/);
    assert.deepEqual(ws.marks(), [SENT]);
  });

  test("OpenTelemetry: the request and the outcome are events of the step's span, with the hash, never the arguments", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const ws = workspace("otlp");
      const profile = JSON.parse(readFileSync(join(ws.dir, "rlmplan.host.json"), "utf8")) as Record<string, unknown>;
      ws.write("rlmplan.host.json", JSON.stringify({ ...profile, telemetry: { otlp: receiver.url } }));
      // Not spawnSync: the receiver answers from this process's event loop.
      const run = await runCliAsync(ws.dir, ["run", "plan.rlmplan.json", "--json", "--as", "carol"]);
      assert.equal(run.code, 3, run.stderr);
      const hash = (jsonLines(run.stdout).pop() as { error: Record<string, unknown> }).error["hash"] as string;
      const approved = await runCliAsync(ws.dir, ["runs", "approve", "1", "--as", "alice", "--reason", "ok"]);
      assert.equal(approved.code, 0, approved.stderr);
      const events = receiver
        .spans()
        .filter((span) => span.name === "execute_tool send")
        .flatMap((span) => (span as unknown as { events?: SpanEvent[] }).events ?? [])
        .map((event) => [
          event.name,
          Object.fromEntries(event.attributes.map((a) => [a.key, Object.values(a.value)[0]])),
        ]);
      assert.deepEqual(events, [
        [
          "rlm_plan.approval.request",
          {
            "rlm_plan.approval.hash": hash,
            "rlm_plan.approval.step": "steps/1",
            "rlm_plan.approval.capability": "tool(send)",
            "rlm_plan.approval.rule": 0,
            "rlm_plan.approval.quorum": 1,
          },
        ],
        ["rlm_plan.approval.outcome", { "rlm_plan.approval.hash": hash, "rlm_plan.approval.outcome": "approved" }],
      ]);
      assert.ok(!receiver.bodies.join("").includes("ada@example.com"));
    } finally {
      await receiver.close();
    }
  });

  test("a run without the journal cannot wait: the held call fails, located, and is not made", () => {
    const ws = workspace("unrecorded");
    const run = ws.cli("run", "plan.rlmplan.json", "--no-journal", "--json");
    assert.equal(run.code, 1, run.stderr);
    const error = (jsonLines(run.stdout).pop() as { error: Record<string, unknown> }).error;
    assert.equal(error["kind"], "approval_unrecorded");
    assert.equal(
      error["message"],
      "the call of tool(send) at steps/1 needs approval (approval rule 0), and approvals are recorded in the run journal: run it with the journal on",
    );
    assert.deepEqual(ws.marks(), []);
  });

  test("the journal refuses to edit or delete a vote", () => {
    const ws = workspace("append-only");
    started(ws);
    ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "yes");
    const store = JournalStore.open(join(ws.dir, ".rlm-plan"));
    try {
      assert.throws(
        () => store.db.prepare("UPDATE approvals SET body = '{}'").run(),
        /the approvals log is append-only/,
      );
      assert.throws(() => store.db.prepare("DELETE FROM approvals").run(), /the approvals log is append-only/);
    } finally {
      store.close();
    }
  });
});
