// Host-dependent diagnostics over the protocol: every open plan is checked again when its host
// profile changes in the editor or on disk, and the rlmPlan.hostProfile setting names the profile.
// What each diagnostic says is the goldens of test/service/golden/diagnostics/ (host-*).

import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { DiagnosticSeverity, FileChangeType, type Diagnostic } from "vscode-languageserver-protocol/node";
import { collapsed, HOST, messageOf, PLAN } from "../support/hostDiagnosticsPlan";
import { hostProfile, LspClient, rangeOf, TempWorkspace } from "./support/lspClient";

const clients: LspClient[] = [];
const workspaces: TempWorkspace[] = [];

async function start(files: Record<string, string>, settings?: Record<string, unknown>) {
  const workspace = new TempWorkspace(files);
  workspaces.push(workspace);
  const client = await LspClient.start({ root: workspace.root, ...(settings ? { settings } : {}) });
  clients.push(client);
  return { workspace, client };
}

after(async () => {
  for (const client of clients) await client.stop();
  for (const workspace of workspaces) workspace.dispose();
});

describe("diagnostics: the host profile, as it changes", () => {
  it("checks every open plan again when the open host profile is edited", async () => {
    const { workspace, client } = await start({ "rlmplan.host.json": hostProfile(HOST) });
    const first = await client.open(workspace.path("a.rlmplan.json"), PLAN);
    const second = await client.open(workspace.path("sub/b.rlmplan.json"), PLAN);
    await client.waitForDiagnostics(first, (list) => list.length === 3);
    await client.waitForDiagnostics(second, (list) => list.length === 3);

    const hostUri = await client.open(workspace.path("rlmplan.host.json"), hostProfile(HOST), "json");
    // Valid: only the hint that its tools are not pinned (no rlmplan.lock.json).
    const valid = await client.waitForDiagnostics(hostUri);
    assert.deepEqual(
      valid.map((d) => [d.code, d.severity]),
      [["no_lock", DiagnosticSeverity.Hint]],
    );
    const granted = {
      ...HOST,
      capabilities: [...HOST.capabilities, "model(local)"],
      budget: { max_tool_calls: 2 },
      tools: { ...HOST.tools, nope: { type: "builtin", builtin: "sum" } },
    };
    await client.change(hostUri, hostProfile(granted));
    for (const uri of [first, second])
      assert.deepEqual(await client.waitForDiagnostics(uri, (list) => list.length === 0), []);

    // A profile with errors: its own diagnostics, and the plans say they are not checked.
    const broken = hostProfile({ ...granted, capabilites: [] });
    await client.change(hostUri, broken);
    const own = await client.waitForDiagnostics(hostUri, (list) => list.length > 0);
    // The wording is the runtime loader's; here it matters that it arrives, located.
    assert.deepEqual(
      own.map((d) => [d.code, d.severity, d.range, messageOf(d).startsWith('unknown key "capabilites"')]),
      [["invalid_host_profile", DiagnosticSeverity.Error, rangeOf(broken, '"capabilites"'), true]],
    );
    const planSide = await client.waitForDiagnostics(first, (list) => list.length === 1);
    assert.deepEqual(
      planSide.map((d) => [d.code, d.severity, d.relatedInformation?.[0]?.location]),
      [
        [
          "invalid_host_profile",
          DiagnosticSeverity.Warning,
          { uri: hostUri, range: collapsed(rangeOf(broken, '"capabilites"')) },
        ],
      ],
    );
    assert.match(
      messageOf(planSide[0] as Diagnostic),
      /^The host profile rlmplan\.host\.json has 1 problem \(line 27: unknown key "capabilites".*\): until it is fixed, capabilities, tools and providers are not checked$/,
    );
  });

  it("checks open plans again when a host profile appears, changes or goes on disk", async () => {
    const { workspace, client } = await start({});
    const uri = await client.open(workspace.path("plans/p.rlmplan.json"), PLAN);
    await client.waitForDiagnostics(uri, (list) => list[0]?.code === "no_host_profile");

    workspace.write("rlmplan.host.json", hostProfile(HOST));
    await client.filesChanged([{ uri: workspace.uri("rlmplan.host.json"), type: FileChangeType.Created }]);
    await client.waitForDiagnostics(uri, (list) => list.length === 3 && list[0]?.code === "budget_exceeded");

    workspace.write("rlmplan.host.json", hostProfile({ ...HOST, budget: { max_tool_calls: 5 } }));
    await client.filesChanged([{ uri: workspace.uri("rlmplan.host.json"), type: FileChangeType.Changed }]);
    await client.waitForDiagnostics(uri, (list) => list.length === 2 && list[0]?.code === "unknown_tool");

    // A nearer profile takes over from the one above.
    workspace.write("plans/rlmplan.host.json", hostProfile({ capabilities: [] }));
    await client.filesChanged([{ uri: workspace.uri("plans/rlmplan.host.json"), type: FileChangeType.Created }]);
    await client.waitForDiagnostics(uri, (list) => list.some((d) => d.code === "capability_denied"));

    workspace.remove("plans/rlmplan.host.json");
    workspace.remove("rlmplan.host.json");
    await client.filesChanged([
      { uri: workspace.uri("plans/rlmplan.host.json"), type: FileChangeType.Deleted },
      { uri: workspace.uri("rlmplan.host.json"), type: FileChangeType.Deleted },
    ]);
    await client.waitForDiagnostics(uri, (list) => list.length === 1 && list[0]?.code === "no_host_profile");
  });

  it("uses the profile rlmPlan.hostProfile names, relative to the workspace folder", async () => {
    const { workspace, client } = await start(
      { "hosts/dev.json": hostProfile({ ...HOST, capabilities: [] }) },
      { hostProfile: "hosts/dev.json" },
    );
    const uri = await client.open(workspace.path("p.rlmplan.json"), PLAN);
    const diagnostics = await client.waitForDiagnostics(uri);
    assert.deepEqual(diagnostics.filter((d) => d.code === "capability_denied").map(messageOf), [
      'this step needs the capability tool(count_items), which the host does not grant: add "tool(count_items)" to "capabilities" in dev.json',
      'this step needs the capability tool(nope), which the host does not grant: add "tool(nope)" to "capabilities" in dev.json',
      'this step needs the capability model(local), which the host does not grant: add "model(local)" to "capabilities" in dev.json',
    ]);
  });
});
