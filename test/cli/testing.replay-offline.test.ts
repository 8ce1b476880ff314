// `test --replay` runs nothing live (docs/security.md: it is safe on an untrusted pull request):
// a case with mocks that do not answer a tool fails that call rather than running the profile's
// program, and a case with a cassette starts no MCP server to list its tools. Each program here
// would leave a marker file if it ran; a mocked tool still answers.

import assert from "node:assert/strict";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { cliWorkspace } from "../support/cliWorkspace";

const ws = cliWorkspace("replay-offline");
const MARKER = join(ws.dir, "RAN");
ws.write(
  "rlmplan.host.json",
  JSON.stringify({
    capabilities: ["tool(t)", "tool(u)", "tool(s.x)"],
    tools: {
      t: { type: "command", command: ["sh", "-c", `cat > /dev/null; touch ${MARKER}; echo 1`] },
      u: { type: "command", command: ["sh", "-c", `cat > /dev/null; touch ${MARKER}; echo 1`] },
    },
    mcpServers: { s: { command: "sh", args: ["-c", `touch ${MARKER}`] } },
  }),
);
const calls = (...tools: string[]) =>
  JSON.stringify({
    steps: [
      ...tools.map((name, i) => ({ op: "tool", name, args: {}, bind: `r${i}` })),
      { op: "final", value: { ref: "var", name: `r${tools.length - 1}` } },
    ],
  });
ws.write("tu.rlmplan.json", calls("t", "u"));
ws.write("mcp.rlmplan.json", calls("s.x"));
ws.write("tests/c.cassette.json", '{"version": 1, "entries": []}');

function replay(name: string, suite: object): { code: number | null; stdout: string } {
  rmSync(MARKER, { force: true });
  ws.write(`tests/${name}.rlmplan.test.json`, JSON.stringify(suite));
  const run = ws.cli("test", "--replay", `tests/${name}.rlmplan.test.json`, "--no-journal");
  return { code: run.code, stdout: run.stdout };
}

describe("test --replay: nothing live", () => {
  test("a tool the mocks do not answer fails its call; the profile's program never runs", () => {
    const run = replay("mocks", {
      plan: "../tu.rlmplan.json",
      mocks: { tools: { t: [{ value: 1 }] } },
      cases: [{ name: "c" }],
    });
    assert.equal(run.code, 1);
    assert.match(
      run.stdout,
      /the run failed: tool "u" failed: --replay: tool "u" has no mock, and a replayed case calls nothing live \[execute\/tool_error\]/,
    );
    assert.equal(existsSync(MARKER), false);
  });

  test("every tool mocked: the case passes, from the mocks", () => {
    const run = replay("all", {
      plan: "../tu.rlmplan.json",
      mocks: { tools: { t: [{ value: 1 }], u: [{ value: 2 }] } },
      cases: [{ name: "c", expect: { value: { equals: 2 } } }],
    });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(existsSync(MARKER), false);
  });

  test("a cassette case starts no MCP server to list its tools", () => {
    const run = replay("cassette", {
      plan: "../mcp.rlmplan.json",
      cassette: "c.cassette.json",
      cases: [{ name: "c" }],
    });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /the cassette tests\/c\.cassette\.json holds no reply for tool "s\.x" with \{\}/);
    assert.equal(existsSync(MARKER), false);
  });
});
