// The graph view's edits (rlmPlan/graphEdit) against golden files: each fixture of
// test/service/golden/graph-edits/ names its edit in a `//! edit:` line (JSON, as the view sends
// it); the golden file holds the plan after the edit with its errors, or the refusal's reason.

import assert from "node:assert/strict";
import { describe } from "node:test";
import { graphEdit } from "@rlm-plan/language-server/service/graphEdits/graphEdit";
import type { GraphEdit } from "@rlm-plan/language-server/protocol";
import { analyzed } from "./support/analyzed";
import { goldenTests, jsonDirective } from "./support/golden";
import { scenarioOf } from "./support/scenarios";
import { applyWorkspaceEdit } from "./support/workspaceEdits";

describe("graph edits (golden files)", () => {
  goldenTests("graph-edits", (fixture) => {
    const { plan, uri, text, host } = scenarioOf(fixture);
    const edit = jsonDirective(fixture, "edit") as GraphEdit | undefined;
    assert.ok(edit, `${fixture.name}: give a //! edit: line`);
    const result = graphEdit(plan, plan.document.version, edit);
    if ("refused" in result) return { ".expected.txt": `refused: ${result.refused}\n` };
    const after = applyWorkspaceEdit({ [uri]: text }, result.edit)[uri] ?? "";
    const problems = analyzed(after, host ? { host: host.text } : {}).plan.problems;
    const errors = problems.filter((problem) => !problem.severity).map((problem) => problem.message);
    return { ".expected.txt": `errors after: ${errors.join("; ") || "none"}\n---\n${after}` };
  });
});
