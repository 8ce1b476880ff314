// Inlay hints against golden files, one per plan scenario (test/service/golden/plans/): the hints
// over the whole document (position, label, kind, padding, tooltip), as the client receives them.

import { inlayHints } from "@rlm-plan/language-server/service/inlayHints";
import { InlayHintKind } from "vscode-languageserver-protocol";
import { enumNames } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("inlay-hints", ({ plan, readable }) => {
  const whole = { start: { line: 0, character: 0 }, end: plan.document.positionAt(plan.document.getText().length) };
  return readable(inlayHints(plan, whole), { enums: { kind: enumNames(InlayHintKind) } });
});
