// Runs the extension's tests inside a real VS Code with @vscode/test-electron: it downloads VS
// Code (the version in VSCODE_VERSION, default "stable") into .vscode-test/, opens a copy of
// the example workspace with the extension loaded from this repository, and runs the mocha
// suite in suite/ in the extension host. `npm run test:vscode`; it needs to reach VS Code's
// download server, so it is not part of `npm test` (the e2e suite in test/e2e/ drives
// code-server instead, offline).

import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runTests } from "@vscode/test-electron";

async function main(): Promise<void> {
  const root = resolve(__dirname, "..", "..", "..");
  const workspace = mkdtempSync(join(tmpdir(), "rlm-plan-vscode-test-"));
  cpSync(join(root, "examples", "workspace"), workspace, { recursive: true });
  // A plan with mistakes, for the diagnostics test (examples/plans/broken.rlmplan.json).
  cpSync(join(root, "examples", "plans", "broken.rlmplan.json"), join(workspace, "plans", "broken.rlmplan.json"));
  writeFileSync(join(workspace, ".vscode-test-workspace"), "a copy of examples/workspace for test/vscode\n");
  try {
    await runTests({
      version: process.env.VSCODE_VERSION ?? "stable",
      extensionDevelopmentPath: root,
      extensionTestsPath: join(__dirname, "suite", "index"),
      launchArgs: [workspace, "--disable-extensions", "--disable-workspace-trust", "--skip-welcome"],
    });
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`test:vscode failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
