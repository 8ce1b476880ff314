// Rename against golden files at cursor-marked fixtures (test/service/golden/rename/): what
// prepareRename answers at the cursor, then the rename to the fixture's `//! to:` name: its edits
// and the plan they make, or the refusal's message.

import { prepareRename, rename } from "@rlm-plan/language-server/service/rename";
import { directive } from "./support/golden";
import { cursorGoldens } from "./support/scenarios";
import { applyWorkspaceEdit } from "./support/workspaceEdits";

cursorGoldens("rename", ({ fixture, plan, position, uri, text, readable }) => {
  const to = directive(fixture, "to");
  const prepared = `prepareRename: ${readable(prepareRename(plan, position))}`;
  const outcome = rename(plan, position, to);
  if ("refused" in outcome) return `${prepared}rename to ${JSON.stringify(to)}: refused: ${outcome.refused}\n`;
  const after = applyWorkspaceEdit({ [uri]: text }, outcome.edit)[uri];
  return `${prepared}rename to ${JSON.stringify(to)}:\n${readable(outcome.edit.changes?.[uri])}---\n${after}`;
});
