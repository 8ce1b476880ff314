// The requests the VS Code client sends instead of computing from the runtime itself: a plan's
// worst case as figures and budget rows (the status bar), the host profile a plan needs
// ("Create Host Profile"), and a named host profile's providers (keys for a debug run).

import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { after, describe, it } from "node:test";
import type {
  HostProfileTemplateRequest,
  HostProvidersRequest,
  WorstCaseRequest,
} from "@rlm-plan/language-server/protocol";
import { parseHostProfile } from "@rlm-plan/core/host/profile";
import { hostProfile, TempWorkspace } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { HOST, PLAN } from "../support/sampleWorkspace";

describe("client queries: worst case, host profile template, providers", () => {
  const server = useServer({ files: { "rlmplan.host.json": hostProfile(HOST) } });
  const hosted = server.workspace;
  const bare = new TempWorkspace();
  after(() => bare.dispose());

  async function worstCase(file: string, text: string): Promise<WorstCaseRequest.Result | null> {
    const uri = await server.client.open(file, text);
    const result = (await server.client.connection.sendRequest("rlmPlan/worstCase", {
      uri,
    })) as WorstCaseRequest.Result | null;
    await server.client.close(uri);
    return result;
  }

  const figure = (label: string, name: string, estimate: number, limit: number | null, over = false) => ({
    label,
    figure: name,
    estimate,
    limit,
    over,
  });
  const row = (field: string, label: string, estimate: number, limit: number, over = false) => ({
    field,
    label,
    estimate,
    limit,
    over,
  });

  it("the worst case against the host's budget, as figures and rows", async () => {
    const file = hosted.path("plan.rlmplan.json");
    const result = await worstCase(file, PLAN);
    assert.deepEqual(result, {
      uri: pathToFileURL(file).href,
      title: "steps 13/64 · models 1/8 · tools 3/4 · context ops 1/32 · depth 2/4",
      over: false,
      figures: [
        figure("steps", "steps", 13, 64),
        figure("models", "model_calls", 1, 8),
        figure("tools", "tool_calls", 3, 4),
        figure("context ops", "context_ops", 1, 32),
        figure("depth", "depth", 2, 4),
      ],
      rows: [
        row("max_steps", "steps", 13, 64),
        row("max_depth", "depth", 2, 4),
        row("max_parallel", "parallel width", 0, 8),
        row("max_model_calls", "model calls", 1, 8),
        row("max_tool_calls", "tool calls", 3, 4),
        row("max_context_ops", "context operations", 1, 32),
      ],
      budget: "host",
      hostProfile: hosted.path("rlmplan.host.json"),
    });
  });

  it("a figure over its limit is marked in the figures, the rows and the title", async () => {
    const result = await worstCase(hosted.path("plan.rlmplan.json"), PLAN.replace('"attempts": 3', '"attempts": 5'));
    assert.equal(result?.over, true);
    assert.equal(result?.title, "steps 19/64 · models 1/8 · tools 5/4 ⚠ · context ops 1/32 · depth 2/4");
    assert.deepEqual(
      result?.figures.filter((f) => f.over),
      [figure("tools", "tool_calls", 5, 4, true)],
    );
    assert.deepEqual(
      result?.rows.filter((r) => r.over),
      [row("max_tool_calls", "tool calls", 5, 4, true)],
    );
  });

  it("the default budget without a host profile", async () => {
    const result = await worstCase(bare.path("plan.rlmplan.json"), PLAN);
    assert.equal(result?.budget, "default");
    assert.equal(result?.hostProfile, null);
    assert.equal(result?.title, "steps 13/64 · models 1/8 · tools 3/16 · context ops 1/32 · depth 2/4");
  });

  it("none for a plan that cannot be read completely, or a document that is not open", async () => {
    const broken = PLAN.replace('"op": "checkpoint"', '"op": "checkpont"');
    assert.equal(await worstCase(hosted.path("plan.rlmplan.json"), broken), null);
    const closed = pathToFileURL(hosted.path("closed.rlmplan.json")).href;
    assert.equal(await server.client.connection.sendRequest("rlmPlan/worstCase", { uri: closed }), null);
  });

  const template = (params: unknown) =>
    server.client.connection.sendRequest(
      "rlmPlan/hostProfileTemplate",
      params,
    ) as Promise<HostProfileTemplateRequest.Result>;

  it("the host profile a plan needs, written by the server from the plan's text", async () => {
    const uri = pathToFileURL(bare.path("my plan.rlmplan.json")).href;
    const result = await template({ uri, text: PLAN });
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(result.capabilities, [
      "context(search)",
      "retry",
      "checkpoint",
      "tool(count_items)",
      "model(local)",
    ]);
    assert.deepEqual(result.text.split("\n").slice(5, 12), [
      '  "description": "Host for my plan.rlmplan.json",',
      "  // Every capability the plan uses; a plan that needs one not listed here is invalid.",
      '  "capabilities": ["context(search)", "retry", "checkpoint", "tool(count_items)", "model(local)"],',
      "  // The plan's worst case: steps 13, depth 2, model calls 1, tool calls 3, context operations 1.",
      "  // The default budget covers it (max_steps 64, max_depth 4, max_parallel 8, max_model_calls 8, max_tool_calls 16, max_context_ops 32, max_output_bytes 65536, time_limit 10 s);",
      "  // lower a field here to hold plans to less.",
      '  "budget": {},',
    ]);
    // What it writes is a host profile the runtime loads.
    const loaded = parseHostProfile(result.text, bare.path("rlmplan.host.json"));
    assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
    assert.deepEqual([...loaded.profile.providers.keys()], ["local"]);
  });

  it("says why when the plan cannot be read, or the request is malformed", async () => {
    const uri = pathToFileURL(bare.path("plan.rlmplan.json")).href;
    assert.deepEqual(await template({ uri, text: "{" }), {
      ok: false,
      message:
        "the plan cannot be read completely (invalid JSON: close brace expected): fix it first, then create its host profile",
    });
    assert.deepEqual(await template({ uri }), {
      ok: false,
      message: 'rlmPlan/hostProfileTemplate needs {"uri": ..., "text": ...}',
    });
  });

  it("a named host profile's providers and key variables, whatever the document", async () => {
    const uri = pathToFileURL(bare.path("plan.rlmplan.json")).href;
    const params: HostProvidersRequest.Params = { uri, hostProfile: hosted.path("rlmplan.host.json") };
    assert.deepEqual(await server.client.connection.sendRequest("rlmPlan/hostProviders", params), {
      hostProfile: hosted.path("rlmplan.host.json"),
      providers: [{ name: "local", description: "A small local model", keyVariable: "LOCAL_SECRET_KEY" }],
    });
    assert.deepEqual(await server.client.connection.sendRequest("rlmPlan/hostProviders", { uri }), {
      hostProfile: null,
      providers: [],
    });
  });
});
