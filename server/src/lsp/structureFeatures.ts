// Registrations of the structure features any LSP editor asks for: the outline (document
// symbols), selection ranges (plans and host profiles) and workspace symbols. Kept apart from
// features.ts's semantic features: these need only the source tree.

import { parseTree } from "jsonc-parser";
import { LSPErrorCodes, ResponseError } from "vscode-languageserver";
import { DocumentSymbolsCache } from "./documentSymbolsCache";
import type { Feature } from "./feature";
import { selectionRanges } from "../service/selectionRanges";
import { WorkspaceSymbols } from "../service/workspaceSymbols";

export const outline: Feature = (ctx) => {
  const cache = new DocumentSymbolsCache();
  ctx.documents.onDidClose((event) => cache.forget(event.document.uri));
  // After the diagnostics and the tree (queued before this): the outline the editor will ask next.
  ctx.workspace.onPlanAnalyzed((plan) =>
    setImmediate(() => {
      if (ctx.documents.get(plan.document.uri)?.version !== plan.document.version) return;
      ctx.guard.run("documentSymbol (ahead)", () => cache.warm(plan));
    }),
  );
  ctx.declare({ documentSymbolProvider: { label: "Plan steps" } });
  ctx.connection.onDocumentSymbol(
    ctx.guard.request(
      "documentSymbol",
      async (params) => {
        const uri = params.textDocument.uri;
        const asked = ctx.documents.get(uri)?.version;
        // A change (or a cancel) that came in behind the request is read first: the outline of a
        // version the editor has already left is not built (the editor asks again on its own).
        // The connection handles its next message in an immediate queued after this handler's
        // first one, so the check waits two turns.
        await turns(2);
        if (ctx.documents.get(uri)?.version !== asked)
          return new ResponseError(LSPErrorCodes.ContentModified, "the document changed while its outline was asked");
        const plan = ctx.workspace.plan(uri);
        return plan ? cache.symbols(plan) : [];
      },
      [],
    ),
  );
};

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

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
