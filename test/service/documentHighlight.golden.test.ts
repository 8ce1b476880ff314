// Document highlights against golden files at cursor-marked fixtures
// (test/service/golden/document-highlight/): the binding (Write) and every reference that means it
// (Read), with the text each covers.

import { documentHighlights } from "@rlm-plan/language-server/service/documentHighlight";
import { DocumentHighlightKind } from "vscode-languageserver-protocol";
import { enumNames } from "./support/readable";
import { cursorGoldens } from "./support/scenarios";

cursorGoldens("document-highlight", ({ plan, position, readable }) =>
  readable(documentHighlights(plan, position), { enums: { kind: enumNames(DocumentHighlightKind) } }),
);
