// Selection ranges (expand selection) against golden files at cursor-marked fixtures
// (test/service/golden/selection-ranges/): from the token at the cursor outward, one range a line,
// each with the text it covers, to the whole document. A plan's ranges come from its analysed
// tree; a fixture with `//! document: host-profile` is a host profile, whose ranges come from its
// parse, as the server does.

import { parseTree } from "jsonc-parser";
import { selectionRanges } from "@rlm-plan/language-server/service/selectionRanges";
import type { SelectionRange } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { HOST_URI } from "./support/analyzed";
import { span } from "./support/readable";
import { cursorGoldens } from "./support/scenarios";

cursorGoldens("selection-ranges", ({ fixture, plan, position, text }) => {
  const profile = fixture.directives.document === "host-profile";
  const document = profile ? TextDocument.create(HOST_URI, "json", 1, text) : plan.document;
  const tree = profile ? parseTree(text, [], { allowTrailingComma: true }) : plan.tree;
  const rows: string[] = [];
  for (
    let range: SelectionRange | undefined = selectionRanges(document, tree, [position])[0];
    range;
    range = range.parent
  )
    rows.push(span(range.range, text));
  return `${rows.join("\n")}\n`;
});
