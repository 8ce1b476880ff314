// Hover on the plan's top (its `{` or the "steps" key), in process: the whole plan's
// worst case against the budget in force, as a small table.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hover } from "@rlm-plan/language-server/service/hover";
import { at, HOST, PLAN } from "../support/sampleWorkspace";
import { analyzedAt, hoverValue } from "./support/analyzed";

describe("hover: the whole plan", () => {
  // "hosted" plans are under the sample host profile, "bare" ones have none.
  function hoverText(where: "hosted" | "bare", marked: string): string | undefined {
    const { plan, position } = analyzedAt(marked, where === "hosted" ? { host: HOST } : {});
    return hoverValue(hover(plan, position));
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

  it("on the top brace and on the steps key: the worst case against the host's budget", () => {
    assert.equal(hoverText("hosted", `|${PLAN}`), TABLE);
    assert.equal(hoverText("hosted", at(PLAN, '"st|eps": [\n    {"op": "context"')), TABLE);
  });

  it("marks what exceeds the budget; without a host, the default budget", () => {
    const heavy = PLAN.replace('"attempts": 3', '"attempts": 21');
    assert.equal(
      hoverText("bare", `|${heavy}`),
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

  it("answers nothing where the text is not a plan yet", () => {
    assert.equal(hoverText("bare", "|"), undefined);
    assert.equal(hoverText("bare", "|[1, 2]"), undefined);
  });
});
