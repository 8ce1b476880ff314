// The lock in the editor: a host profile without rlmplan.lock.json gets a hint, one whose command
// tool's script changed after `lock` gets a drift error at the tool's entry, a damaged lock an
// error; each offers "Update Lock" as a command (never an edit), and running it (the user's act)
// writes the lock and clears the diagnostics. A lock written from outside (a terminal's
// `rlm-plan lock`) is read again through the file watcher.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import {
  CodeActionRequest,
  ExecuteCommandRequest,
  FileChangeType,
  type Diagnostic,
} from "vscode-languageserver-protocol";
import { hostProfile, LspClient, rangeOf, TempWorkspace } from "./support/lspClient";

const workspace = new TempWorkspace({ "tool.js": "process.stdout.write('1')\n" });
const clients: LspClient[] = [];
after(async () => {
  for (const client of clients) await client.stop();
  workspace.dispose();
});

const PROFILE = hostProfile({
  capabilities: ["tool(count)"],
  tools: { count: { type: "command", command: ["node", "tool.js"] } },
});
const DRIFT =
  'drift from the lock: command tool "count": its script tool.js changed (its SHA-256 is not the locked one); runs refuse it until it is accepted (Update Lock, or rlm-plan lock --update)';

const shown = (list: readonly Diagnostic[]) => list.map((d) => [d.code, d.severity, d.range, d.message]);

describe("the host profile's lock in the editor", () => {
  it("hints without a lock, shows drift at the tool, and Update Lock accepts it", async () => {
    const client = await LspClient.start({ root: workspace.root, settings: {} });
    clients.push(client);
    const execute = (command: string, args: unknown[]) =>
      client.connection.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
    const actions = (diagnostics: Diagnostic[]) =>
      client.connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: diagnostics[0]!.range,
        context: { diagnostics },
      });
    const uri = await client.open(workspace.path("rlmplan.host.json"), PROFILE, "json");

    const hint = await client.waitForDiagnostics(uri, (list) => list.length > 0);
    assert.deepEqual(shown(hint), [
      [
        "no_lock",
        4,
        { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
        "no rlmplan.lock.json: the profile's tools are trusted by name; pin them with rlm-plan lock (or Create Lock) so that runs refuse a tool that changed",
      ],
    ]);
    const create = await actions(hint);
    assert.deepEqual(
      create?.map((action) => [
        "title" in action ? action.title : "",
        "command" in action ? action.command : undefined,
      ]),
      [
        [
          "Create Lock (starts the profile's MCP servers)",
          {
            title: "Create Lock (starts the profile's MCP servers)",
            command: "rlmPlan.server.updateLock",
            arguments: [{ uri }],
          },
        ],
      ],
    );
    assert.equal(
      create?.[0] && "edit" in create[0] ? create[0].edit : undefined,
      undefined,
      "a command, never an edit",
    );
    const written = await execute("rlmPlan.server.updateLock", [{ uri }]);
    assert.deepEqual(written, { outcome: "written", file: workspace.path("rlmplan.lock.json"), lines: [] });
    assert.deepEqual(await client.waitForDiagnostics(uri, (list) => list.length === 0), []);
    const lockText = readFileSync(workspace.path("rlmplan.lock.json"), "utf8");

    // The script changes after review; the profile is checked again (here: edited).
    writeFileSync(workspace.path("tool.js"), "process.stdout.write('2')\n");
    await client.change(uri, `${PROFILE}\n`);
    const drift = await client.waitForDiagnostics(uri, (list) => list.length > 0);
    assert.deepEqual(shown(drift), [["tool_drift", 1, rangeOf(PROFILE, '"count"', '"tools"'), DRIFT]]);
    const update = await actions(drift);
    assert.deepEqual(
      update?.map((action) => ("title" in action ? action.title : "")),
      ["Update Lock (accept the changes)"],
    );
    const updated = await execute("rlmPlan.server.updateLock", [{ uri }]);
    assert.deepEqual(updated, {
      outcome: "updated",
      file: workspace.path("rlmplan.lock.json"),
      lines: ['command tool "count": its script tool.js changed (its SHA-256 is not the locked one)'],
    });
    assert.deepEqual(await client.waitForDiagnostics(uri, (list) => list.length === 0), []);

    // The old lock put back from outside the editor: the watcher reads it again.
    writeFileSync(workspace.path("rlmplan.lock.json"), lockText);
    await client.filesChanged([{ uri: workspace.uri("rlmplan.lock.json"), type: FileChangeType.Changed }]);
    assert.deepEqual(shown(await client.waitForDiagnostics(uri, (list) => list.length > 0)), shown(drift));

    // A damaged lock: an error at the top, and Update Lock offered to write it again.
    writeFileSync(workspace.path("rlmplan.lock.json"), "{");
    await client.filesChanged([{ uri: workspace.uri("rlmplan.lock.json"), type: FileChangeType.Changed }]);
    const damaged = await client.waitForDiagnostics(uri, (list) => list[0]?.code === "lock_unreadable");
    assert.equal(damaged.length, 1);
    assert.match(String(damaged[0]!.message), /^rlmplan\.lock\.json:1:2: .*: runs refuse this profile$/);
    assert.deepEqual(
      (await actions(damaged))?.map((action) => ("title" in action ? action.title : "")),
      ["Update Lock (accept the changes)"],
    );
  });
});
