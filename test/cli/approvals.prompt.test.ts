// `run --wait`'s prompt (docs/approvals.md) with the CLI as a real process on a pseudo-terminal:
// the person at the terminal sees the pending action and approves (the run resumes, the tool runs
// once, the vote is recorded with who and why) or denies (approval_denied at the step); a
// non-approver gets the core's refusal and the question back; a vote from another process decides
// while the question is shown and ends it; Ctrl-C stops waiting and leaves the run waiting; a
// secret in the arguments never reaches the terminal; no prompt without a person to answer it
// (stdin a pipe, CI=true, --json).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { approvalWorkspace as workspace, SENT } from "../support/approvalWorkspace";
import type { CliWorkspace } from "../support/cliWorkspace";
import { ptyCli, type PtyCli } from "../support/ptyCli";

const QUESTION = "Approve, deny, or wait for others? [a/d/w] ";
const ASKED = /Approve, deny, or wait for others\? \[a\/d\/w\] $/;
const WAITING = "rlm-plan: waiting for the approvers (Ctrl-C stops waiting; the run stays waiting)\n";

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The hash of the action the run waits for, as its waiting line says it. */
function hashOn(screen: string): string {
  return /waits for approval of tool\(send\) at steps\/1 \(.*; action sha256 ([0-9a-f]{64})\)/.exec(screen)?.[1] ?? "";
}

/** What the prompt shows `voter` before its question, for the action whose arguments are `to`. */
function shownAction(voter: string, to: string, hash: string, votes: string, before = WAITING, quorum = 1): RegExp {
  return new RegExp(
    escaped(
      `${before}rlm-plan: run 1 asks ${voter} about tool(send) at steps/1\n` +
        `  arguments  {"arguments":{"to":"${to}"},"kind":"tool","tool":"send"}\n` +
        `  action     sha256 ${hash.slice(0, 12)}\n` +
        `  rule       0: ${quorum} of alice, bob, until `,
    ) +
      "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z\n" +
      escaped(`  votes      ${votes}\n${QUESTION}`) +
      "$",
  );
}

function status(ws: CliWorkspace): string {
  return (JSON.parse(ws.cli("runs", "list", "--json").stdout) as { status: string }[])[0]!.status;
}

/** Runs `use` on the CLI started on a terminal; the terminal is ended if `use` fails halfway. */
async function onTerminal(pty: PtyCli, use: (pty: PtyCli) => Promise<void>): Promise<void> {
  try {
    await use(pty);
  } finally {
    pty.stop();
  }
}

// A safety net, not a measure: a prompt that never comes would otherwise hold the tier forever.
const LIMIT = { timeout: 30_000 };

