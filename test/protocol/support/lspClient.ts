// The name the protocol and service tests have imported the LSP client by: the shared harness
// (@rlm-plan/lsp-harness, test/support/lsp/), re-exported whole. New tests import the package.

export * from "@rlm-plan/lsp-harness";
