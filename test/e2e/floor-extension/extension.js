// e2e fixture (scenario a with E2E_FLOOR=1): VS Code's floor for a window's first diagnostic.
// Active from the window's start (its folder holds .e2e-floor), as rlm-plan is in its window; it
// publishes one error on broken.json the moment VS Code tells it the file opened, with no server
// and no analysis, so the time from the tab to the squiggle is VS Code's own.
"use strict";
const vscode = require("vscode");

exports.activate = (context) => {
  const collection = vscode.languages.createDiagnosticCollection("e2e-floor");
  // When the diagnostic left the extension (the e2e run reads it beside the page's times).
  const channel = vscode.window.createOutputChannel("e2e floor", { log: true });
  const publish = (document) => {
    if (document.uri.scheme !== "file" || !document.uri.path.endsWith("/broken.json")) return;
    // Line 14, "contxt" (as rlm-plan's first problem in broken.rlmplan.json).
    const range = new vscode.Range(13, 12, 13, 20);
    const diagnostic = new vscode.Diagnostic(range, "the floor's diagnostic", vscode.DiagnosticSeverity.Error);
    diagnostic.source = "e2e-floor";
    collection.set(document.uri, [diagnostic]);
    channel.info(`published at ${new Date().toISOString()}`);
  };
  vscode.workspace.textDocuments.forEach(publish);
  context.subscriptions.push(collection, channel, vscode.workspace.onDidOpenTextDocument(publish));
};
