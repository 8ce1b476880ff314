// The sentinel key against ten hostile provider behaviours, through the real CLI as a child
// process: `run` and `propose`, text and --json. The key reaches the provider as the bearer token
// and appears in no output, in no case- or punctuation-folded form, and no control character a
// provider or plan sent reaches the terminal. By default each behaviour meets one of the five
// commands in turn (every behaviour and every command covered, ten CLI runs); RLM_PLAN_HOSTILE=1
// (CI) puts every behaviour through all five (fifty).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { startChatServer } from "../support/chatServer";
import { childOutput, type ChildOutput } from "../support/childOutput";
import { assertNoKey, hostileBehaviours, newSentinel, type Hostile } from "../support/hostileProviders";
import { CLI } from "../support/cliWorkspace";

const sentinel = newSentinel();
// A name that does not look secret: only the host profile says it holds a key.
const KEY_VAR = "RLM_SENTINEL_PROVIDER_VAR";
const EVERY_COMMAND = process.env.RLM_PLAN_HOSTILE === "1";

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-sentinel-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: readonly string[]): Promise<ChildOutput> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: "1", [KEY_VAR]: sentinel.key },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childOutput(child);
}

function planFor(hostile: Hostile): string {
  const final = hostile.planCarries === undefined ? { ref: "var", name: "reply" } : hostile.planCarries;
  return JSON.stringify({
    steps: [
      { op: "model", provider: "local", prompt: "say hi", bind: "reply" },
      { op: "final", value: final },
    ],
  });
}

describe("the sentinel key is in no CLI output", () => {
  for (const [index, hostile] of hostileBehaviours(sentinel).entries()) {
    test(hostile.name, async () => {
      const chat = await startChatServer([], hostile.answer);
      try {
        const host = join(dir, `host-${index}.json`);
        writeFileSync(
          host,
          JSON.stringify({
            capabilities: ["model(local)"],
            providers: { local: { type: "openai-chat", baseUrl: chat.baseUrl, model: "m", apiKeyEnv: KEY_VAR } },
          }),
        );
        const plan = join(dir, `plan-${index}.rlmplan.json`);
        writeFileSync(plan, planFor(hostile));
        const commands = [
          ["run", plan, "--host", host],
          ["run", plan, "--host", host, "--json"],
          ["propose", "say hi", "--provider", "local", "--host", host],
          ["propose", "say hi", "--provider", "local", "--host", host, "--json"],
          ["propose", "say hi", "--provider", "local", "--host", host, "--run"],
        ];
        const runs = EVERY_COMMAND ? commands : [commands[index % commands.length] as string[]];
        for (const args of runs) {
          const result = await cli(args);
          const where = `rlm-plan ${args[0]}${args.slice(4).join(" ")}`;
          assert.ok(result.code === 0 || result.code === 1, `${where} exited ${result.code}: ${result.stderr}`);
          assertNoKey(result.stdout, sentinel, `${where} stdout`);
          assertNoKey(result.stderr, sentinel, `${where} stderr`);
        }
        assert.ok(chat.requests.length >= runs.length);
        for (const request of chat.requests) assert.equal(request.headers.authorization, `Bearer ${sentinel.key}`);
      } finally {
        await chat.close();
      }
    });
  }
});
