// A schema pattern that a backtracking engine takes exponential time on ("^(a+)+$" against forty
// a's and a "!") is run in linear time (RE2): the command that lists MCP tools finishes with the
// argument warning, for an MCP tool and for a profile tool alike; a run whose MCP tool answers a
// structured result its outputSchema's pattern backtracks on fails the call at once. Lookaround, which RE2 cannot
// run, leaves the pattern unchecked instead of failing the schema.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { compileInputSchema } from "@rlm-plan/core/plan/toolArgumentChecks";
import { linearRegExp } from "@rlm-plan/core/text/linearRegExp";
import { childOutput } from "../support/childOutput";
import { CLI, ROOT } from "../support/cliWorkspace";

/** The CLI command that lists a profile's MCP tools (the plan's path follows it). */
const LIST_TOOLS_COMMAND: readonly string[] = ["check", "--preflight"];

const EVIL = join(ROOT, "test", "fixtures", "mcp", "evil-pattern-server.js");
const ATTACK = `${"a".repeat(40)}!`;

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-evil-pattern-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("schema patterns run in linear time", () => {
  test(`${LIST_TOOLS_COMMAND.join(" ")}: an MCP tool's pattern "^(a+)+$" against 40 a's and "!" is refused, at once`, async () => {
    writeFileSync(
      join(dir, "rlmplan.host.json"),
      JSON.stringify({
        capabilities: ["tool(evil.match)", "tool(local)"],
        mcpServers: { evil: { command: process.execPath, args: [EVIL], startupTimeoutMs: 60_000 } },
        tools: {
          local: {
            type: "command",
            command: ["true"],
            inputSchema: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } },
          },
        },
      }),
    );
    const steps = [
      { op: "tool", name: "evil.match", args: { s: ATTACK }, bind: "a" },
      { op: "tool", name: "local", args: { s: ATTACK }, bind: "b" },
      { op: "final", value: { ref: "var", name: "a" } },
    ];
    writeFileSync(join(dir, "p.rlmplan.json"), JSON.stringify({ steps }));
    const child = spawn(process.execPath, [CLI, ...LIST_TOOLS_COMMAND, "p.rlmplan.json"], {
      cwd: dir,
      env: { PATH: process.env.PATH, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const { code, stdout, stderr } = await childOutput(child);
    assert.equal(code, 1, stderr);
    // A certain violation is an error either way: the MCP tool's schema (a preflight refusal) and a profile tool's (the static gate).
    const problem = (severity: string, tool: string, column: number) =>
      `p.rlmplan.json:1:${column}: ${severity}: tool "${tool}": argument "s" must match pattern "^(a+)+$", got a long text (its input schema) [invalid_tool_arguments]`;
    assert.deepEqual(stdout.trim().split("\n"), [
      problem("error", "evil.match", 56),
      problem("error", "local", 153),
      "p.rlmplan.json: 2 errors",
    ]);
  });

  test('run: an MCP tool\'s outputSchema pattern "^(a+)+$" against its structured result of 40 a\'s and "!" fails the call, at once', async () => {
    const work = join(dir, "output");
    mkdirSync(work, { recursive: true });
    writeFileSync(
      join(work, "rlmplan.host.json"),
      JSON.stringify({
        capabilities: ["tool(evil.echo)"],
        mcpServers: { evil: { command: process.execPath, args: [EVIL], startupTimeoutMs: 60_000 } },
      }),
    );
    const steps = [
      { op: "tool", name: "evil.echo", args: {}, bind: "a" },
      { op: "final", value: { ref: "var", name: "a" } },
    ];
    writeFileSync(join(work, "p.rlmplan.json"), JSON.stringify({ steps }));
    const child = spawn(process.execPath, [CLI, "run", "p.rlmplan.json", "--no-journal"], {
      cwd: work,
      env: { PATH: process.env.PATH, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      // A backtracking engine takes minutes, deaf to SIGTERM: the child is killed so the test fails, not hangs.
      timeout: 60_000,
      killSignal: "SIGKILL",
    });
    const { code, stdout, stderr } = await childOutput(child);
    assert.equal(code, 1, `${stdout}\n${stderr}`);
    assert.ok(
      stderr.includes(
        `p.rlmplan.json:1:11: run failed: tool "evil.echo" failed: the server answered with error -32602: Structured content does not match the tool's output schema: /s must match pattern "^(a+)+$" [execute/tool_error]\n`,
      ),
      stderr,
    );
    assert.doesNotMatch(stdout, /a{40}/);
  });

  test("two patterns in one schema each keep their own (ajv keys them by their text)", () => {
    const validate = compileInputSchema({
      type: "object",
      properties: { name: { type: "string", pattern: "^[a-z]+$" }, url: { type: "string", pattern: "^https?://" } },
    });
    assert.ok(validate.ok);
    assert.equal(validate.validate({ name: "abc", url: "http://x" }), true);
    assert.equal(validate.validate({ name: "abc", url: "ftp://x" }), false);
  });

  test("the engine: RE2's search, JavaScript syntax; lookaround and backreferences match everything", () => {
    const run = (pattern: string, text: string) => linearRegExp(pattern, "u").test(text);
    assert.deepEqual(
      [
        run("^(a+)+$", ATTACK),
        run("^(a+)+$", "aaaa"),
        run("b", "abc"),
        run("^\\d{3}$", "123"),
        run("^\\p{L}+$", "é"),
        run("(?<word>x)", "x"),
        run("^(?=a)b", "zzz"),
        run("(a)\\1", "zzz"),
      ],
      [false, true, true, true, true, true, true, true],
    );
  });
});
