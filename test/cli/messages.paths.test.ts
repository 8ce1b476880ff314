// Issue 34, item 9: CLI messages name files relative to the current folder and programs as the host
// profile writes them. An unreadable input said "declared at /…/rlmplan.host.json", the profile's
// full path; an MCP server configured as /nonexistent/mcp was reported as `command "mcp"`.

import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace, runCli } from "../support/cliWorkspace";

const ws = cliWorkspace("message-paths");

describe("paths in messages", () => {
  test("an unreadable input is declared at the profile relative to the current folder", () => {
    ws.write(
      "sub/rlmplan.host.json",
      `{\n  "capabilities": ["context(search)"],\n  "inputs": { "h": { "type": "text-file", "path": "gone.txt" } }\n}\n`,
    );
    ws.write(
      "sub/p.rlmplan.json",
      '{"steps":[{"op":"context","handle":{"ref":"input","name":"h"},"action":{"type":"search","pattern":"a"},"bind":"r"},{"op":"final","value":1}]}',
    );
    const error = (profile: string, plan: string) =>
      `${plan}:1:58: run failed: cannot read "gone.txt" for input "h": no such file (ENOENT) (declared at ${profile}:3:51) [preflight/input_unavailable]`;
    const above = ws.cli("run", "sub/p.rlmplan.json", "--no-journal");
    assert.equal(above.code, 1);
    assert.deepEqual(above.stderr.split("\n").slice(0, 2), [
      "rlm-plan: host profile sub/rlmplan.host.json",
      error("sub/rlmplan.host.json", "sub/p.rlmplan.json"),
    ]);
    const inside = runCli(join(ws.dir, "sub"), ["run", "p.rlmplan.json", "--no-journal"]);
    assert.equal(inside.stderr.split("\n")[1], error("rlmplan.host.json", "p.rlmplan.json"));
  });

  test("an MCP server's program is named as the profile writes it", () => {
    ws.write(
      "mcp/rlmplan.host.json",
      JSON.stringify({ capabilities: ["tool(s.x)"], mcpServers: { s: { command: "/nonexistent/mcp" } } }),
    );
    ws.write(
      "mcp/p.rlmplan.json",
      '{"steps":[{"op":"tool","name":"s.x","args":{},"bind":"r"},{"op":"final","value":1}]}',
    );
    const gate = ws.cli("check", "--preflight", "mcp/p.rlmplan.json");
    assert.deepEqual(
      [gate.code, gate.stdout],
      [
        1,
        'mcp/p.rlmplan.json:1:31: error: MCP server "s" could not be started: command "/nonexistent/mcp" was not found [tool_unavailable]\nmcp/p.rlmplan.json: 1 error\n',
      ],
    );
  });
});
