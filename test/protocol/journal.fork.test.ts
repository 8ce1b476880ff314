// "Rerun From Here" and "Compare Runs" through the language server (what the editor asks): the
// bindings in scope at a step of a recorded run with the values it had there (nothing called to
// find them), a fork at that step with one binding edited, and the diff of the two runs. A
// command tool appends a line to a marker file per call, so the calls each run made are counted:
// the fork makes none before its step. A plan changed on disk is refused unless allowChanged.

import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, it } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { hostProfile } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";

// Appends a line per call to marks.txt beside it (test/fixtures/tools/mark.js, copied into the workspace).
const MARK_TOOL = readFileSync(resolve(__dirname, "..", "..", "..", "test", "fixtures", "tools", "mark.js"), "utf8");

const ref = (name: string) => ({ ref: "var", name });
const PLAN = JSON.stringify(
  {
    steps: [
      { op: "tool", name: "mark", args: { label: "one" }, bind: "a" },
      { op: "tool", name: "mark", args: { label: "two" }, bind: "b" },
      { op: "tool", name: "mark", args: { label: "three", note: ref("b") }, bind: "c" },
      { op: "final", value: { a: ref("a"), c: ref("c") } },
    ],
  },
  null,
  2,
);

/** Why a changed plan is refused, as `run --from` says it (the workspace as WS, digests as SHA). */
const REFUSAL = "the plan WS/plan.rlmplan.json changed since run 1 (recorded sha256 SHA, now SHA)";

interface Identity {
  uri: string;
  runId: string;
  journal?: { dir: string; id: number; uid: string };
  forkOf?: { run: number; step: string };
}
interface Finished {
  runId: string;
  result: { ok: boolean; value?: unknown; error?: { kind: string } };
}

