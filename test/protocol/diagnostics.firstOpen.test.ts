// The window's first diagnostic, over the protocol: an opened plan is checked at once (the
// validation delay is for edits), and a client that sent its settings with initialize (VS Code's)
// gets the first plan's diagnostics before it has answered the server's settings request.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigurationRequest } from "vscode-languageserver-protocol/node";
import { hostProfile, rangeOf } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";

const HOST = { capabilities: ["checkpoint"] };
const BROKEN = '{"steps": [{"op": "checkpoint", "label": "a"}, {"op": "final", "value": {"ref": "var", "name": "z"}}]}';
/** Ten minutes: any check that waited for it would time the test out. */
const LONG_DELAY = 600_000;

describe("the first diagnostics of an opened plan", () => {
  const server = useServer({
    files: { "rlmplan.host.json": hostProfile(HOST) },
    settings: { validationDelay: LONG_DELAY },
    initializationOptions: { rlmPlan: { validationDelay: LONG_DELAY } },
  });

  it("are published at once, whatever the validation delay; an edit waits for the delay", async () => {
    const { client, workspace } = server;
    const uri = await client.open(workspace.path("first.rlmplan.json"), BROKEN);
    const published = await client.diagnosticsOf(uri, 1);
    assert.deepEqual(
      published.diagnostics.map((d) => [d.code, d.range]),
      [["unbound_variable", rangeOf(BROKEN, '"z"')]],
    );

    // The delay is in force: an edit is not checked before it (a request answered after the
    // edit arrived shows the server has taken the edit in).
    await client.change(uri, BROKEN.replace('"z"', '"y"'));
    await client.hover(uri, { line: 0, character: 2 });
    assert.equal(client.diagnostics.get(uri)?.length, 1, "no diagnostics for the edit yet");
  });
});

describe("the first diagnostics when initialize carried the settings", () => {
  let answerSettings: (() => void) | undefined;
  let settingsAsked = 0;
  const server = useServer({
    files: { "rlmplan.host.json": hostProfile(HOST) },
    initializationOptions: { rlmPlan: { validationDelay: 150 } },
    // The settings request is held unanswered, as by an extension host busy starting the window.
    onConnection: (connection) =>
      connection.onRequest(ConfigurationRequest.type, async (params) => {
        settingsAsked++;
        await new Promise<void>((resolve) => (answerSettings = resolve));
        return params.items.map(() => ({ validationDelay: 150 }));
      }),
  });

  it("do not wait for the answer to the server's settings request", async () => {
    const { client, workspace } = server;
    const uri = await client.open(workspace.path("early.rlmplan.json"), BROKEN);
    const published = await client.diagnosticsOf(uri, 1);
    assert.equal(settingsAsked, 1, "the server asked for its settings");
    assert.ok(answerSettings, "the settings request is still unanswered");
    assert.deepEqual(
      published.diagnostics.map((d) => d.code),
      ["unbound_variable"],
    );
    answerSettings();
  });
});
