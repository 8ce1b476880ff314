// Hover on the plan's top (its `{` or the "steps" key) over the protocol: the whole plan's
// worst case against the budget in force, as a small table.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fixture, hostProfile, LspClient, TempWorkspace } from "../protocol/support/lspClient";
import { at, HOST, PLAN } from "../protocol/support/sampleWorkspace";

describe("hover: the whole plan", () => {
  const workspace = new TempWorkspace({ "hosted/rlmplan.host.json": hostProfile(HOST) });
  let client: LspClient;
  before(async () => {
    client = await LspClient.start({ root: workspace.root });
  });
  after(async () => {
    await client.stop();
    workspace.dispose();
  });

  async function hoverValue(file: string, marked: string): Promise<string | undefined> {
    const { text, position } = fixture(marked);
    const uri = await client.open(workspace.path(file), text);
    const result = await client.hover(uri, position);
    await client.close(uri);
    const contents = result?.contents;
    return contents && typeof contents === "object" && "value" in contents ? contents.value : undefined;
  }

  const TABLE = [
    "**Plan** 4 steps: worst case against the budget of `rlmplan.host.json`",
    [
      "| | worst case | budget |",
      "|---|---:|---:|",
      "| steps | 13 | 64 |",
      "| depth | 2 | 4 |",
      "| parallel width | 0 | 8 |",
      "| model calls | 1 | 8 |",
      "| tool calls | 3 | 4 |",
      "| context operations | 1 | 32 |",
    ].join("\n"),
    "Output bytes and wall time are counted at run time: max_output_bytes 65536, time_limit 10 s.",
  ].join("\n\n");

  it("on the top brace and on the steps key: the worst case against the host's budget", async () => {
    assert.equal(await hoverValue("hosted/plan.rlmplan.json", `|${PLAN}`), TABLE);
    assert.equal(await hoverValue("hosted/plan.rlmplan.json", at(PLAN, '"st|eps": [\n    {"op": "context"')), TABLE);
  });

  it("marks what exceeds the budget; without a host, the default budget", async () => {
    const heavy = PLAN.replace('"attempts": 3', '"attempts": 21');
    assert.equal(
      await hoverValue("bare/plan.rlmplan.json", `|${heavy}`),
      [
        "**Plan** 4 steps: worst case against the default budget (no host profile)",
        [
          "| | worst case | budget |",
          "|---|---:|---:|",
          "| steps | **67** (over) | 64 |",
          "| depth | 2 | 4 |",
          "| parallel width | 0 | 8 |",
          "| model calls | 1 | 8 |",
          "| tool calls | **21** (over) | 16 |",
          "| context operations | 1 | 32 |",
        ].join("\n"),
        "Output bytes and wall time are counted at run time: max_output_bytes 65536, time_limit 10 s.",
      ].join("\n\n"),
    );
  });

  it("answers nothing where the text is not a plan yet", async () => {
    assert.equal(await hoverValue("bare/empty.rlmplan.json", "|"), undefined);
    assert.equal(await hoverValue("bare/array.rlmplan.json", "|[1, 2]"), undefined);
  });
});
