// The run journal through the language server (what the editor's Plan Runs view reads): a run the
// server starts is recorded (its identity names its journal entry), a CLI run in the same folder
// (a real child process) is listed beside it, newest first, and one run is read whole (events,
// value, checkpoints). Resume through the server: a finished run is refused with the reason, a
// cancelled one continues its own journal entry. A case of `rlm-plan test` is listed too, with
// its FILE#CASE label.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { hostProfile } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { runCli } from "../support/cliWorkspace";
import { COUNT_PLAN, SLEEPY_PLAN, SLEEPY_SCRIPT, runHost } from "./support/runFixtures";

interface Identity {
  uri: string;
  runId: string;
  journal?: { dir: string; id: number; uid: string };
}

describe("the run journal through the server", () => {
  const finished = new Map<string, { result: { ok: boolean; error?: { kind: string } } }>();
  const waiters = new Set<() => void>();
  const server = useServer({
    files: {
      "rlmplan.host.json": hostProfile(runHost()),
      "count.rlmplan.json": COUNT_PLAN,
      "sleepy.rlmplan.json": SLEEPY_PLAN,
      "sleepy.js": SLEEPY_SCRIPT,
    },
    onConnection: (connection) => {
      connection.onNotification(
        "rlmPlan/runFinished",
        (params: { runId: string; result: { ok: boolean; error?: { kind: string } } }) => {
          finished.set(params.runId, params);
          for (const wake of [...waiters]) wake();
        },
      );
    },
  });
  const { workspace } = server;
  const journal = () => join(workspace.root, ".rlm-plan");

  const ended = (runId: string) =>
    new Promise<{ result: { ok: boolean; error?: { kind: string } } }>((resolve) => {
      const check = () => {
        const done = finished.get(runId);
        if (done) {
          waiters.delete(check);
          resolve(done);
        }
      };
      waiters.add(check);
      check();
    });

  const execute = (command: string, args: unknown[]) =>
    server.client.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });

  it("lists the editor's run and the CLI's, newest first, and reads one whole", async () => {
    const uri = await server.client.open(workspace.path("count.rlmplan.json"), COUNT_PLAN);
    const identity = (await execute("rlmPlan.server.run", [{ uri }])) as Identity;
    assert.deepEqual(
      { ...identity.journal, uid: typeof identity.journal?.uid },
      { dir: journal(), id: 1, uid: "string" },
    );
    assert.equal((await ended(identity.runId)).result.ok, true);

    const cli = runCli(workspace.root, ["run", "count.rlmplan.json"]);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stderr, /^rlm-plan: recorded as run 2 in \.rlm-plan /m);

    const listed = (await server.client.connection.sendRequest("rlmPlan/journalRuns", {
      uri: pathToFileURL(workspace.root).href,
    })) as { journal: string; runs: Record<string, unknown>[] };
    assert.equal(listed.journal, journal());
    assert.deepEqual(
      listed.runs.map(({ id, origin, plan, planFile, status, errorKind, mocked, dir }) => ({
        id,
        origin,
        plan,
        planFile,
        status,
        errorKind,
        mocked,
        dir,
      })),
      [2, 1].map((id) => ({
        id,
        origin: id === 2 ? "cli" : "editor",
        plan: "count.rlmplan.json",
        planFile: workspace.path("count.rlmplan.json"),
        status: "ok",
        errorKind: null,
        mocked: false,
        dir: journal(),
      })),
    );
    const run = (await server.client.connection.sendRequest("rlmPlan/journalRun", { dir: journal(), id: 2 })) as {
      events: { type: string; operation: string }[];
      value: unknown;
      checkpoints: string[];
      budgetRemaining: Record<string, number>;
    };
    assert.deepEqual(
      run.events.filter((e) => e.type === "transition").map((e) => e.operation),
      ["context(search)", "checkpoint", "tool(count_items)", "final"],
    );
    assert.equal(run.value, 2);
    assert.deepEqual(run.checkpoints, ["searched"]);
    assert.equal(typeof run.budgetRemaining["tool_calls"], "number");
    assert.equal(await server.client.connection.sendRequest("rlmPlan/journalRun", { dir: journal(), id: 99 }), null);
  });

  it("resumes a cancelled run in its own entry; refuses a finished one with the reason", async () => {
    const refused = await execute("rlmPlan.server.resume", [{ dir: journal(), id: 1 }]).then(
      () => "resumed",
      (error: Error) => error.message,
    );
    assert.equal(
      refused,
      "Run 1 cannot be resumed: run 1 finished (ok); only a run that did not finish (interrupted or cancelled) can be resumed",
    );

    const uri = await server.client.open(workspace.path("sleepy.rlmplan.json"), SLEEPY_PLAN);
    const first = (await execute("rlmPlan.server.run", [{ uri }])) as Identity;
    await new Promise((resolve) => setTimeout(resolve, 500));
    await execute("rlmPlan.server.cancel", [{ runId: first.runId }]);
    assert.equal((await ended(first.runId)).result.error?.kind, "cancelled");

    const again = (await execute("rlmPlan.server.resume", [{ dir: journal(), id: first.journal?.id }])) as Identity;
    assert.equal(again.uri, uri);
    assert.deepEqual(again.journal, first.journal, "the same journal entry goes on");
    await execute("rlmPlan.server.cancel", [{ runId: again.runId }]);
    assert.equal((await ended(again.runId)).result.error?.kind, "cancelled");
    const listed = (await server.client.connection.sendRequest("rlmPlan/journalRuns", {
      uri: pathToFileURL(workspace.root).href,
    })) as { runs: { id: number; status: string }[] };
    assert.deepEqual(listed.runs[0], { ...listed.runs[0], id: first.journal?.id, status: "cancelled" });
  });

  it("lists a case of rlm-plan test beside them, labelled with its test file and case, and reads it whole", async () => {
    writeFileSync(
      workspace.path("count.rlmplan.test.json"),
      JSON.stringify({ plan: "count.rlmplan.json", cases: [{ name: "counts", expect: { value: { equals: 2 } } }] }),
    );
    const cli = runCli(workspace.root, ["test", "count.rlmplan.test.json"]);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    const id = Number(/the cases' runs are run (\d+) in the run journal \.rlm-plan\n/.exec(cli.stderr)?.[1]);
    const listed = (await server.client.connection.sendRequest("rlmPlan/journalRuns", {
      uri: pathToFileURL(workspace.root).href,
    })) as { runs: Record<string, unknown>[] };
    const { origin, label, status, plan } = listed.runs[0] ?? {};
    assert.deepEqual(
      { id: listed.runs[0]?.["id"], origin, label, status, plan },
      { id, origin: "test", label: "count.rlmplan.test.json#counts", status: "ok", plan: "count.rlmplan.json" },
    );
    assert.ok(
      listed.runs.slice(1).every((run) => run["label"] === null),
      "runs that are not test cases have no label",
    );
    const run = (await server.client.connection.sendRequest("rlmPlan/journalRun", { dir: journal(), id })) as {
      label: string;
      events: { type: string; operation: string }[];
      value: unknown;
    };
    assert.equal(run.label, "count.rlmplan.test.json#counts");
    assert.deepEqual(
      run.events.filter((e) => e.type === "transition").map((e) => e.operation),
      ["context(search)", "checkpoint", "tool(count_items)", "final"],
    );
    assert.equal(run.value, 2);
  });
});
