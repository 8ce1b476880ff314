// Format Document against golden files, one per plan scenario (test/service/golden/plans/): the
// number of edits and the document they make, indented with 2 spaces and then with tabs; a
// refusal is printed as its message.

import { formatPlan } from "@rlm-plan/language-server/service/formatting";
import { scenarioGoldens } from "./support/scenarios";
import { applyTextEdits } from "./support/workspaceEdits";

scenarioGoldens("formatting", ({ plan, text }) => {
  const sections = [
    { title: "2 spaces", options: { tabSize: 2, insertSpaces: true } },
    { title: "tabs", options: { tabSize: 4, insertSpaces: false } },
  ].map(({ title, options }) => {
    const refusals: string[] = [];
    const edits = formatPlan(plan, { options }, (message) => refusals.push(message));
    const refused = refusals.map((message) => `refused: ${message}\n`).join("");
    return `=== ${title}: ${edits.length} edits\n${refused}${applyTextEdits(text, edits)}`;
  });
  return sections.join("\n");
});
