// The language server checks a plan's argument against an MCP tool's pattern that backtracking
// engines take exponential time on ("^(a+)+$" against forty a's and a "!"): the warning comes,
// and the server still answers a hover after it (patterns run in linear time, RE2).

import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { fixture, hostProfile, withServer } from "@rlm-plan/lsp-harness";

const ROOT = resolve(__dirname, "..", "..", "..");
const EVIL = join(ROOT, "test", "fixtures", "mcp", "evil-pattern-server.js");
const ATTACK = `${"a".repeat(40)}!`;

const HOST = {
  capabilities: ["tool(evil.match)"],
  mcpServers: { evil: { command: process.execPath, args: [EVIL], startupTimeoutMs: 60_000 } },
};

const PLAN = `{
  "steps": [
    { "op": "tool", "name": "evil.match", "args": { "s": "${ATTACK}" }, "bind": "a" },
    { "op": "final", "value": { "ref": "var", "name": "a" } }
  ]
}`;

describe("MCP schema patterns in the editor", () => {
  it('"^(a+)+$" against 40 a\'s and "!": a warning, then a hover answered', () =>
    withServer(
      { files: { "rlmplan.host.json": hostProfile(HOST) }, settings: { listMcpTools: true }, waitMs: 60_000 },
      async (server) => {
        const { uri, diagnostics } = await server.open("p.rlmplan.json", PLAN, {
          accept: (all) => all.some((d) => d.code === "invalid_tool_arguments"),
        });
        assert.deepEqual(
          diagnostics.map((d) => [d.code, d.message, d.range.start.line]),
          [
            [
              "invalid_tool_arguments",
              'tool "evil.match": argument "s" must match pattern "^(a+)+$", got a long text (its input schema)',
              2,
            ],
          ],
        );
        const hover = await server.client.hover(uri, fixture(PLAN.replace('"evil.match"', '"evil.ma|tch"')).position);
        const text =
          hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
        assert.match(text, /^\*\*tool\*\* `evil\.match`\n\nMCP tool of MCP server "evil"\n\nTakes a run of a's\./);
      },
    ));
});
