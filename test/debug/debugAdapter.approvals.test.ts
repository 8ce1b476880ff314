// Approvals in the debugger (docs/approvals.md, docs/debugging.md), with the built adapter over
// stdio and real `rlm-plan runs approve|deny` processes voting from outside: a call an approval
// rule holds is a stop at its step before the call is made (the marker tool has not run), with the
// action in a "Pending approval" scope (a vote cast while stopped shows there); Continue waits for
// the decision and resumes the run once (the tool runs once); a denial or a timeout ends the run
// with approval_denied or approval_timeout at the step's file:line:col; Stop while waiting leaves
// the run waiting in the journal and no adapter behind, and the vote that decides it later resumes
// it in the voter's process. A secret in the call's arguments is in no message the adapter sends.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { describe, test } from "node:test";
import { DebugClient } from "@vscode/debugadapter-testsupport";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { approvalRequests, JournalStore, type ApprovalRequestView } from "@rlm-plan/core/journal";
import { DebugRunResultEvent } from "@rlm-plan/language-server/protocol";
import { approvalWorkspace } from "../support/approvalWorkspace";
import type { CliWorkspace } from "../support/cliWorkspace";
import { ADAPTER, HANG_BACKSTOP_MS } from "../support/debugClient";

const SECRET = "sk-DapApprovalSentinel-5c2e9a71";

// The approvals workspace of the CLI's tests; the address (with the secret) comes from a text
// file; the held call is steps/1, at 18:5.
interface Workspace extends CliWorkspace {
  readonly plan: string;
  readonly journal: string;
  marks(): string[];
  request(): ApprovalRequestView;
  status(): string;
}

function workspace(name: string, quorum: number, timeout = 600): Workspace {
  const ws = approvalWorkspace(name, { quorum, timeout, on_timeout: "fail" }, `ada@example.com ${SECRET}`);
  const plan = join(ws.dir, "plan.rlmplan.json");
  const journal = join(ws.dir, ".rlm-plan");
  const read = <T>(what: (store: JournalStore) => T): T => {
    const store = JournalStore.openExisting(journal) as JournalStore;
    try {
      return what(store);
    } finally {
      store.close();
    }
  };
  return {
    ...ws,
    plan,
    journal,
    request: () => read((store) => approvalRequests(store, 1)[0] as ApprovalRequestView),
    status: () => (JSON.parse(ws.cli("runs", "list", "--json").stdout) as { status: string }[])[0]!.status,
  };
}

class AttachedClient extends DebugClient {
  attachTo(stdout: Readable, stdin: Writable): void {
    this.connect(stdout, stdin);
  }
}

/**
 * The adapter as a child of ours, every byte it sends kept; launched on the plan with the secret in
 * its env (and a breakpoint on `breakpoint`'s line); `stopped`: the first stop (none for noDebug).
 */
