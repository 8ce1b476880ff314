// `rlm-plan check --preflight` starts each MCP server a plan calls once: the preflight's own
// listing (one plan session, one connection set) is what the static check then types the plan's
// calls by, with no second listing. A real MCP server (test/fixtures/mcp/counted-server.js)
// appends a line to a marker file each time it starts; a misspelled field of its tool's output
// schema is still found, so the typed check did get the preflight's listing.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cliWorkspace, ROOT, runCliAsync } from "../support/cliWorkspace";

const SERVER = join(ROOT, "test", "fixtures", "mcp", "counted-server.js");

const plan = (field: string) =>
  JSON.stringify({
    steps: [
      { op: "tool", name: "counted.lookup", args: { q: "word" }, bind: "r" },
      { op: "final", value: { ref: "field", value: { ref: "var", name: "r" }, key: field } },
    ],
  });

test("check --preflight starts the plan's MCP server once, and types its call by that one listing", async () => {
  const ws = cliWorkspace("preflight-once");
  const marker = join(ws.dir, "starts.log");
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(counted.lookup)"],
      // It logs each start into the workspace: in the sandbox, a path it declares.
      mcpServers: { counted: { command: process.execPath, args: [SERVER, marker], writes: ["."] } },
    }),
  );
  ws.write("good.rlmplan.json", plan("hits"));
  ws.write("typo.rlmplan.json", plan("hit"));
  const starts = () => (existsSync(marker) ? readFileSync(marker, "utf8").trimEnd().split("\n").length : 0);

  const good = await runCliAsync(ws.dir, ["check", "--preflight", "good.rlmplan.json"]);
  assert.equal(good.code, 0, good.stdout + good.stderr);
  assert.match(
    good.stderr,
    /preflight of good\.rlmplan\.json: started MCP server "counted" to list tools, then stopped/,
  );
  assert.equal(starts(), 1, "one check --preflight of one plan: one start of its server");

  const typo = await runCliAsync(ws.dir, ["check", "--preflight", "typo.rlmplan.json", "--format", "json"]);
  assert.equal(starts(), 2, "the second check started it once more, not twice");
  const report = JSON.parse(typo.stdout) as { files: { problems: { message: string }[] }[] };
  assert.deepEqual(
    report.files.flatMap((f) => f.problems.map((p) => p.message)),
    ['`r` has no field "hit": did you mean "hits"? (`r` is the result of tool "counted.lookup" at 1:11)'],
  );
  assert.equal(typo.code, 1, typo.stderr);
});
