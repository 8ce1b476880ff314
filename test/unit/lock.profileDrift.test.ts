// A host profile against its lock from files alone (host/lock/profileDrift.ts, what the editor
// shows while a profile is edited): nothing is started, so MCP servers are compared by how they
// are started; command tools by their program and scripts; providers by URL and model; entries
// the lock has and the profile no longer names are said too; no lock is a notice, a damaged one
// a located message.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { profileLockStatus } from "@rlm-plan/core/host";
import { readHostProfile } from "@rlm-plan/core/session";
import { writeLockFile } from "@rlm-plan/core/host/lock/lockFile";
import { fileSha256 } from "@rlm-plan/core/host/lock/lockHash";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-profile-drift-"));
after(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "tool.js"), "process.stdout.write('1')\n");

function profile(text: Record<string, unknown>) {
  const file = join(dir, "rlmplan.host.json");
  writeFileSync(file, JSON.stringify(text));
  const read = readHostProfile(file);
  assert.ok(read.ok, JSON.stringify(!read.ok && read.errors));
  return read.profile;
}

const PROFILE = {
  capabilities: ["tool(count)", "tool(srv.search)", "model(p)"],
  tools: { count: { type: "command", command: [process.execPath, "tool.js"] } },
  mcpServers: { srv: { command: "node", args: ["srv.js"] } },
  providers: { p: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "m", apiKeyEnv: "P_KEY" } },
};

test("no lock: a notice when the profile has something to pin, none when it has nothing", () => {
  const status = profileLockStatus(profile(PROFILE));
  assert.deepEqual(status, {
    kind: "none",
    file: join(dir, "rlmplan.lock.json"),
    notice: "no rlmplan.lock.json: run rlm-plan lock to pin tools",
  });
  assert.deepEqual(profileLockStatus(profile({ capabilities: [] })), {
    kind: "none",
    file: join(dir, "rlmplan.lock.json"),
  });
});

test("a lock that agrees: no change; each kind of drift said once, in the profile's order, gone entries last", () => {
  writeLockFile(join(dir, "rlmplan.lock.json"), {
    lockVersion: 1,
    commandTools: {
      count: {
        program: process.execPath,
        sha256: fileSha256(process.execPath),
        scripts: { "tool.js": fileSha256(join(dir, "tool.js")) },
      },
      old: { program: "/bin/true", sha256: fileSha256("/bin/true") },
    },
    mcpServers: { srv: { command: ["node", "srv.js"], server: { name: "srv", version: "1" }, tools: {} } },
    providers: { p: { baseUrl: "http://127.0.0.1:9/v1", model: "m" } },
  });
  const agreeing = { ...PROFILE, tools: { ...PROFILE.tools, old: { type: "command", command: ["/bin/true"] } } };
  assert.deepEqual(profileLockStatus(profile(agreeing)), {
    kind: "checked",
    file: join(dir, "rlmplan.lock.json"),
    changes: [],
  });

  writeFileSync(join(dir, "tool.js"), "process.stdout.write('2')\n");
  const drifted = {
    ...PROFILE,
    mcpServers: { srv: { command: "node", args: ["srv.js", "--all"] }, extra: { url: "http://127.0.0.1:9/mcp" } },
    providers: { p: { ...PROFILE.providers.p, model: "m2" } },
  };
  const status = profileLockStatus(profile(drifted));
  assert.equal(status.kind, "checked");
  assert.deepEqual(status.kind === "checked" ? status.changes.map((c) => [c.subject, c.text]) : [], [
    [
      { kind: "command", tool: "count" },
      'command tool "count": its script tool.js changed (its SHA-256 is not the locked one)',
    ],
    [
      { kind: "mcp", server: "srv" },
      'MCP server "srv" is started as ["node","srv.js","--all"] (locked: ["node","srv.js"])',
    ],
    [{ kind: "mcp", server: "extra" }, 'MCP server "extra" is not in rlmplan.lock.json'],
    [{ kind: "provider", provider: "p" }, 'provider "p" asks model "m2" (locked: "m")'],
    [{ kind: "command", tool: "old" }, 'command tool "old" is in rlmplan.lock.json but no longer in the host profile'],
  ]);
});

test("a damaged lock: its first problem, located", () => {
  writeFileSync(join(dir, "rlmplan.lock.json"), '{"lockVersion": 2}');
  const status = profileLockStatus(profile(PROFILE));
  assert.equal(status.kind, "unreadable");
  assert.match(status.kind === "unreadable" ? status.message : "", /^rlmplan\.lock\.json:1:\d+: /);
});
