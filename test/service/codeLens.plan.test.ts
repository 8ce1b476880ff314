// The code lens, in process: above the plan, "▶ Run plan" (the client's command, with the
// document's URI), titled with the whole plan's worst case against the budget in force.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codeLenses } from "@rlm-plan/language-server/service/codeLens";
import type { CodeLens } from "vscode-languageserver-protocol";
import { HOST, PLAN } from "../support/sampleWorkspace";
import { analyzed, onTheWire, type PlanOptions } from "./support/analyzed";

describe("code lens: run and worst case", () => {
  const hosted: PlanOptions = { host: HOST };
  const bare: PlanOptions = {};

  function lenses(options: PlanOptions, text: string): { uri: string; lenses: CodeLens[] } {
    const { plan, uri } = analyzed(text, options);
    return { uri, lenses: onTheWire(codeLenses(plan)) };
  }

  const top = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 1 } });

  it("run, and the worst case against the host's budget", () => {
    const { uri, lenses: result } = lenses(hosted, PLAN);
    assert.deepEqual(result, [
      {
        range: top(0),
        command: {
          title: "▶ Run plan (steps 13/64 · models 1/8 · tools 3/4 · context ops 1/32 · depth 2/4)",
          command: "rlmPlan.server.runInEditor",
          arguments: [uri],
        },
      },
    ]);
  });

  it("marks a figure over its limit", () => {
    const text = PLAN.replace('"attempts": 3', '"attempts": 5');
    const { lenses: result } = lenses(hosted, text);
    assert.equal(
      result?.[0]?.command?.title,
      "▶ Run plan (steps 19/64 · models 1/8 · tools 5/4 ⚠ · context ops 1/32 · depth 2/4)",
    );
  });

  it("the default budget without a host profile; above the plan, after its comments", () => {
    const text = `// a comment first\n${PLAN}`;
    const { uri, lenses: result } = lenses(bare, text);
    assert.deepEqual(result, [
      {
        range: top(1),
        command: {
          title: "▶ Run plan (steps 13/64 · models 1/8 · tools 3/16 · context ops 1/32 · depth 2/4)",
          command: "rlmPlan.server.runInEditor",
          arguments: [uri],
        },
      },
    ]);
  });

  it("above the plan after comments and CRLF, CR or LF line breaks, indented: where the editor puts it", () => {
    const text = `/* one\r\ntwo\rthree */\n\r\n  ${PLAN}`;
    const { plan } = analyzed(text, bare);
    const expected = {
      start: plan.document.positionAt(text.indexOf("{")),
      end: plan.document.positionAt(text.indexOf("{") + 1),
    };
    assert.deepEqual(expected, { start: { line: 4, character: 2 }, end: { line: 4, character: 3 } });
    assert.deepEqual(onTheWire(codeLenses(plan))[0]?.range, expected);
  });

  it("only the run lens while the plan cannot be read", () => {
    const text = PLAN.replace('"op": "checkpoint"', '"op": "checkpont"');
    const { uri, lenses: result } = lenses(hosted, text);
    assert.deepEqual(result, [
      { range: top(0), command: { title: "▶ Run plan", command: "rlmPlan.server.runInEditor", arguments: [uri] } },
    ]);
  });

  it("one lens: nothing display-only, which a lens picker would offer as runnable", () => {
    const { lenses: result } = lenses(hosted, PLAN);
    assert.deepEqual(
      result.map((lens) => lens.command?.command),
      ["rlmPlan.server.runInEditor"],
    );
  });

  it("the client's own run command when the client runs plans", () => {
    const { plan, uri } = analyzed(PLAN, hosted);
    assert.deepEqual(codeLenses(plan, true)[0]?.command, {
      title: "▶ Run plan (steps 13/64 · models 1/8 · tools 3/4 · context ops 1/32 · depth 2/4)",
      command: "rlmPlan.run",
      arguments: [uri],
    });
  });

  it("no lens for text that is not a plan object", () => {
    const { lenses: result } = lenses({ ...hosted, name: "list.rlmplan.json" }, "[]");
    assert.deepEqual(result, []);
  });
});