async function debugRun(ws: Workspace, breakpoint?: number, noDebug = false) {
  const adapter = spawn(process.execPath, [ADAPTER], { cwd: ws.dir, stdio: ["pipe", "pipe", "pipe"] });
  let sent = "";
  adapter.stdout.on("data", (chunk: Buffer) => (sent += chunk.toString()));
  const exited = new Promise<number | null>((done) => adapter.once("exit", (code) => done(code)));
  const client = new AttachedClient(process.execPath, ADAPTER, "rlm-plan");
  client.defaultTimeout = HANG_BACKSTOP_MS;
  client.attachTo(adapter.stdout, adapter.stdin);
  const output: { category: string; output: string }[] = [];
  const stops: string[] = [];
  client.on("stopped", (event: DebugProtocol.StoppedEvent) => stops.push(event.body.reason));
  client.on("output", (event: DebugProtocol.OutputEvent) =>
    output.push({ category: event.body.category ?? "console", output: event.body.output }),
  );
  // Today's failure would be a run that ends without stopping: said, not waited for forever.
  const stopped = noDebug
    ? undefined
    : Promise.race([
        new Promise((resolve) => client.once("stopped", resolve)),
        new Promise((resolve) => client.once("terminated", resolve)).then(() => {
          throw new Error(`the run ended without stopping:\n${output.map((o) => o.output).join("")}`);
        }),
      ]);
  await Promise.all([
    client.waitForEvent("initialized").then(async () => {
      if (breakpoint !== undefined)
        await client.setBreakpointsRequest({ source: { path: ws.plan }, breakpoints: [{ line: breakpoint }] });
      await client.configurationDoneRequest();
    }),
    client
      .initializeRequest({ adapterID: "rlm-plan", linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" })
      .then(() => client.launchRequest({ program: ws.plan, env: { MAIL_API_KEY: SECRET }, noDebug } as never)),
  ]);
  return {
    adapter,
    client,
    exited,
    stopped: (await stopped) as DebugProtocol.StoppedEvent,
    /** The reasons of every stop so far. */
    stops,
    output: (category: string) =>
      output
        .filter((o) => o.category === category)
        .map((o) => o.output)
        .join(""),
    /** Every message the adapter sent so far. */
    sent: () => sent,
  };
}

/** The "Pending approval" scope's variables, by name, and each value's children when it has some. */
async function pendingApproval(client: DebugClient): Promise<Record<string, string>> {
  const frames = (await client.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  const scopes = (await client.scopesRequest({ frameId: frames[0]!.id })).body.scopes;
  assert.deepEqual(
    scopes.map((s) => s.name),
    ["Pending approval", "Bindings", "Budget", "Run", "Inputs"],
  );
  const variables = (await client.variablesRequest({ variablesReference: scopes[0]!.variablesReference })).body
    .variables;
  return Object.fromEntries(variables.map((v) => [v.name, v.value]));
}

const SENT = JSON.stringify({ to: `ada@example.com ${SECRET}` });

describe("the debugger and approvals", () => {
  test("a held call is a stop with the action in its variables; Continue waits for the quorum, then the call runs once", async () => {
    const ws = workspace("approve", 2);
    // A breakpoint on the step before: the run resumed after the approval does not stop there again.
    const { adapter, client, exited, stopped: first, stops, output, sent } = await debugRun(ws, 3);
    try {
      assert.equal(first.body.reason, "breakpoint");
      const approval = client.waitForEvent("stopped");
      await client.continueRequest({ threadId: 1 });
      const stopped = (await approval) as DebugProtocol.StoppedEvent;
      assert.deepEqual(ws.marks(), []);
      const request = ws.request();
      const hash = request.hash;
      assert.match(hash, /^[0-9a-f]{64}$/);
      const approveWith = `approve with: rlm-plan runs approve 1 --journal ${ws.journal} --as NAME --reason TEXT (or deny with rlm-plan runs deny), or from the editor's notification; Continue waits for the decision, then the run goes on`;
      assert.deepEqual(stopped.body, {
        reason: "approval",
        threadId: 1,
        description: `Waiting for approval: tool(send) at steps/1 (0 of 2 approvals; action sha256 ${hash.slice(0, 12)})`,
        text: approveWith,
      });
      assert.equal(
        output("console").split("\n").slice(-3).join("\n"),
        `rlm-plan: run 1 waits for approval of tool(send) at steps/1 (approval rule 0; action sha256 ${hash})\nrlm-plan: ${approveWith}\n`,
      );
      const top = (await client.stackTraceRequest({ threadId: 1 })).body.stackFrames[0]!;
      assert.deepEqual([top.name, top.source?.path, top.line, top.column], ["plan: tool(send) -> r", ws.plan, 18, 5]);
      const deadline = new Date(request.deadline).toISOString();
      const expected = {
        call: '"tool(send)"',
        step: '"steps/1"',
        arguments: '{"arguments":{"to":"ada@example.com ***"},"kind":"tool","tool":"send"}',
        hash: JSON.stringify(hash),
        rule: "0",
        approvers: '["alice","bob"]',
        quorum: "2",
        votes: "[]",
        state: '"pending"',
        deadline: JSON.stringify(deadline),
      };
      assert.deepEqual(await pendingApproval(client), expected);

      // A vote from another process while stopped: the run's own process goes on with it.
      const alice = ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "checked the address");
      assert.equal(alice.code, 0, alice.stderr);
      assert.match(alice.stderr, /1 of 2 approvals: the run waits for 1 more\n/);
      const at = new Date(ws.request().votes[0]!.at).toISOString();
      assert.deepEqual(await pendingApproval(client), {
        ...expected,
        votes: JSON.stringify([{ approver: "alice", vote: "approve", reason: "checked the address", at }]),
      });

      // Not waitForEvent: its backstop timer would hold this process when no stop comes.
      const stoppedAgain = new Promise<DebugProtocol.Event>((resolve) => client.once("stopped", resolve));
      const result = client.waitForEvent(DebugRunResultEvent.event);
      const terminated = client.waitForEvent("terminated");
      const exitedEvent = client.waitForEvent("exited");
      await client.continueRequest({ threadId: 1 });
      await waitFor(() => output("console").includes("rlm-plan: waiting for the approvers of run 1"));
      assert.equal(ws.status(), "waiting");
      assert.deepEqual(ws.marks(), []);

      const bob = ws.cli("runs", "approve", "1", "--as", "bob", "--reason", "fine by me");
      assert.equal(bob.code, 0, bob.stderr);
      assert.match(
        bob.stderr,
        new RegExp(`the quorum approved: run 1's own process \\(${adapter.pid}\\) waits for it and goes on\n`),
      );
      // The run goes on to its end: no stop again at the breakpoint before the held step.
      const ended = await Promise.race([result, stoppedAgain]);
      assert.equal(ended.event, DebugRunResultEvent.event);
      const body = ended.body as { ok: boolean; value: unknown };
      assert.deepEqual([body.ok, body.value], [true, { sent: true }]);
      assert.equal(((await exitedEvent) as DebugProtocol.ExitedEvent).body.exitCode, 0);
      await terminated;
      assert.match(output("console"), /rlm-plan: the approvers decided: run 1 goes on\n/);
      assert.deepEqual(ws.marks(), [SENT]);
      assert.equal(ws.status(), "ok");
      assert.deepEqual(stops, ["breakpoint", "approval"]);
      await client.disconnectRequest({});
      await exited;
      assert.equal(sent().includes(SECRET), false);
    } finally {
      adapter.kill("SIGKILL");
    }
  });

  test("a denial ends the debugged run with approval_denied at the step; the call is never made", async () => {
    const ws = workspace("deny", 1);
    const { adapter, client, exited, output, sent } = await debugRun(ws);
    try {
      // Decided while stopped (the run is still running): the debugger goes on, not the voter.
      const bob = ws.cli("runs", "deny", "1", "--as", "bob", "--reason", "wrong customer");
      assert.equal(bob.code, 0, bob.stderr);
      assert.match(
        bob.stderr,
        new RegExp(`denied: run 1's own process \\(${adapter.pid}\\) waits for it and goes on\n`),
      );
      const result = client.waitForEvent(DebugRunResultEvent.event);
      const exitedEvent = client.waitForEvent("exited");
      const terminated = client.waitForEvent("terminated");
      await client.continueRequest({ threadId: 1 });
      const body = (await result).body as { ok: boolean; error: Record<string, unknown> };
      assert.deepEqual(
        [body.ok, body.error["kind"], body.error["step"], body.error["approver"], body.error["reason"]],
        [false, "approval_denied", "steps/1", "bob", "wrong customer"],
      );
      assert.equal(((await exitedEvent) as DebugProtocol.ExitedEvent).body.exitCode, 1);
      await terminated;
      assert.equal(
        output("stderr"),
        `rlm-plan: ${ws.plan}:18:5: run failed: the call of tool(send) at steps/1 was denied by "bob": wrong customer [execute/approval_denied]\n`,
      );
      assert.deepEqual(ws.marks(), []);
      assert.equal(ws.status(), "failed");
      await client.disconnectRequest({});
      await exited;
      assert.equal(sent().includes(SECRET), false);
    } finally {
      adapter.kill("SIGKILL");
    }
  });

  test("a request that times out ends the debugged run with approval_timeout at the step", async () => {
    const ws = workspace("timeout", 1, 0.3);
    const { adapter, client, exited, output, sent } = await debugRun(ws);
    try {
      const result = client.waitForEvent(DebugRunResultEvent.event);
      const exitedEvent = client.waitForEvent("exited");
      // Continue waits until the deadline has passed, then the resumed run applies on_timeout.
      await client.continueRequest({ threadId: 1 });
      const body = (await result).body as { ok: boolean; error: Record<string, unknown> };
      assert.deepEqual([body.ok, body.error["kind"]], [false, "approval_timeout"]);
      assert.equal(((await exitedEvent) as DebugProtocol.ExitedEvent).body.exitCode, 1);
      assert.equal(
        output("stderr"),
        `rlm-plan: ${ws.plan}:18:5: run failed: the call of tool(send) at steps/1 was not approved within 0.3 s (on_timeout: fail) [execute/approval_timeout]\n`,
      );
      assert.deepEqual(ws.marks(), []);
      await client.disconnectRequest({});
      await exited;
      assert.equal(sent().includes(SECRET), false);
    } finally {
      adapter.kill("SIGKILL");
    }
  });

  test("Run Without Debugging: no stop; the console says how to approve, and the approval resumes the run", async () => {
    const ws = workspace("nodebug", 1);
    const { adapter, client, exited, output, stops } = await debugRun(ws, undefined, true);
    try {
      const result = client.waitForEvent(DebugRunResultEvent.event);
      await waitFor(() => output("console").includes("rlm-plan: waiting for the approvers of run 1"));
      const hash = ws.request().hash;
      assert.match(
        output("console"),
        new RegExp(
          `rlm-plan: run 1 waits for approval of tool\\(send\\) at steps/1 \\(approval rule 0; action sha256 ${hash}\\)\n` +
            `rlm-plan: approve with: rlm-plan runs approve 1 --journal ${ws.journal} --as NAME --reason TEXT \\(or deny with rlm-plan runs deny\\), or from the editor's notification; the run goes on once they decide\n`,
        ),
      );
      assert.deepEqual(ws.marks(), []);
      const alice = ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "ok");
      assert.equal(alice.code, 0, alice.stderr);
      assert.deepEqual(((await result).body as { ok: boolean }).ok, true);
      assert.deepEqual([ws.marks(), stops], [[SENT], []]);
      await client.disconnectRequest({});
      await exited;
    } finally {
      adapter.kill("SIGKILL");
    }
  });

  test("Stop while waiting leaves the run waiting and no adapter behind; a later approval resumes it once", async () => {
    const ws = workspace("stop", 1);
    const { adapter, client, exited, output, sent } = await debugRun(ws);
    try {
      await client.continueRequest({ threadId: 1 });
      await waitFor(() => output("console").includes("rlm-plan: waiting for the approvers of run 1"));
      const terminated = client.waitForEvent("terminated");
      await client.disconnectRequest({ terminateDebuggee: true });
      await terminated;
      assert.equal(await exited, 0);
      assert.equal(
        output("stderr"),
        `rlm-plan: run 1 stays waiting for approval of tool(send) at steps/1: the vote that decides it resumes it (rlm-plan runs approve 1 --journal ${ws.journal} --as NAME --reason TEXT), or rlm-plan run --resume 1 once decided\n`,
      );
      assert.equal(ws.status(), "waiting");
      assert.deepEqual(ws.marks(), []);
      assert.equal(sent().includes(SECRET), false);

      const alice = ws.cli("runs", "approve", "1", "--as", "alice", "--reason", "later");
      assert.equal(alice.code, 0, alice.stderr);
      assert.match(alice.stderr, /the quorum approved: resuming run 1\n/);
      assert.deepEqual(ws.marks(), [SENT]);
      assert.equal(ws.status(), "ok");
    } finally {
      adapter.kill("SIGKILL");
    }
  });
});

/** Polls `condition` (what the adapter said so far) until it holds. */
async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
