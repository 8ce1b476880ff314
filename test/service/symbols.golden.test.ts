// Document symbols (the outline) against golden files, one per plan scenario
// (test/service/golden/plans/): the nested steps with their names, details, kinds, ranges and
// selection ranges, as the client receives them.

import { documentSymbols } from "@rlm-plan/language-server/service/symbols";
import { SymbolKind } from "vscode-languageserver-protocol";
import { enumNames } from "./support/readable";
import { scenarioGoldens } from "./support/scenarios";

scenarioGoldens("symbols", ({ plan, readable }) =>
  readable(documentSymbols(plan), { enums: { kind: enumNames(SymbolKind) } }),
);
