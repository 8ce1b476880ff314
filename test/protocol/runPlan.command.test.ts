// Running a plan through the server, end to end: `rlmPlan.server.run` answers with a run id at
// once, each of the runtime's events (steps started, transitions, ...) arrives as an
// `rlmPlan/runEvent` notification as it happens, then
// `rlmPlan/runFinished` with the value (or the structured error); `rlmPlan.server.cancel` ends
// a run whose command tool sleeps, with kind "cancelled", quickly. Nothing runs unless asked.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { ExecuteCommandRequest, ResponseError } from "vscode-languageserver-protocol/node";
import { hostProfile, withServer } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { TRANSITION_KEYS } from "./support/planRuns";
import { COUNT_PLAN, SLEEPY_PLAN, SLEEPY_SCRIPT, runHost } from "./support/runFixtures";

interface Transition {
  sequence: number;
  operation: string;
  bind: string | null;
  status: string;
  elapsed_ms: number;
  duration_ms: number;
  remaining: Record<string, unknown>;
}
interface TransitionParams {
  uri: string;
  runId: string;
  mocked?: boolean;
  transition: Transition;
}
interface FinishedParams {
  uri: string;
  runId: string;
  result: {
    ok: boolean;
    value?: unknown;
    error?: Record<string, unknown>;
    checkpoints: string[];
    budgetRemaining?: unknown;
  };
  elapsedMs: number;
  transitionCount: number;
}
/** An `rlmPlan/runEvent`: the fields these tests read of the runtime's event. */
interface EventParams {
  uri: string;
  runId: string;
  mocked?: boolean;
  event: {
    type: string;
    operation: string;
    bind: string | null;
    path: (string | number)[];
    depth: number;
    transition?: Transition;
  };
}
interface StepStartedParams {
  uri: string;
  runId: string;
  step: { operation: string; bind: string | null; path: (string | number)[]; depth: number };
}

const MARKER_PLAN = `{"steps": [
  {"op": "tool", "name": "marker", "args": [], "bind": "ran"},
  {"op": "final", "value": {"ref": "var", "name": "ran"}}
]}`;

