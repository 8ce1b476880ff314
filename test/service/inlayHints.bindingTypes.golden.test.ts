// Binding type hints (rlmPlan.inlayHints.bindingTypes) against golden files, one per plan
// scenario (test/service/golden/plans/): every hint over the whole document with the setting on,
// each binding's type from the core's typed data flow after its `bind`, beside the cost hints.
// A binding whose type is unknown (a tool with no result schema, a provider that is not a chat
// provider) gets none.

import assert from "node:assert/strict";
import { it } from "node:test";
import { inlayHints } from "@rlm-plan/language-server/service/inlayHints";
import { InlayHintKind } from "vscode-languageserver-protocol";
import { analyzed } from "./support/analyzed";
import { enumNames } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

const enums = { kind: enumNames(InlayHintKind) };

scenarioGoldens("inlay-hints-binding-types", ({ plan, readable }) => {
  const whole = { start: { line: 0, character: 0 }, end: plan.document.positionAt(plan.document.getText().length) };
  return readable(inlayHints(plan, whole, { bindingTypes: true }), { enums });
});

it("gives no binding types unless asked", () => {
  const { plan } = analyzed(
    `{ "steps": [{ "op": "rlm", "plan": { "steps": [{ "op": "final", "value": 1 }] }, "bind": "one" }, { "op": "final", "value": { "ref": "var", "name": "one" } }] }`,
  );
  const whole = { start: { line: 0, character: 0 }, end: plan.document.positionAt(plan.document.getText().length) };
  assert.deepEqual(inlayHints(plan, whole), []);
  assert.deepEqual(
    inlayHints(plan, whole, { bindingTypes: true }).map((hint) => [hint.position, hint.label, hint.tooltip]),
    [[{ line: 0, character: 94 }, ": integer", "`one`: integer, the final value of the rlm sub-plan"]],
  );
});
