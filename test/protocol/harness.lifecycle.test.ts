// The LSP harness itself (@rlm-plan/lsp-harness): a failing test body still ends its server and
// removes its workspace; a test process that exits without stopping its server leaves none
// running; a server that dies before initialize is a clear error with its stderr; the bench's
// CPU profile and memory hook work; and the diagnostics the harness hands back are those of the
// version asked for.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { processState } from "@rlm-plan/core/host/processGroup";
import { hostProfile, LspClient, withServer, type ServerSession } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";

const ROOT = resolve(__dirname, "..", "..", "..");
const scratch = mkdtempSync(join(tmpdir(), "rlm-plan-harness-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Waits (up to 5 s) until the process is no longer running; answers its last state. */
async function ended(pid: number): Promise<string> {
  for (let i = 0; i < 200 && processState(pid) === "running"; i++) await new Promise((done) => setTimeout(done, 25));
  return processState(pid);
}

const BROKEN = '{"steps": [{"op": "contxt", "bind": "x"}]}';
const FIXED = '{"steps": [{"op": "final", "value": 1}]}';

describe("the LSP harness", () => {
  it("withServer ends the server and removes the workspace when the body throws", async () => {
    let seen: ServerSession | undefined;
    await assert.rejects(
      withServer({ files: { "a.txt": "a" } }, async (server) => {
        seen = server;
        await server.open("p.rlmplan.json", FIXED);
        throw new Error("the test failed");
      }),
      { message: "the test failed" },
    );
    const pid = seen?.client.pid;
    assert.ok(pid !== undefined);
    assert.notEqual(await ended(pid), "running");
    assert.equal(existsSync(seen?.workspace.root ?? ""), false, "the workspace is removed");
  });

  it("a test process that exits without stopping its server leaves no server running", async () => {
    // A server deaf to its input closing and to its client's process going (the real one exits
    // on either): only the harness's kill at exit ends it.
    const deaf = join(scratch, "deaf-server.js");
    const rpc = require.resolve("vscode-languageserver-protocol/node");
    writeFileSync(
      deaf,
      `const rpc = require(${JSON.stringify(rpc)});
const connection = rpc.createProtocolConnection(new rpc.StreamMessageReader(process.stdin), new rpc.StreamMessageWriter(process.stdout));
connection.onRequest(rpc.InitializeRequest.type, () => ({ capabilities: {} }));
connection.listen();
setInterval(() => {}, 1000);
`,
    );
    const program = `
      const { LspClient } = require("@rlm-plan/lsp-harness");
      LspClient.start({ root: ${JSON.stringify(scratch)}, serverMain: ${JSON.stringify(deaf)} }).then((client) => {
        process.stdout.write(String(client.pid));
        process.exit(0);
      });`;
    const pid = Number(execFileSync(process.execPath, ["-e", program], { cwd: ROOT, encoding: "utf8" }));
    assert.ok(pid > 0);
    const state = await ended(pid);
    if (state === "running") process.kill(pid, "SIGKILL");
    assert.notEqual(state, "running");
  });

  it("a server that exits before initialize is an error with its code and stderr", async () => {
    const dying = join(scratch, "dying.js");
    writeFileSync(dying, 'process.stderr.write("cannot start: no config\\n"); process.exit(3);\n');
    await assert.rejects(LspClient.start({ root: scratch, serverMain: dying }), {
      message: "the server exited with 3 before it initialized\ncannot start: no config\n",
    });
  });

  it("a server under --cpu-prof writes its profile when stopped; the memory hook reports a full GC", async () => {
    const profiles = mkdtempSync(join(scratch, "prof-"));
    const client = await LspClient.start({ root: scratch, cpuProfileDir: profiles, memoryHook: true });
    try {
      const heap = await client.collectGarbage();
      assert.ok(heap.heapUsed > 0 && heap.heapUsed <= heap.heapTotal, JSON.stringify(heap));
      assert.doesNotMatch(client.stderr, /rlm-plan-bench-memory/, "the hook's line is taken out of stderr");
      const memory = client.memory();
      assert.ok(memory.rssKiB > 0 && memory.peakKiB >= memory.rssKiB, JSON.stringify(memory));
    } finally {
      await client.stop();
    }
    assert.equal(readdirSync(profiles).filter((name) => name.endsWith(".cpuprofile")).length, 1);
  });

  describe("diagnostics by version", () => {
    const server = useServer({
      files: { "rlmplan.host.json": hostProfile({ capabilities: [] }) },
      settings: { validationDelay: 0 },
    });

    it("openChecked and changeTimed answer the diagnostics of the version they sent", async () => {
      const { client } = server;
      const { uri, published } = await client.openChecked(server.workspace.path("v.rlmplan.json"), BROKEN);
      assert.equal(published.version, 1);
      assert.deepEqual(
        published.diagnostics.map((d) => d.code),
        ["unknown_operator"],
      );
      const fixed = await client.changeTimed(uri, FIXED);
      assert.deepEqual([fixed.version, fixed.published.version, fixed.published.diagnostics], [2, 2, []]);
      assert.ok(fixed.ms >= 0 && fixed.published.at >= published.at);
      const broken = await client.changeTimed(uri, BROKEN);
      assert.deepEqual([broken.version, broken.published.diagnostics.length], [3, 1]);
      // An earlier version's diagnostics are still there to ask for.
      assert.deepEqual((await client.diagnosticsOf(uri, 2)).diagnostics, []);
    });
  });
});