describe("run --wait on a terminal", () => {
  test(
    "approve at the prompt: the run resumes, the tool runs once, the vote says who and why; the secret in the arguments is never shown",
    LIMIT,
    async () => {
      const secret = "Zq8Kx3Lm9Pw2Rt5V";
      const ws = workspace("prompt-approve", { requester_may_approve: true }, `ada+${secret}@example.com`);
      const env = { MAIL_TOKEN: secret };
      await onTerminal(
        ptyCli(ws.dir, ["run", "plan.rlmplan.json", "--as", "alice", "--wait"], { env }),
        async (pty) => {
          const screen = await pty.until(ASKED);
          const hash = hashOn(screen);
          assert.match(screen, shownAction("alice", "ada+***@example.com", hash, "0 of 1 approvals"));
          assert.deepEqual(ws.marks(), []);
          pty.type("a");
          await pty.until(/Why do you approve\? \(recorded with your vote\) $/);
          pty.type("checked the address");
          const done = await pty.exit;
          assert.equal(done.code, 0, done.screen);
          assert.ok(
            done.screen.includes(
              `[a/d/w] a\nWhy do you approve? (recorded with your vote) checked the address\n` +
                `rlm-plan: alice approved tool(send) at steps/1 of run 1 (action sha256 ${hash})\n` +
                `rlm-plan: the quorum approved: resuming run 1\n`,
            ),
            done.screen,
          );
          assert.ok(!done.screen.includes(secret), done.screen);
          assert.deepEqual(ws.marks(), [JSON.stringify({ to: `ada+${secret}@example.com` })]);
          assert.match(
            ws.cli("runs", "show", "1").stdout,
            new RegExp(`approved by alice \\(request #1\\): checked the address  sha256 ${hash}\n`),
          );
          assert.equal(status(ws), "ok");
        },
      );
    },
  );

  test(
    "deny at the prompt: a reason is required, then the run fails with approval_denied at the step",
    LIMIT,
    async () => {
      const ws = workspace("prompt-deny", { requester_may_approve: true });
      await onTerminal(ptyCli(ws.dir, ["run", "plan.rlmplan.json", "--as", "alice", "--wait"]), async (pty) => {
        await pty.until(ASKED);
        pty.type("maybe");
        await pty.until(/rlm-plan: answer a to approve, d to deny or w to wait for others\n.*\[a\/d\/w\] $/);
        pty.type("d");
        await pty.until(/Why do you deny\? \(recorded with your vote\) $/);
        pty.type("  ");
        await pty.until(/rlm-plan: a reason is required: it is recorded with your vote\nWhy do you deny\? .*\) $/);
        pty.type("wrong customer");
        const done = await pty.exit;
        assert.equal(done.code, 1, done.screen);
        assert.match(
          done.screen,
          /rlm-plan: alice denied tool\(send\) at steps\/1 of run 1 \(action sha256 [0-9a-f]{64}\)\nrlm-plan: denied: resuming run 1\n/,
        );
        assert.match(
          done.screen,
          /run failed: the call of tool\(send\) at steps\/1 was denied by "alice": wrong customer \[execute\/approval_denied\]/,
        );
        assert.deepEqual(ws.marks(), []);
        assert.equal(status(ws), "failed");
      });
    },
  );

  test(
    "a non-approver gets the core's refusal and the question back, with the votes so far; votes from other processes then decide and end it",
    LIMIT,
    async () => {
      const ws = workspace("prompt-refused", { quorum: 2 });
      await onTerminal(ptyCli(ws.dir, ["run", "plan.rlmplan.json", "--as", "carol", "--wait"]), async (pty) => {
        const first = await pty.until(ASKED);
        const hash = hashOn(first);
        assert.match(first, shownAction("carol", "ada@example.com", hash, "0 of 2 approvals", WAITING, 2));
        const one = ws.cli("runs", "approve", "1", "--as", "bob", "--reason", "go");
        assert.match(one.stderr, /1 of 2 approvals: the run waits for 1 more\n/);
        pty.type("a");
        await pty.until(/\(recorded with your vote\) $/);
        pty.type("looks fine to me");
        const again = await pty.until(/is not an approver[^]*\[a\/d\/w\] $/);
        const refused = `rlm-plan: cannot approve: "carol" is not an approver of this step (approvers: alice, bob)\n`;
        const votes = "1 of 2 approvals; approved by bob: go";
        assert.match(again, shownAction("carol", "ada@example.com", hash, votes, refused, 2));
        const approved = ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "fine");
        assert.equal(approved.code, 0, approved.stderr);
        assert.match(approved.stderr, /the quorum approved: run 1's own process \(\d+\) waits for it and goes on\n/);
        const done = await pty.exit;
        assert.equal(done.code, 0, done.screen);
        // The question left open ends its line; the resumed run follows.
        assert.ok(done.screen.includes(`${QUESTION}\nrlm-plan: host profile rlmplan.host.json\n`), done.screen);
        assert.equal(done.screen.split(QUESTION).length - 1, 2, done.screen);
        assert.deepEqual(ws.marks(), [SENT]);
      });
    },
  );

  test("Ctrl-C at the prompt stops waiting: exit status 130, the run stays waiting, no vote", LIMIT, async () => {
    const ws = workspace("prompt-interrupt", { requester_may_approve: true });
    await onTerminal(ptyCli(ws.dir, ["run", "plan.rlmplan.json", "--as", "alice", "--wait"]), async (pty) => {
      await pty.until(ASKED);
      pty.interrupt();
      const done = await pty.exit;
      assert.equal(done.code, 130, done.screen);
      assert.match(done.screen, /\[a\/d\/w\] \^C\nrlm-plan: cancelling\.\.\.\n$/);
      assert.equal(status(ws), "waiting");
      assert.doesNotMatch(ws.cli("runs", "show", "1").stdout, /approved by|denied by/);
      assert.deepEqual(ws.marks(), []);
    });
  });

  for (const [name, options, extra] of [
    ["stdin a pipe", { shell: "echo a | $CLI" }, []],
    ["CI=true", { env: { CI: "true" } }, []],
  ] as const)
    test(`no prompt where no one answers it: ${name}`, LIMIT, async () => {
      const ws = workspace(`prompt-none-${name.replace(/\W+/g, "-")}`, { requester_may_approve: true });
      const args = ["run", "plan.rlmplan.json", "--as", "alice", "--wait", ...extra];
      await onTerminal(ptyCli(ws.dir, args, options), async (pty) => {
        const waiting = await pty.until(/waiting for the approvers .*\n/);
        const hash = hashOn(waiting);
        assert.equal(
          waiting.replace(/ +\d+ ms\n/g, " N ms\n"),
          "rlm-plan: host profile rlmplan.host.json\n" +
            "  1  context(peek)  -> to  ok N ms\n" +
            `rlm-plan: run 1 waits for approval of tool(send) at steps/1 (approval rule 0: 0 of 1 approvals; action sha256 ${hash})\n` +
            "rlm-plan: approve with: rlm-plan runs approve 1 --as NAME --reason TEXT (or deny with rlm-plan runs deny); the run goes on once the quorum approves\n" +
            WAITING,
        );
        assert.equal(ws.cli("runs", "approve", "1", "--as", "bob", "--reason", "go").code, 0);
        const done = await pty.exit;
        assert.equal(done.code, 0, done.screen);
        assert.ok(!done.screen.includes("[a/d/w]"), done.screen);
        assert.ok(done.screen.startsWith(waiting), done.screen);
        assert.deepEqual(ws.marks(), [SENT]);
      });
    });

  test("no prompt with --json: its lines only, the run goes on when another process approves", LIMIT, async () => {
    const ws = workspace("prompt-none-json", { requester_may_approve: true });
    const args = ["run", "plan.rlmplan.json", "--as", "alice", "--wait", "--json"];
    await onTerminal(ptyCli(ws.dir, args), async (pty) => {
      await pty.until(/rlm-plan: approve with: .*\n/);
      assert.equal(ws.cli("runs", "approve", "1", "--as", "bob", "--reason", "go").code, 0);
      const done = await pty.exit;
      assert.equal(done.code, 0, done.screen);
      assert.ok(!done.screen.includes("[a/d/w]"), done.screen);
      assert.ok(!done.screen.includes("rlm-plan: waiting for the approvers"), done.screen);
      assert.deepEqual(ws.marks(), [SENT]);
    });
  });
});
