// rlmplan.lock.json as the core writes, reads and compares it (host/lock/): the same pins are the
// same bytes whatever order they were found in (sorted keys, two-space indent, no timestamps); a
// written lock reads back equal and meets lock.schema.json; a damaged one is a located error;
// a tool's fingerprint names its parts, so a drift says which keys changed and finds a rename.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { lockDrift, mcpServerDrift } from "@rlm-plan/core/host/lock/lockDrift";
import { lockText, readLockFile, writeLockFile } from "@rlm-plan/core/host/lock/lockFile";
import type { ToolLock } from "@rlm-plan/core/host/lock/lockFormat";
import { fileSha256, sha256Of, toolPin } from "@rlm-plan/core/host/lock/lockHash";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-lock-file-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const H = (c: string) => c.repeat(64);
const SEARCH = {
  name: "search",
  description: "Searches.",
  inputSchema: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer" } }, required: ["q"] },
};

function lock(order: "found" | "reversed"): ToolLock {
  const tools = { search: toolPin(SEARCH), other: toolPin({ name: "other", inputSchema: { type: "object" } }) };
  const commandTools = {
    count: { sha256: H("a"), program: "tools/count.sh", scripts: { "b.js": H("c"), "a.js": H("b") } },
  };
  const server = { server: { version: "1.0.0", name: "srv" }, command: ["node", "srv.js"], tools };
  const providers = { p: { model: "m", baseUrl: "http://127.0.0.1:9/v1" } };
  return order === "found"
    ? { lockVersion: 1, commandTools, mcpServers: { srv: server }, providers }
    : ({
        providers,
        mcpServers: {
          srv: { tools: { other: tools.other, search: tools.search }, server: server.server, command: server.command },
        },
        commandTools,
        lockVersion: 1,
      } as ToolLock);
}

test("a lock written is read back equal, in the same bytes whatever the order it was built in", () => {
  const file = join(dir, "rlmplan.lock.json");
  writeLockFile(file, lock("found"));
  const text = readFileSync(file, "utf8");
  assert.equal(text, lockText(lock("reversed")));
  const read = readLockFile(file);
  assert.ok(read.ok, JSON.stringify(read));
  assert.equal(lockText(read.lock!), text);
  // Sorted keys at every level, two-space indent, a final newline, nothing but the pins.
  assert.equal(
    text.split("\n").slice(0, 12).join("\n"),
    [
      "{",
      '  "commandTools": {',
      '    "count": {',
      '      "program": "tools/count.sh",',
      '      "scripts": {',
      `        "a.js": "${H("b")}",`,
      `        "b.js": "${H("c")}"`,
      "      },",
      `      "sha256": "${H("a")}"`,
      "    }",
      "  },",
      '  "lockVersion": 1,',
    ].join("\n"),
  );
  assert.ok(text.endsWith("}\n"));
  assert.deepEqual(Object.keys(toolPin(SEARCH).parts), [
    "/description",
    "/inputSchema/properties/limit",
    "/inputSchema/properties/q",
    "/inputSchema/required",
    "/inputSchema/type",
  ]);
});

test("no lock is no lock; a damaged one is an error at its place", () => {
  assert.deepEqual(readLockFile(join(dir, "none.json")), { ok: true, lock: undefined });
  const file = join(dir, "damaged.json");
  writeFileSync(
    file,
    '{\n  "lockVersion": 1,\n  "commandTools": {"t": {"program": "x", "sha256": "nope"}},\n  "mcpServers": {},\n  "providers": {}\n}\n',
  );
  const read = readLockFile(file);
  assert.equal(read.ok, false);
  const errors = read.ok ? [] : read.errors.map((e) => `${e.line}:${e.column}: ${e.message}`);
  assert.deepEqual(errors, ['3:52: "t"."sha256" in "commandTools" must match ^[0-9a-f]{64}$, got the text "nope"']);
});

test("a drift names each change: which parts of a tool, a rename, a new and a removed tool", () => {
  const was = lock("found").mcpServers.srv!;
  const now = {
    ...was,
    server: { name: "srv", version: "1.1.0" },
    tools: {
      search: toolPin({
        ...SEARCH,
        description: "Searches, then mails the results.",
        inputSchema: { ...SEARCH.inputSchema, properties: { q: { type: "string" }, to: { type: "string" } } },
      }),
      renamed: toolPin({ name: "renamed", inputSchema: { type: "object" } }),
      extra: toolPin({ name: "extra", annotations: { destructiveHint: true } }),
    },
  };
  assert.deepEqual(
    mcpServerDrift("srv", was, now).map((change) => [change.subject, change.text]),
    [
      [{ kind: "mcp", server: "srv" }, 'MCP server "srv" reports "srv" 1.1.0 at initialize (locked: "srv" 1.0.0)'],
      [{ kind: "mcp", server: "srv", tool: "other" }, 'MCP server "srv": tool "other" was renamed "renamed"'],
      [{ kind: "mcp", server: "srv", tool: "extra" }, 'MCP server "srv": new tool "extra"'],
      [
        { kind: "mcp", server: "srv", tool: "search" },
        'MCP server "srv": tool "search" changed: /description changed, /inputSchema/properties/to added, /inputSchema/properties/limit removed',
      ],
    ],
  );
  const whole = lockDrift(lock("found"), {
    ...lock("found"),
    commandTools: {},
    providers: { p: { baseUrl: "http://127.0.0.1:9/v1", model: "m2" } },
  });
  assert.deepEqual(
    whole.map((change) => change.text),
    [
      'command tool "count" is in rlmplan.lock.json but no longer in the host profile',
      'provider "p" asks model "m2" (locked: "m")',
    ],
  );
});

test("a program rewritten in place (same size, same inode) is hashed again, not answered from memory", () => {
  const file = join(dir, "program");
  writeFileSync(file, "#!/bin/sh\necho 1\n");
  const first = fileSha256(file);
  // Same size, same inode: only the content (and its times) differ.
  writeFileSync(file, "#!/bin/sh\necho 2\n");
  const second = fileSha256(file);
  assert.notEqual(second, first);
  assert.equal(second, sha256Of("#!/bin/sh\necho 2\n"));
});
