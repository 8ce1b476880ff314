// Selection ranges (expand selection) against golden files at cursor-marked fixtures
// (test/service/golden/selection-ranges/): from the token at the cursor outward, one range a line,
// each with the text it covers, to the whole document.

import { selectionRanges } from "@rlm-plan/language-server/service/selectionRanges";
import type { SelectionRange } from "vscode-languageserver-protocol";
import { span } from "./support/readable";
import { cursorGoldens } from "./support/scenarios";

cursorGoldens("selection-ranges", ({ plan, position, text }) => {
  const rows: string[] = [];
  for (
    let range: SelectionRange | undefined = selectionRanges(plan.document, plan.tree, [position])[0];
    range;
    range = range.parent
  )
    rows.push(span(range.range, text));
  return `${rows.join("\n")}\n`;
});
