// Code lenses over the protocol: above the plan, "▶ Run plan" (the client's command, with the
// document's URI) and the whole plan's worst case against the budget in force.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { CodeLensRequest, type CodeLens } from "vscode-languageserver-protocol/node";
import { hostProfile, LspClient, TempWorkspace } from "../protocol/support/lspClient";
import { HOST, PLAN } from "../protocol/support/sampleWorkspace";

describe("code lens: run and worst case", () => {
  const hosted = new TempWorkspace({ "rlmplan.host.json": hostProfile(HOST) });
  const bare = new TempWorkspace();
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: hosted.root });
  });
  after(async () => {
    await client.stop();
    hosted.dispose();
    bare.dispose();
  });

  async function lenses(file: string, text: string): Promise<{ uri: string; lenses: CodeLens[] | null }> {
    const uri = await client.open(file, text);
    const result = await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    await client.close(uri);
    return { uri, lenses: result };
  }

  const top = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 1 } });

  it("run, and the worst case against the host's budget", async () => {
    const { uri, lenses: result } = await lenses(hosted.path("plan.rlmplan.json"), PLAN);
    assert.deepEqual(result, [
      { range: top(0), command: { title: "▶ Run plan", command: "rlmPlan.server.runInEditor", arguments: [uri] } },
      {
        range: top(0),
        command: { title: "steps 13/64 · models 1/8 · tools 3/4 · context ops 1/32 · depth 2/4", command: "" },
      },
    ]);
  });

  it("marks a figure over its limit", async () => {
    const text = PLAN.replace('"attempts": 3', '"attempts": 5');
    const { lenses: result } = await lenses(hosted.path("plan.rlmplan.json"), text);
    assert.equal(result?.[1]?.command?.title, "steps 19/64 · models 1/8 · tools 5/4 ⚠ · context ops 1/32 · depth 2/4");
  });

  it("the default budget without a host profile; above the plan, after its comments", async () => {
    const text = `// a comment first\n${PLAN}`;
    const { uri, lenses: result } = await lenses(bare.path("plan.rlmplan.json"), text);
    assert.deepEqual(result, [
      { range: top(1), command: { title: "▶ Run plan", command: "rlmPlan.server.runInEditor", arguments: [uri] } },
      {
        range: top(1),
        command: { title: "steps 13/64 · models 1/8 · tools 3/16 · context ops 1/32 · depth 2/4", command: "" },
      },
    ]);
  });

  it("only the run lens while the plan cannot be read", async () => {
    const text = PLAN.replace('"op": "checkpoint"', '"op": "checkpont"');
    const { uri, lenses: result } = await lenses(hosted.path("plan.rlmplan.json"), text);
    assert.deepEqual(result, [
      { range: top(0), command: { title: "▶ Run plan", command: "rlmPlan.server.runInEditor", arguments: [uri] } },
    ]);
  });

  it("no lens for text that is not a plan object", async () => {
    const { lenses: result } = await lenses(hosted.path("list.rlmplan.json"), "[]");
    assert.deepEqual(result, []);
  });
});
