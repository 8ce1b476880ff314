// The extension in a real VS Code (run by runTests.ts in a copy of examples/workspace): it
// activates on a plan, the server's diagnostic appears for a broken plan, running a plan
// produces its transitions and value and keeps the run in the log, and "Create Host Profile"
// writes a profile the runtime accepts.

import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { parseHostProfile } from "@rlm-plan/core/host/profile";
import type { RlmPlanApi } from "rlm-plan-client";
import type { RunRecord } from "rlm-plan-client/runLog";

const EXTENSION_ID = "rlm-plan.rlm-plan";

function workspaceFile(...parts: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, "the test opens a workspace folder");
  return vscode.Uri.joinPath(folder.uri, ...parts);
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function openPlan(...parts: string[]): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument(workspaceFile(...parts));
  await vscode.window.showTextDocument(document);
  return document;
}

describe("RLM Plan extension", () => {
  let api: RlmPlanApi;

  before(async () => {
    await openPlan("plans", "needle-count.rlmplan.json");
    const extension = vscode.extensions.getExtension<RlmPlanApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    api = await extension.activate();
  });

  it("activates on a plan file and starts the language server", async () => {
    const document = await openPlan("plans", "needle-count.rlmplan.json");
    assert.equal(document.languageId, "rlm-plan");
    await until("the language server", () => (api.client.isRunning() ? true : undefined));
    const commands = await vscode.commands.getCommands(true);
    for (const id of ["rlmPlan.run", "rlmPlan.cancel", "rlmPlan.createHostProfile", "rlmPlan.setProviderApiKey"]) {
      assert.ok(commands.includes(id), `${id} is registered`);
    }
  });

  it("shows the server's diagnostic for a broken plan, on the misspelled operation", async () => {
    const document = await openPlan("plans", "broken.rlmplan.json");
    const diagnostics = await until("diagnostics", () => {
      const found = vscode.languages.getDiagnostics(document.uri);
      return found.length > 0 ? found : undefined;
    });
    const misspelled = diagnostics.find((d) => /contxt/.test(d.message));
    assert.ok(misspelled, `a diagnostic names "contxt": ${diagnostics.map((d) => d.message).join(" | ")}`);
    assert.equal(misspelled.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(document.getText(misspelled.range).replace(/"/g, ""), "contxt");
  });

  it("runs a plan: transitions, the final value, and a record in the run log", async () => {
    const document = await openPlan("plans", "needle-count.rlmplan.json");
    const record = (await vscode.commands.executeCommand("rlmPlan.run", document.uri)) as RunRecord | undefined;
    assert.ok(record, "the run started");
    assert.equal(record.status, "succeeded", JSON.stringify(record.error));
    assert.equal(record.value, 12);
    assert.deepEqual(
      record.transitions.map((t) => [t.sequence, t.operation, t.bind]),
      [
        [1, "context(search)", "hits"],
        [2, "tool(count_items)", "count"],
        [3, "final", null],
      ],
    );
    assert.deepEqual(record.transitions[1]?.path, ["steps", 1], "a transition knows its step's place in the plan");
    assert.equal(api.log.all()[0]?.id, record.id, "the newest run heads the log");
    assert.ok(!JSON.stringify(record).includes("needle\n"), "the log keeps no context text");
  });

  it("creates a host profile the runtime accepts, next to a plan that has none", async () => {
    const folder = workspaceFile("scratch").fsPath;
    mkdirSync(folder, { recursive: true });
    const plan = join(folder, "summarise.rlmplan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        steps: [
          {
            op: "context",
            handle: { ref: "input", name: "notes" },
            action: { type: "search", pattern: "todo" },
            bind: "hits",
          },
          { op: "model", provider: "openrouter", prompt: { ref: "input", name: "question" }, bind: "answer" },
          { op: "tool", name: "count_items", args: { ref: "var", name: "hits" }, bind: "count" },
          { op: "final", value: { ref: "var", name: "answer" } },
        ],
      }),
    );
    await vscode.commands.executeCommand("rlmPlan.createHostProfile", vscode.Uri.file(plan));
    const file = join(folder, "rlmplan.host.json");
    assert.ok(existsSync(file), "rlmplan.host.json was written");
    const loaded = parseHostProfile(readFileSync(file, "utf8"), file);
    assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
    assert.deepEqual(loaded.profile.capabilities, ["context(search)", "model(openrouter)", "tool(count_items)"]);
    assert.equal(loaded.profile.providers.get("openrouter")?.apiKeyEnv, "OPENROUTER_API_KEY");
  });
});
