// Binding type hints (rlmPlan.inlayHints.bindingTypes) against golden files, one per plan
// scenario (test/service/golden/plans/): every hint over the whole document with the setting on,
// each binding's type from the core's typed data flow after its `bind`, beside the cost hints.
// A binding whose type is unknown (a tool with no result schema, a provider that is not a chat
// provider) gets none.

import { inlayHints } from "@rlm-plan/language-server/service/inlayHints";
import { InlayHintKind } from "vscode-languageserver-protocol";
import { enumNames } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

const enums = { kind: enumNames(InlayHintKind) };

scenarioGoldens("inlay-hints-binding-types", ({ plan, readable }) => {
  const whole = { start: { line: 0, character: 0 }, end: plan.document.positionAt(plan.document.getText().length) };
  return readable(inlayHints(plan, whole, { bindingTypes: true }), { enums });
});
