// Pull diagnostics over the protocol: a client that declares `textDocument.diagnostic` pulls and
// gets nothing pushed; workspace/diagnostic reports plans, host profiles and test files that are
// not open, follows the host profile as it changes (in the editor and on disk), answers
// `unchanged` for a result id that still holds, and is bounded (a cap, partial results,
// cancellation). The reports are golden files (test/protocol/golden/pull-diagnostics/).

import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import {
  CancellationTokenSource,
  DiagnosticRefreshRequest,
  DocumentDiagnosticRequest,
  FileChangeType,
  LSPErrorCodes,
  ProgressType,
  WorkspaceDiagnosticRequest,
  type ProtocolConnection,
  type WorkspaceDiagnosticReport,
  type WorkspaceDiagnosticReportPartialResult,
  type WorkspaceDocumentDiagnosticReport,
} from "vscode-languageserver-protocol/node";
import { expectProtocolGolden } from "./support/golden";
import { hostProfile, LspClient, TempWorkspace } from "./support/lspClient";

const HOST = {
  capabilities: ["tool(count_items)"],
  tools: { count_items: { type: "builtin", builtin: "count_items" } },
};
const PLAN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1, 2], "bind": "n" },
    { "op": "final", "value": { "ref": "var", "name": "n" } }
  ]
}`;
const BROKEN = `{
  "steps": [
    { "op": "final", "value": { "ref": "var", "name": "missing" } }
  ]
}`;
const TEST_FILE = `{
  "plan": "a.rlmplan.json",
  "cases": [{ "name": "counts", "mocks": { "tools": { "count_items": [{ "value": 2 }] } }, "expect": { "value": { "equal": 2 } } }]
}`;
const FILES = {
  "rlmplan.host.json": hostProfile(HOST),
  "a.rlmplan.json": PLAN,
  "sub/b.rlmplan.json": BROKEN,
  "a.rlmplan.test.json": TEST_FILE,
};

const clients: LspClient[] = [];
const workspaces: TempWorkspace[] = [];
after(async () => {
  for (const client of clients) await client.stop();
  for (const workspace of workspaces) workspace.dispose();
});

/** A client that pulls (and can be asked to pull again); counts the server's refresh requests. */
async function start(files: Record<string, string>, settings: Record<string, unknown> = {}) {
  const workspace = new TempWorkspace(files);
  workspaces.push(workspace);
  const refreshes = { count: 0 };
  const client = await LspClient.start({
    root: workspace.root,
    settings,
    textDocumentCapabilities: { diagnostic: { relatedDocumentSupport: false } },
    workspaceCapabilities: { diagnostics: { refreshSupport: true } },
    onConnection: (connection: ProtocolConnection) =>
      connection.onRequest(DiagnosticRefreshRequest.type, () => {
        refreshes.count++;
      }),
  });
  clients.push(client);
  return { workspace, client, refreshes };
}

function pullWorkspace(client: LspClient, previous: WorkspaceDocumentDiagnosticReport[] = []) {
  return client.connection.sendRequest(WorkspaceDiagnosticRequest.type, {
    previousResultIds: previous.flatMap((r) => (r.resultId ? [{ uri: r.uri, value: r.resultId }] : [])),
  });
}

/** A report as text: each file (relative), its kind and version, then its diagnostics. */
function readable(workspace: TempWorkspace, report: WorkspaceDiagnosticReport): string {
  const root = `${workspace.uri("")}/`;
  return report.items
    .map((item) => {
      const head = `${item.uri.slice(root.length)} ${item.kind} version=${String(item.version)}`;
      if (item.kind === "unchanged") return head;
      const lines = item.items.map(
        (d) =>
          `  ${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${String(d.code)}: ${typeof d.message === "string" ? d.message : ""}`,
      );
      return [head, ...lines].join("\n");
    })
    .join("\n")
    .concat("\n");
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("pull diagnostics", () => {
  it("declares pull diagnostics, reports the workspace, then only what changed", async () => {
    const { workspace, client, refreshes } = await start(FILES);
    assert.deepEqual(client.initializeResult?.capabilities.diagnosticProvider, {
      identifier: "rlm-plan",
      interFileDependencies: true,
      workspaceDiagnostics: true,
    });
    const first = await pullWorkspace(client);
    expectProtocolGolden(readable(workspace, first), "pull-diagnostics", "workspace.expected.txt");
    // Nothing changed: the request is held (the protocol's long poll) until something does.
    let answered = false;
    const held = pullWorkspace(client, first.items).then((report) => {
      answered = true;
      return report;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(answered, false, "a workspace pull with nothing new is held");

    // The tool is renamed in the open host profile: the plan nobody opened breaks.
    const hostUri = await client.open(workspace.path("rlmplan.host.json"), hostProfile(HOST), "json");
    const renamed = { ...HOST, tools: { count: HOST.tools.count_items } };
    const before = refreshes.count;
    await client.change(hostUri, hostProfile(renamed));
    await until("a refresh request", () => (refreshes.count > before ? true : undefined));
    const broken = await pullWorkspace(client, first.items);
    expectProtocolGolden(readable(workspace, broken), "pull-diagnostics", "renamed-in-editor.expected.txt");
    // The held request was answered too (with what it saw when the profile changed).
    assert.ok((await held).items.some((item) => item.kind === "full"));

    // Closed and written back on disk as it was: the watcher's event mends the plan; a plan
    // deleted on disk has its problems cleared.
    await client.close(hostUri);
    workspace.write("rlmplan.host.json", hostProfile(HOST));
    workspace.remove("sub/b.rlmplan.json");
    await client.filesChanged([
      { uri: hostUri, type: FileChangeType.Changed },
      { uri: workspace.uri("sub/b.rlmplan.json"), type: FileChangeType.Deleted },
    ]);
    const mended = await pullWorkspace(client, broken.items);
    expectProtocolGolden(readable(workspace, mended), "pull-diagnostics", "mended-on-disk.expected.txt");
    assert.equal(client.diagnostics.size, 0, "a client that pulls gets nothing pushed");
  });

  it("answers textDocument/diagnostic for an open plan, unchanged while its result id holds", async () => {
    const { workspace, client } = await start(FILES);
    const uri = await client.open(workspace.path("sub/b.rlmplan.json"), BROKEN);
    const full = await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } });
    assert.equal(full.kind, "full");
    assert.deepEqual(full.kind === "full" ? full.items.map((d) => [d.code, d.range.start]) : [], [
      ["unbound_variable", { line: 2, character: 54 }],
    ]);
    const same = await client.connection.sendRequest(DocumentDiagnosticRequest.type, {
      textDocument: { uri },
      previousResultId: full.resultId,
    });
    assert.deepEqual(same, { kind: "unchanged", resultId: full.resultId });
    await client.change(uri, PLAN);
    const fixed = await client.connection.sendRequest(DocumentDiagnosticRequest.type, {
      textDocument: { uri },
      previousResultId: full.resultId,
    });
    assert.deepEqual(fixed.kind === "full" ? fixed.items : undefined, []);
    // The workspace report carries the open document's version.
    const report = await pullWorkspace(client);
    assert.deepEqual(
      report.items.filter((item) => item.uri === uri).map((item) => [item.kind, item.version]),
      [["full", 2]],
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(client.diagnostics.size, 0, "a client that pulls gets nothing pushed");
  });

  it("covers at most rlmPlan.maxWorkspaceDiagnosticFiles files, and says so in the log", async () => {
    const { client } = await start(FILES, { maxWorkspaceDiagnosticFiles: 2 });
    const report = await pullWorkspace(client);
    assert.deepEqual(
      report.items.map((item) => item.uri.replace(/^.*\//, "")),
      ["a.rlmplan.json", "a.rlmplan.test.json"],
    );
    assert.deepEqual(
      client.logMessages.filter((m) => m.message.includes("maxWorkspaceDiagnosticFiles")).map((m) => m.message),
      [
        "rlm-plan: workspace diagnostics cover the first 2 of the workspace's plans, host profiles and test files (setting rlmPlan.maxWorkspaceDiagnosticFiles): the rest are left out until they are opened.",
      ],
    );
  });

  it("sends partial results in batches when the client gives a token, and honours cancellation", async () => {
    const many: Record<string, string> = { "rlmplan.host.json": hostProfile(HOST) };
    for (let i = 0; i < 120; i++) many[`p${String(i).padStart(3, "0")}.rlmplan.json`] = i % 2 ? PLAN : BROKEN;
    const { client } = await start(many);
    const batches: number[] = [];
    const partials = new ProgressType<WorkspaceDiagnosticReportPartialResult>();
    client.connection.onProgress(partials, "pull-1", (batch) => void batches.push(batch.items.length));
    const final = await client.connection.sendRequest(WorkspaceDiagnosticRequest.type, {
      previousResultIds: [],
      partialResultToken: "pull-1",
    });
    assert.deepEqual(final, { items: [] });
    assert.deepEqual(batches, [50, 50, 21]);

    const source = new CancellationTokenSource();
    const pending = client.connection.sendRequest(
      WorkspaceDiagnosticRequest.type,
      { previousResultIds: [] },
      source.token,
    );
    source.cancel();
    await assert.rejects(pending, (error: { code?: number }) => error.code === LSPErrorCodes.RequestCancelled);
  });
});
