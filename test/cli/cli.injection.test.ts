// Names that try to become workflow commands or drive a terminal, through the built CLI as a child
// process: a tool name holding `\n::error ...::` or `\n::stop-commands::`, file names holding a line
// break or starting with `::`, colour codes and bidi controls in plans and model replies. No line
// of `check`, `run` or `propose` output starts with a command of theirs (a CI log runs `::x::` lines),
// `--format github` prints only its own commands, and no ESC or bidi control reaches the terminal.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { test } from "node:test";
import { startChatServer } from "../support/chatServer";
import { childOutput } from "../support/childOutput";
import { CLI, cliWorkspace } from "../support/cliWorkspace";

const { dir, write, cli, check } = cliWorkspace("injection");

const HOSTILE_TOOL = "x\n::error title=pwned::boom\n::stop-commands::tok\u001b[31mRED\u202eevil";
const PLAN = JSON.stringify({
  steps: [
    { op: "tool", name: HOSTILE_TOOL, args: {}, bind: "r" },
    { op: "final", value: { ref: "var", name: "r" } },
  ],
});
const ESCAPED_TOOL = String.raw`x\n::error title=pwned::boom\n::stop-commands::tok\u001b[31mRED\u202eevil`;
write("rlmplan.host.json", JSON.stringify({ capabilities: ["tool(other)"] }));
write("p.rlmplan.json", PLAN);

/** Lines that a GitHub runner would run as commands, but ours (`::error file=...`). */
function foreignCommands(output: string): string[] {
  // Ours: annotations, and the notice that a plain check started no program.
  return output
    .split(/\r?\n|\r/)
    .filter(
      (line) => /^\s*::/.test(line) && !/^::(error|warning) file=|^::notice title=rlm-plan::static check/.test(line),
    );
}

// eslint-disable-next-line no-control-regex
const TERMINAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

test("check's text output: a tool name's line breaks and controls are escaped in its one line", () => {
  const run = check("p.rlmplan.json");
  assert.equal(run.code, 1);
  assert.deepEqual(run.stdout.split("\n"), [
    `p.rlmplan.json:1:31: error: this step needs the capability tool('${ESCAPED_TOOL}'), which the host does not grant [capability_denied]`,
    `p.rlmplan.json:1:31: error: the plan calls tool "${ESCAPED_TOOL.slice(0, -4)}...", which the host does not register [unknown_tool]`,
    "p.rlmplan.json: 2 errors",
    "",
  ]);
});

test("run's text output: the error line names the tool escaped", () => {
  const run = cli("run", "p.rlmplan.json");
  assert.equal(run.code, 1);
  assert.deepEqual(foreignCommands(run.stderr), []);
  assert.ok(!TERMINAL.test(run.stderr), run.stderr);
  assert.equal(
    run.stderr.split("\n")[1],
    `p.rlmplan.json:1:31: invalid plan: this step needs the capability tool('${ESCAPED_TOOL}'), which the host does not grant [validate/capability_denied]`,
  );
});

test("--format github: only our own commands, file names escaped in the per-file summary", () => {
  write("f\n::set-env name=X::1.rlmplan.json", PLAN);
  write("::set-env name=Y::2.rlmplan.json", PLAN);
  const run = check("--format", "github", "f\n::set-env name=X::1.rlmplan.json", "::set-env name=Y::2.rlmplan.json");
  assert.equal(run.code, 1);
  assert.deepEqual(foreignCommands(run.stdout), []);
  assert.ok(!TERMINAL.test(run.stdout), run.stdout);
  const [notice, ...lines] = run.stdout.trimEnd().split("\n");
  assert.match(notice ?? "", /^::notice title=rlm-plan::static check, no program started/);
  assert.equal(lines.length, 6);
  assert.ok(lines[0]!.startsWith("::error file=f%0A%3A%3Aset-env name=X%3A%3A1.rlmplan.json,line=1,col=31,"), lines[0]);
  assert.ok(
    lines[0]!.endsWith(`::this step needs the capability tool('${ESCAPED_TOOL}'), which the host does not grant`),
  );
  assert.equal(lines[4], String.raw`f\n::set-env name=X::1.rlmplan.json: 2 errors`);
  assert.equal(lines[5], "./::set-env name=Y::2.rlmplan.json: 2 errors");
});

test("a plan's value and a model's reply: no colour code or bidi control reaches the terminal", async () => {
  write(
    "value.rlmplan.json",
    JSON.stringify({
      steps: [{ op: "final", value: "a\u001b[31mred\u001b[0m \u202eevil\u2066 \u001b]52;c;aGk=\u0007" }],
    }),
  );
  const run = cli("run", "value.rlmplan.json");
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `"a\\u001b[31mred\\u001b[0m evil \\u001b]52;c;aGk=\\u0007"\n`);
  const chat = await startChatServer([], {
    kind: "ok",
    text: "no plan here \u001b[31mred\u001b[0m \u202eevil\u2067\n::error::x",
  });
  try {
    write(
      "model.host.json",
      JSON.stringify({
        capabilities: ["model(local)"],
        providers: {
          local: { type: "openai-chat", baseUrl: chat.baseUrl, model: "m", apiKeyEnv: "INJECTION_TEST_KEY" },
        },
      }),
    );
    // Asynchronously: the chat server answers from this process.
    const child = spawn(
      process.execPath,
      [CLI, "propose", "a plan", "--provider", "local", "--host", "model.host.json"],
      {
        cwd: dir,
        env: { PATH: process.env.PATH, NO_COLOR: "1", INJECTION_TEST_KEY: "k" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const proposed = await childOutput(child);
    assert.ok(!TERMINAL.test(proposed.stdout + proposed.stderr), proposed.stdout);
    // The reply is shown as it came, but its line that would be a workflow command starts escaped (cli/src/sink.ts).
    assert.deepEqual(foreignCommands(proposed.stdout + proposed.stderr), []);
    assert.ok(
      proposed.stdout.startsWith("model reply:\nno plan here [31mred[0m evil\n\\u003a:error::x"),
      proposed.stdout,
    );
  } finally {
    await chat.close();
  }
});
