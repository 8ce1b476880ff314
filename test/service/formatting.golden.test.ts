// Format Document against golden files, one per plan scenario (test/service/golden/plans/): the
// number of edits and the document they make, indented with 2 spaces, then with tabs, then a
// range format of the fourth and fifth lines only; a refusal is printed as its message.

import { formatPlan } from "@rlm-plan/language-server/service/formatting";
import { scenarioGoldens } from "./support/scenarios";
import { applyTextEdits } from "./support/workspaceEdits";

const LINES_4_5 = { start: { line: 3, character: 0 }, end: { line: 5, character: 0 } };

scenarioGoldens("formatting", ({ plan, text }) => {
  const sections = [
    { title: "2 spaces", options: { tabSize: 2, insertSpaces: true } },
    { title: "tabs", options: { tabSize: 4, insertSpaces: false } },
    { title: "lines 4-5, 2 spaces", options: { tabSize: 2, insertSpaces: true }, range: LINES_4_5 },
  ].map(({ title, options, range }) => {
    const refusals: string[] = [];
    const edits = formatPlan(plan, { options, ...(range ? { range } : {}) }, (message) => refusals.push(message));
    const refused = refusals.map((message) => `refused: ${message}\n`).join("");
    return `=== ${title}: ${edits.length} edits\n${refused}${applyTextEdits(text, edits)}`;
  });
  return sections.join("\n");
});
