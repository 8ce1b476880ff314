// Registrations of the structure features any LSP editor asks for: selection ranges (plans and
// host profiles) and workspace symbols. Kept apart from features.ts's semantic features: these
// need only the source tree.

import { parseTree } from "jsonc-parser";
import type { Feature } from "./feature";
import { selectionRanges } from "../service/selectionRanges";
import { WorkspaceSymbols } from "../service/workspaceSymbols";

export const selections: Feature = (ctx) => {
  ctx.declare({ selectionRangeProvider: true });
  ctx.connection.onSelectionRanges(
    ctx.guard.request(
      "selectionRanges",
      (params) => {
        const document = ctx.documents.get(params.textDocument.uri);
        if (!document) return [];
        const plan = ctx.workspace.plan(params.textDocument.uri);
        const tree = plan ? plan.tree : parseTree(document.getText(), [], { allowTrailingComma: true });
        return selectionRanges(document, tree, params.positions);
      },
      [],
    ),
  );
};

export const workspaceSymbols: Feature = (ctx) => {
  const index = new WorkspaceSymbols((message) => ctx.connection.console.warn(message));
  ctx.declare({ workspaceSymbolProvider: true });
  ctx.connection.onWorkspaceSymbol(
    ctx.guard.request(
      "workspaceSymbol",
      (params) => {
        const { workspace } = ctx;
        const open = {
          analyzed: workspace.openPlans(),
          refused: workspace.refusedPlans().map(({ document }) => document.uri),
        };
        return index.search(workspace.folder, params.query, open, workspace.settings.maxAnalyzedSize);
      },
      [],
    ),
  );
};
