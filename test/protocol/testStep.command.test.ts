// "Test This Step" over stdio, as the VS Code extension drives it: the lens above a step names the
// client's command with the plan and the step; StepBindingsRequest answers a template of the
// bindings the step reads (from their types), and, once the step has run, the values its last
// run was given (from the journal); RunCommand with `step` runs that step alone, recorded with
// origin step; a binding it reads and is not given is refused with the names in scope.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CodeLensRequest, ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { hostProfile } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { COUNT_PLAN, runHost } from "./support/runFixtures";

interface Finished {
  runId: string;
  result: { ok: boolean; value?: unknown };
}

describe("Test This Step through the server", () => {
  const finished = new Map<string, Finished>();
  const server = useServer({
    files: { "rlmplan.host.json": hostProfile(runHost()), "count.rlmplan.json": COUNT_PLAN },
    initializationOptions: { clientRunsPlans: true },
    onConnection: (connection) => {
      connection.onNotification("rlmPlan/runFinished", (params: Finished) => void finished.set(params.runId, params));
    },
  });

  it("offers the lens, a template, runs the step alone, then offers the values it ran with", async () => {
    const { client, workspace } = server;
    const uri = await client.open(workspace.path("count.rlmplan.json"), COUNT_PLAN);
    const lenses = (await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    const count = lenses.find((lens) => lens.command?.arguments?.[1] === "/steps/2");
    assert.deepEqual(count?.command, {
      title: "Test This Step",
      command: "rlmPlan.testStep",
      arguments: [uri, "/steps/2"],
    });
    assert.deepEqual(
      lenses.filter((lens) => lens.command?.command === "rlmPlan.testStep").map((lens) => lens.command?.arguments?.[1]),
      ["/steps/0", "/steps/1", "/steps/2", "/steps/3"],
    );

    const template = await client.connection.sendRequest("rlmPlan/stepBindings", { uri, step: "/steps/2" });
    assert.deepEqual(template, {
      shown: "steps/2",
      inScope: ["hits"],
      needed: ["hits"],
      bindings: { hits: [] },
      from: "types",
    });

    const identity = (await client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: "rlmPlan.server.run",
      arguments: [{ uri, step: { path: "/steps/2", bindings: { hits: ["a", "b", "c"] } } }],
    })) as { runId: string; journal?: { dir: string; id: number } };
    while (!finished.has(identity.runId)) await new Promise((resolve) => setTimeout(resolve, 20));
    const result = finished.get(identity.runId)?.result;
    assert.deepEqual([result?.ok, result?.value], [true, 3]);
    const run = (await client.connection.sendRequest("rlmPlan/journalRun", {
      dir: identity.journal?.dir,
      id: identity.journal?.id,
    })) as { origin: string; label: string; value: unknown };
    assert.deepEqual([run.origin, run.label, run.value], ["step", "steps/2", 3]);

    const again = await client.connection.sendRequest("rlmPlan/stepBindings", { uri, step: "/steps/2" });
    assert.deepEqual(again, {
      shown: "steps/2",
      inScope: ["hits"],
      needed: ["hits"],
      bindings: { hits: ["a", "b", "c"] },
      from: "journal",
      run: identity.journal?.id,
    });
  });

  it("refuses a step whose binding is not given, naming the names in scope", async () => {
    const { client, workspace } = server;
    const uri = await client.open(workspace.path("count.rlmplan.json"), COUNT_PLAN);
    await assert.rejects(
      client.connection.sendRequest(ExecuteCommandRequest.type, {
        command: "rlmPlan.server.run",
        arguments: [{ uri, step: { path: "/steps/2", bindings: {} } }],
      }),
      {
        message:
          'The step cannot run: the step at steps/2 reads "hits", which is not given (in scope: hits; the step reads: hits)',
      },
    );
  });
});
