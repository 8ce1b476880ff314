// The language server as the extension ships it: bundled, with the run trace and its four
// OpenTelemetry packages in a file of their own (dist/telemetry.js) that the session requires
// only for a run that exports a trace. The bundles are built here with scripts/bundle.mjs's own
// options into a temporary folder; the bundled server then runs a plan whose host profile sets
// `telemetry.otlp`, and its spans arrive at a real OTLP/HTTP receiver on 127.0.0.1 through that file.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol/node";
import { bundleInto } from "../support/bundleScript";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlpReceiver";
import { assertTraced, TRACED_ENV, TRACED_MOCKS, TRACED_PLAN, tracedProfile } from "../support/tracedRun";
import { hostProfile, LspClient, TempWorkspace } from "./support/lspClient";

const dist = mkdtempSync(join(tmpdir(), "rlm-plan-bundle-otel-"));
let inputs = new Map<string, string[]>();
let client: LspClient | undefined;
let workspace: TempWorkspace | undefined;
let receiver: OtlpReceiver | undefined;

before(async () => {
  inputs = await bundleInto(dist, ["dist/server.js", "dist/telemetry.js", "dist/supervisor.js"]);
});

after(async () => {
  await client?.stop();
  workspace?.dispose();
  await receiver?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("the bundled language server and OpenTelemetry", () => {
  it("leaves OpenTelemetry out of the server's bundle and requires it from telemetry.js", () => {
    const server = inputs.get("dist/server.js") ?? [];
    assert.ok(server.includes("server/out/lsp/main.js"), server.slice(0, 3).join(", "));
    assert.deepEqual(
      server.filter((i) => /node_modules\/@opentelemetry\/|telemetry\/runTrace/.test(i)),
      [],
    );
    assert.ok(
      (inputs.get("dist/telemetry.js") ?? []).some((i) => i.includes("node_modules/@opentelemetry/sdk-trace-base/")),
    );
    assert.match(readFileSync(join(dist, "server.js"), "utf8"), /require\("\.\/telemetry\.js"\)/);
  });

  it("exports a run's trace to the profile's receiver through the trace's own file", async () => {
    receiver = await startOtlpReceiver();
    workspace = new TempWorkspace({ "rlmplan.host.json": hostProfile(tracedProfile(receiver.url)) });
    client = await LspClient.start({ root: workspace.root, serverMain: join(dist, "server.js") });
    const uri = await client.open(workspace.path("traced.rlmplan.json"), TRACED_PLAN);
    const identity = (await client.connection.sendRequest(ExecuteCommandRequest.type, {
      command: "rlmPlan.server.run",
      arguments: [{ uri, mocks: TRACED_MOCKS, env: TRACED_ENV }],
    })) as { journal?: { id: number } };
    // The journal's SQLite is not beside these bundles (the package copies it): on a Node without
    // node:sqlite the run is unrecorded, and its trace names no journal run.
    await assertTraced(receiver, "traced.rlmplan.json", identity.journal?.id);
  });
});