describe("Rerun From Here and Compare Runs through the server", () => {
  const finished = new Map<string, Finished>();
  const waiters = new Set<() => void>();
  const server = useServer({
    files: {
      "rlmplan.host.json": hostProfile({
        capabilities: ["tool(mark)"],
        budget: { max_steps: 20, max_tool_calls: 9 },
        tools: {
          mark: { type: "command", command: [process.execPath, "mark.js"], writes: ["."], timeoutMs: 30000 },
        },
      }),
      "plan.rlmplan.json": PLAN,
      "mark.js": MARK_TOOL,
    },
    onConnection: (connection) => {
      connection.onNotification("rlmPlan/runFinished", (params: Finished) => {
        finished.set(params.runId, params);
        for (const wake of [...waiters]) wake();
      });
    },
  });
  const { workspace } = server;
  const marksFile = workspace.path("marks.txt");
  const marks = () => (existsSync(marksFile) ? readFileSync(marksFile, "utf8").trim().split("\n") : []);
  const dir = () => workspace.path(".rlm-plan");
  const request = <T>(method: string, params: unknown) =>
    server.client.connection.sendRequest(method, params) as Promise<T>;
  const execute = (command: string, args: unknown[]) =>
    server.client.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  const ended = (runId: string) =>
    new Promise<Finished>((resolve) => {
      const check = () => {
        const done = finished.get(runId);
        if (!done) return;
        waiters.delete(check);
        resolve(done);
      };
      waiters.add(check);
      check();
    });

  it("shows the recorded values at a step, forks there with one edited, and diffs the two runs", async () => {
    const uri = await server.client.open(workspace.path("plan.rlmplan.json"), PLAN);
    const parent = (await execute("rlmPlan.server.run", [{ uri }])) as Identity;
    assert.equal((await ended(parent.runId)).result.ok, true);
    assert.deepEqual(marks(), ["one", "two", 'three {"label":"two","note":null}']);

    const scope = await request<unknown>("rlmPlan/recordedScope", { dir: dir(), id: 1, step: "steps/2" });
    assert.deepEqual(scope, {
      ok: true,
      reached: true,
      bindings: [
        { name: "a", value: { label: "one", note: null } },
        { name: "b", value: { label: "two", note: null } },
      ],
    });
    assert.equal(marks().length, 3, "finding the values called nothing");

    const fork = (await execute("rlmPlan.server.fork", [
      { dir: dir(), id: 1, step: "steps/2", set: { b: { label: "TWO", note: "edited" } } },
    ])) as Identity;
    assert.equal(fork.uri, uri);
    assert.equal(fork.journal?.id, 2);
    assert.deepEqual(fork.forkOf, { run: 1, step: "steps/2" });
    const forked = await ended(fork.runId);
    assert.deepEqual(forked.result, {
      ...forked.result,
      ok: true,
      value: { a: { label: "one", note: null }, c: { label: "three", note: { label: "TWO", note: "edited" } } },
    });
    assert.deepEqual(
      marks().slice(3),
      ['three {"label":"TWO","note":"edited"}'],
      "no call before steps/2; steps/2 ran with the edited binding",
    );

    const listed = await request<{ runs: { id: number; forkOf: unknown }[] }>("rlmPlan/journalRuns", {
      uri: pathToFileURL(workspace.root).href,
    });
    assert.deepEqual(
      listed.runs.map(({ id, forkOf }) => ({ id, forkOf })),
      [
        { id: 2, forkOf: { run: 1, step: "steps/2" } },
        { id: 1, forkOf: null },
      ],
    );

    const diff = await request<{
      ok: true;
      diff: {
        agree: boolean;
        firstDivergence: { pointer: string; differs: string[] };
        steps: { pointer: string; change: string }[];
      };
    }>("rlmPlan/runDiff", { dir: dir(), a: 1, b: 2 });
    assert.equal(diff.ok, true);
    assert.equal(diff.diff.agree, false);
    assert.deepEqual(diff.diff.firstDivergence.pointer, "/steps/2");
    assert.deepEqual(
      diff.diff.steps.map((s) => `${s.pointer} ${s.change}`),
      ["/steps/0 same", "/steps/1 same", "/steps/2 changed", "/steps/3 changed"],
    );
    assert.deepEqual(await request("rlmPlan/runDiff", { dir: dir(), a: 1, b: 9 }), {
      ok: false,
      message: "the run journal has no run 9",
    });
  });

  it("refuses a binding not in scope, and a changed plan unless allowChanged", async () => {
    const notInScope = await execute("rlmPlan.server.fork", [
      { dir: dir(), id: 1, step: "steps/1", set: { c: 1 } },
    ]).then(
      () => "forked",
      (error: Error) => error.message,
    );
    assert.equal(notInScope, 'Run 1 cannot be forked: no binding "c" is in scope at steps/1 (in scope: a)');

    // A dry run whose mocks the editor gave (not a file) is not recorded whole: refused, as the CLI refuses it.
    const uri = pathToFileURL(workspace.path("plan.rlmplan.json")).href;
    const mocked = (await execute("rlmPlan.server.run", [
      { uri, mocks: { tools: { mark: [1, 2, 3].map((n) => ({ value: { label: `mocked ${n}`, note: null } })) } } },
    ])) as Identity;
    assert.deepEqual((await ended(mocked.runId)).result.error, undefined);
    const mockedId = mocked.journal?.id;
    const mockedFork = await execute("rlmPlan.server.fork", [{ dir: dir(), id: mockedId, step: "steps/1" }]).then(
      () => "forked",
      (error: Error) => error.message,
    );
    assert.equal(
      mockedFork,
      `Run ${mockedId} cannot be forked: run ${mockedId}'s mocks were given by the editor, not a file, and were not recorded`,
    );

    writeFileSync(workspace.path("plan.rlmplan.json"), PLAN.replace('"three"', '"THREE"'));
    const scope = await request<{ ok: boolean; kind: string; refusal: string; bindings: unknown }>(
      "rlmPlan/recordedScope",
      { dir: dir(), id: 1, step: "steps/2" },
    );
    assert.deepEqual(
      { ...scope, refusal: scope.refusal.replace(workspace.root, "WS").replace(/\b[0-9a-f]{12}\b/g, "SHA") },
      {
        ok: false,
        kind: "changed",
        refusal: REFUSAL,
        bindings: [{ name: "a" }, { name: "b" }],
      },
    );
    const before = marks().length;
    const refused = await execute("rlmPlan.server.fork", [{ dir: dir(), id: 1, step: "steps/2" }]).then(
      () => "forked",
      (error: Error) => error.message,
    );
    assert.equal(refused, `Run 1 cannot be forked: ${scope.refusal}`);
    const allowed = (await execute("rlmPlan.server.fork", [
      { dir: dir(), id: 1, step: "steps/2", allowChanged: true },
    ])) as Identity;
    assert.equal((await ended(allowed.runId)).result.ok, true);
    assert.deepEqual(marks().slice(before), ['THREE {"label":"two","note":null}']);
  });
});
