// The end-to-end scenarios again, in the oldest VS Code the extension supports (engines.vscode
// ^1.96.0): code-server 4.96.4, on this machine's Node (its engines.node is 20). An optional tier,
// not in `npm test` or CI, which run the newest (e2e.test.mjs): Node 20 reached end of life in
// April 2026 and users run current editors, but a change to the client, a contribution or the
// webview should still be tried here, where VS Code differs (harness.mjs VARIANTS: a trust dialog
// at startup, Run and Debug opened by VS Code when a debug session starts, the packaged
// better-sqlite3 loaded by the extension host's Node 20 where the newest uses node:sqlite).
//
//   E2E_OLDEST=1 bash scripts/install-e2e.sh && npm run test:e2e:oldest

process.env.E2E_VSCODE = "oldest";
await import("./e2e.test.mjs");
