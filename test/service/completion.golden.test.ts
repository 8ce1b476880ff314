// Completion against golden files at cursor-marked fixtures (test/service/golden/completion/):
// every item offered, in the order answered, with its kind, detail, documentation, insert text or
// edit (ranges as line:col with the text they replace) and sort text, as the client receives them.

import { completion } from "@rlm-plan/language-server/service/completion";
import { CompletionItemKind, InsertTextFormat } from "vscode-languageserver-protocol";
import { enumNames } from "./support/readable";
import { cursorGoldens } from "./support/scenarios";

const enums = { kind: enumNames(CompletionItemKind), insertTextFormat: enumNames(InsertTextFormat) };

cursorGoldens("completion", ({ plan, position, readable }) => {
  const answer = completion(plan, position);
  if (Array.isArray(answer)) return readable(answer, { enums });
  return `isIncomplete: ${answer.isIncomplete}\n${readable(answer.items, { enums })}`;
});
