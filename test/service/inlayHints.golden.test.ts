// Inlay hints against golden files, one per plan scenario (test/service/golden/plans/) and per
// fixture of inlay-hints/: the hints over the whole document (position, label, kind, padding,
// tooltip), as the client receives them; then, for a fixture with `//! range: L:C-L:C` (1-based,
// as the goldens print ranges), the hints a request for that range answers.

import { inlayHints } from "@rlm-plan/language-server/service/inlayHints";
import { InlayHintKind } from "vscode-languageserver-protocol";
import { rangeDirective } from "./support/golden";
import { enumNames } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

const enums = { kind: enumNames(InlayHintKind) };

scenarioGoldens("inlay-hints", ({ fixture, plan, readable }) => {
  const whole = { start: { line: 0, character: 0 }, end: plan.document.positionAt(plan.document.getText().length) };
  const all = readable(inlayHints(plan, whole), { enums });
  const asked = rangeDirective(fixture, "range");
  if (asked === undefined) return all;
  return `${all}\nin ${fixture.directives.range}:\n${readable(inlayHints(plan, asked), { enums })}`;
});
