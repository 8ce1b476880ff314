// Folding ranges against golden files, one per plan scenario (test/service/golden/plans/): one row
// per range, `first-last kind` (1-based lines) and the first line it folds, in the order answered.

import { foldingRanges } from "@rlm-plan/language-server/service/folding";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("folding", ({ plan, text }) => {
  const lines = text.split("\n");
  const rows = foldingRanges(plan).map((range) => {
    const columns = range.startCharacter === undefined ? "" : ` from column ${range.startCharacter + 1}`;
    const kind = range.kind ? ` ${range.kind}` : "";
    const shown = range.collapsedText === undefined ? "" : ` collapsed as ${JSON.stringify(range.collapsedText)}`;
    return `${range.startLine + 1}-${range.endLine + 1}${kind}${columns}${shown} ⟨${(lines[range.startLine] ?? "").trim().slice(0, 60)}⟩`;
  });
  return `${rows.join("\n")}\n`;
});
