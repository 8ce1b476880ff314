// Every way the language server ends mid-run (SIGTERM, SIGINT, its input closed, its client's
// process gone, SIGKILL) leaves none of the run's tool processes behind 3 s later: the tool's
// grandchild and a helper that left the process group with setsid included.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, describe, test } from "node:test";
import { ExecuteCommandRequest } from "vscode-languageserver-protocol";
import { assertNothingLeft, escapeeWorkspace, TOOL_PLAN, waitForFile } from "../support/leftovers";
import { LspClient } from "@rlm-plan/lsp-harness";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-server-signals-"));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Ending {
  readonly name: string;
  end(client: LspClient, parent: { kill(): void }): void;
}

const ENDINGS: readonly Ending[] = [
  { name: "SIGTERM", end: (client) => process.kill(client.pid ?? 0, "SIGTERM") },
  { name: "SIGINT", end: (client) => process.kill(client.pid ?? 0, "SIGINT") },
  { name: "its input closed", end: (client) => client.closeInput() },
  { name: "its client's process gone", end: (_client, parent) => parent.kill() },
  { name: "SIGKILL", end: (client) => process.kill(client.pid ?? 0, "SIGKILL") },
];

describe("the language server: no tool process outlives it", () => {
  for (const [index, ending] of ENDINGS.entries()) {
    test(`ended by ${ending.name}`, async () => {
      const folder = join(dir, `ws-${index}`);
      const pidFile = join(dir, `pids-${index}.json`);
      const planFile = escapeeWorkspace(folder, pidFile);
      // The "client process" the server watches (initialize's processId): a process we can end.
      const parent = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      try {
        const client = await LspClient.start({ root: folder, processId: parent.pid });
        try {
          const uri = await client.open(planFile, JSON.stringify(TOOL_PLAN));
          assert.equal(pathToFileURL(planFile).href, uri);
          await client.connection.sendRequest(ExecuteCommandRequest.type, {
            command: "rlmPlan.server.run",
            arguments: [{ uri }],
          });
          const pids = await waitForFile(pidFile, () => client.stderr);
          ending.end(client, parent);
          await client.whenExited();
          await assertNothingLeft(pids, `the server ended by ${ending.name}`);
        } finally {
          // Already ended when the test passed; ended here when it failed before the ending.
          await client.stop();
        }
      } finally {
        parent.kill("SIGKILL");
      }
    });
  }
});
