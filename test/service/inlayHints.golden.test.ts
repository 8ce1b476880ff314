// Inlay hints against golden files, one per plan scenario (test/service/golden/plans/) and per
// fixture of inlay-hints/: the hints over the whole document (position, label, kind, padding,
// tooltip), as the client receives them; then, for a fixture with `//! range: L:C-L:C` (1-based,
// as the goldens print ranges), the hints a request for that range answers.

import { inlayHints } from "@rlm-plan/language-server/service/inlayHints";
import { InlayHintKind, type Range } from "vscode-languageserver-protocol";
import { enumNames } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

const enums = { kind: enumNames(InlayHintKind) };

/** `L:C-L:C` (1-based) as an LSP range; throws on anything else, naming the fixture. */
function rangeOf(name: string, written: string): Range {
  const match = /^(\d+):(\d+)-(\d+):(\d+)$/.exec(written);
  if (!match) throw new Error(`${name}: write its range as L:C-L:C, 1-based, not ${JSON.stringify(written)}`);
  const [line1, col1, line2, col2] = match.slice(1).map((n) => Number(n) - 1) as [number, number, number, number];
  return { start: { line: line1, character: col1 }, end: { line: line2, character: col2 } };
}

scenarioGoldens("inlay-hints", ({ fixture, plan, readable }) => {
  const whole = { start: { line: 0, character: 0 }, end: plan.document.positionAt(plan.document.getText().length) };
  const all = readable(inlayHints(plan, whole), { enums });
  const asked = fixture.directives.range;
  if (asked === undefined) return all;
  return `${all}\nin ${asked}:\n${readable(inlayHints(plan, rangeOf(fixture.name, asked)), { enums })}`;
});
