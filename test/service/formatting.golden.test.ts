// Format Document against golden files, one per plan scenario (test/service/golden/plans/) and per
// fixture of formatting/: the number of edits and the document they make, indented with 2 spaces,
// then with tabs, then a range format of the fourth and fifth lines only; a fixture may add a
// format with its own `//! options: {...}` (the editor's formatting options, as JSON) and a range
// format of its `//! range: L:C-L:C` (1-based). A refusal is printed as its message.

import { formatPlan } from "@rlm-plan/language-server/service/formatting";
import type { FormattingOptions, Range } from "vscode-languageserver-protocol";
import { jsonDirective, rangeDirective } from "./support/golden";
import { scenarioGoldens } from "./support/scenarios";
import { applyTextEdits } from "./support/workspaceEdits";

const LINES_4_5 = { start: { line: 3, character: 0 }, end: { line: 5, character: 0 } };
const TWO_SPACES = { tabSize: 2, insertSpaces: true };

interface Section {
  readonly title: string;
  readonly options: FormattingOptions;
  readonly range?: Range;
}

scenarioGoldens("formatting", ({ fixture, plan, text }) => {
  const sections: Section[] = [
    { title: "2 spaces", options: TWO_SPACES },
    { title: "tabs", options: { tabSize: 4, insertSpaces: false } },
    { title: "lines 4-5, 2 spaces", options: TWO_SPACES, range: LINES_4_5 },
  ];
  const options = jsonDirective(fixture, "options") as FormattingOptions | undefined;
  if (options) sections.push({ title: `options ${fixture.directives.options}`, options });
  const range = rangeDirective(fixture, "range");
  if (range) sections.push({ title: `range ${fixture.directives.range}, 2 spaces`, options: TWO_SPACES, range });
  return sections
    .map(({ title, options, range }) => {
      const refusals: string[] = [];
      const edits = formatPlan(plan, { options, ...(range ? { range } : {}) }, (message) => refusals.push(message));
      const refused = refusals.map((message) => `refused: ${message}\n`).join("");
      return `=== ${title}: ${edits.length} edits\n${refused}${applyTextEdits(text, edits)}`;
    })
    .join("\n");
});