describe("run: the plan through the server", () => {
  const transitions: TransitionParams[] = [];
  const started: StepStartedParams[] = [];
  const finished: FinishedParams[] = [];
  const order: string[] = [];
  const waiters = new Set<() => void>();
  const server = useServer({
    files: {
      "rlmplan.host.json": hostProfile(
        // It marks that it ran in the workspace: a path it declares it writes.
        runHost({
          marker: { type: "command", command: [process.execPath, "marker.js"], timeoutMs: 10000, writes: ["."] },
        }),
      ),
      "sleepy.js": SLEEPY_SCRIPT,
      "marker.js":
        "require('node:fs').writeFileSync('ran.txt', 'yes'); process.stdin.resume(); process.stdin.on('end', () => process.stdout.write('true'));\n",
    },
    onConnection: (connection) => {
      connection.onNotification("rlmPlan/runEvent", ({ uri, runId, mocked, event }: EventParams) => {
        if (event.type === "transition" && event.transition) {
          transitions.push({ uri, runId, ...(mocked ? { mocked } : {}), transition: event.transition });
          order.push(`transition ${runId}`);
        }
        if (event.type === "step_started") {
          const { operation, bind, path, depth } = event;
          started.push({ uri, runId, step: { operation, bind, path, depth } });
          for (const wake of [...waiters]) wake();
        }
      });
      connection.onNotification("rlmPlan/runFinished", (params: FinishedParams) => {
        finished.push(params);
        order.push(`finished ${params.runId}`);
        for (const wake of [...waiters]) wake();
      });
    },
  });
  const { workspace } = server;

  function waitFor<T>(check: () => T | undefined, what: string, ms = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = () => {
        const value = check();
        if (value === undefined) return;
        clearTimeout(timer);
        waiters.delete(attempt);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiters.delete(attempt);
        reject(new Error(`timed out waiting for ${what}`));
      }, ms);
      waiters.add(attempt);
      attempt();
    });
  }

  const finishedRun = (runId: string) => waitFor(() => finished.find((f) => f.runId === runId), `the end of ${runId}`);

  function execute(command: string, args: unknown[]): Promise<unknown> {
    return server.client.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  }

  async function run(file: string, text: string): Promise<{ uri: string; runId: string }> {
    const uri = await server.client.open(workspace.path(file), text);
    const identity = (await execute("rlmPlan.server.run", [{ uri }])) as { uri: string; runId: string };
    assert.equal(identity.uri, uri);
    assert.match(identity.runId, /^run-\d+$/);
    return identity;
  }

  it("the server offers the run and cancel commands", () => {
    const commands = server.client.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
    assert.ok(commands.includes("rlmPlan.server.run"));
    assert.ok(commands.includes("rlmPlan.server.cancel"));
    assert.ok(!commands.includes("rlmPlan.run"), "rlmPlan.run is the client's own command");
  });

  it("streams every transition, then the final value", async () => {
    const { uri, runId } = await run("count.rlmplan.json", COUNT_PLAN);
    const end = await finishedRun(runId);
    const mine = transitions.filter((t) => t.runId === runId);
    assert.deepEqual(
      mine.map(({ uri: u, transition: { sequence, operation, bind, status } }) => ({
        u,
        sequence,
        operation,
        bind,
        status,
      })),
      [
        { u: uri, sequence: 1, operation: "context(search)", bind: "hits", status: "ok" },
        { u: uri, sequence: 2, operation: "checkpoint", bind: null, status: "ok" },
        { u: uri, sequence: 3, operation: "tool(count_items)", bind: "count", status: "ok" },
        { u: uri, sequence: 4, operation: "final", bind: null, status: "ok" },
      ],
    );
    for (const { transition } of mine) {
      // Only what a transition is defined to carry: no content of any kind.
      assert.deepEqual(Object.keys(transition).sort(), TRANSITION_KEYS);
      // The budget left: counters only.
      assert.deepEqual(Object.keys(transition.remaining).sort(), [
        "context_ops",
        "model_calls",
        "output_bytes",
        "steps",
        "tool_calls",
      ]);
      assert.ok(Object.values(transition.remaining).every((n) => typeof n === "number"));
      assert.equal(typeof transition.elapsed_ms, "number");
      assert.equal(typeof transition.duration_ms, "number");
    }
    assert.deepEqual(
      started.filter((s) => s.runId === runId).map((s) => s.step),
      [
        { operation: "context(search)", bind: "hits", path: ["steps", 0], depth: 1 },
        { operation: "checkpoint", bind: null, path: ["steps", 1], depth: 1 },
        { operation: "tool(count_items)", bind: "count", path: ["steps", 2], depth: 1 },
        { operation: "final", bind: null, path: ["steps", 3], depth: 1 },
      ],
    );
    assert.equal(end.uri, uri);
    assert.equal(end.transitionCount, 4);
    assert.equal(typeof end.elapsedMs, "number");
    const { budgetRemaining, ...result } = end.result;
    assert.deepEqual(result, { ok: true, value: 2, checkpoints: ["searched"] });
    const { output_bytes, ...counters } = budgetRemaining as Record<string, number>;
    assert.deepEqual(counters, { steps: 60, model_calls: 8, tool_calls: 15, context_ops: 31 });
    assert.ok(typeof output_bytes === "number" && output_bytes > 0 && output_bytes < 65536);
    // Every transition of the run reached the client before its end.
    assert.deepEqual(
      order.filter((entry) => entry.endsWith(` ${runId}`)),
      [...mine.map(() => `transition ${runId}`), `finished ${runId}`],
    );
    await server.client.close(uri);
  });

  it("cancel ends a run whose tool sleeps, with kind cancelled, within 2 s", async () => {
    const { uri, runId } = await run("sleepy.rlmplan.json", SLEEPY_PLAN);
    await waitFor(
      () => started.find((s) => s.runId === runId && s.step.operation === "tool(sleepy)"),
      "the sleepy tool",
    );
    const asked = Date.now();
    assert.equal(await execute("rlmPlan.server.cancel", [{ runId }]), true);
    const end = await finishedRun(runId);
    const took = Date.now() - asked;
    assert.ok(took < 2000, `cancelled after ${took} ms`);
    assert.equal(end.result.ok, false);
    assert.deepEqual(end.result.error, {
      phase: "execute",
      kind: "cancelled",
      message: "the run was cancelled",
      path: ["steps", 0],
    });
    assert.equal(end.transitionCount, 0);
    assert.equal(await execute("rlmPlan.server.cancel", [{ runId }]), false, "a finished run cannot be cancelled");
    await server.client.close(uri);
  });

  it("an invalid plan ends at once with the runtime's first error", async () => {
    const text = COUNT_PLAN.replace('"name": "hits"}, "bind": "count"', '"name": "hit"}, "bind": "count"');
    const { uri, runId } = await run("invalid.rlmplan.json", text);
    const end = await finishedRun(runId);
    assert.equal(end.result.ok, false);
    assert.equal(end.result.error?.phase, "validate");
    assert.equal(end.result.error?.reason, "unbound_variable");
    assert.equal(end.transitionCount, 0);
    // One rule with the CLI: a run that never started keeps its whole budget; the error is located.
    assert.deepEqual(end.result.budgetRemaining, {
      steps: 64,
      model_calls: 8,
      tool_calls: 16,
      context_ops: 32,
      output_bytes: 65536,
    });
    assert.deepEqual((end.result as { location?: unknown }).location, { line: 5, column: 74 });
    await server.client.close(uri);
  });

  it("a mocked run: tools answer from the mocks, and every notification says mocked", async () => {
    const mocks = { tools: { marker: [{ value: "mocked marker" }] } };
    const uri = await server.client.open(workspace.path("mocked.rlmplan.json"), MARKER_PLAN);
    const { runId } = (await execute("rlmPlan.server.run", [{ uri, mocks }])) as { runId: string };
    const end = await finishedRun(runId);
    assert.deepEqual([end.result.ok, end.result.value], [true, "mocked marker"]);
    assert.equal((end as { mocked?: boolean }).mocked, true);
    const mine = transitions.filter((t) => t.runId === runId);
    assert.deepEqual(
      mine.map((t) => (t as { mocked?: boolean }).mocked),
      [true, true],
    );
    assert.equal(existsSync(workspace.path("ran.txt")), false, "the real marker tool never ran");
    await server.client.close(uri);
  });

  it("mocks that break the schema are refused with their location", async () => {
    const uri = await server.client.open(workspace.path("mocked-bad.rlmplan.json"), MARKER_PLAN);
    await assert.rejects(
      execute("rlmPlan.server.run", [{ uri, mocks: { tools: { marker: [{}] } } }]),
      (error: ResponseError<unknown>) => /^The mocks cannot be used: mocks:1:/.test(error.message),
    );
    await server.client.close(uri);
  });

  it("nothing runs until the client asks", async () => {
    const { uri } = await server.open("marker.rlmplan.json", MARKER_PLAN);
    assert.equal(existsSync(workspace.path("ran.txt")), false, "opening and checking a plan runs nothing");
    const identity = (await execute("rlmPlan.server.run", [uri])) as { runId: string };
    const end = await finishedRun(identity.runId);
    assert.deepEqual(end.result.ok, true);
    assert.equal(existsSync(workspace.path("ran.txt")), true);
    await server.client.close(uri);
  });

  it("refuses a document that is not open, and bad arguments", async () => {
    await assert.rejects(
      execute("rlmPlan.server.run", [{ uri: workspace.uri("closed.rlmplan.json") }]),
      (error: unknown) => {
        assert.ok(error instanceof ResponseError);
        assert.match(error.message, /is not an open plan document/);
        return true;
      },
    );
    await assert.rejects(execute("rlmPlan.server.run", [42]), /needs the plan's document/);
    assert.equal(await execute("rlmPlan.server.cancel", [{ runId: "run-999" }]), false);
  });

  it("refuses to run without a host profile", () =>
    withServer({}, async (bare) => {
      const uri = await bare.client.open(bare.workspace.path("plan.rlmplan.json"), COUNT_PLAN);
      await assert.rejects(
        bare.client.connection.sendRequest(ExecuteCommandRequest.type, {
          command: "rlmPlan.server.run",
          arguments: [{ uri }],
        }),
        {
          message:
            "No host profile for this plan: create rlmplan.host.json in its folder or a folder above it (or set rlmPlan.hostProfile), then run it again",
        },
      );
    }));
});
