// Every form of the sentinel key (test/support/keyForms.ts) through the real CLI as a child process:
// a provider replies with all of them, one per line, and `run` and `propose` (text and --json) print
// none of them; what the mask leaves in place of each is `***`. The check decodes the output on
// its own (percent, entities, escapes, width, reversal, base64, hex) to find any form left.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { startChatServer } from "../support/chatServer";
import { childOutput, type ChildOutput } from "../support/childOutput";
import { planWith } from "../support/hostileProviders";
import { keyForms, SENTINEL_KEY } from "../support/keyForms";
import { CLI } from "../support/cliWorkspace";

const KEY_VAR = "RLM_SENTINEL_PROVIDER_VAR";
const RANDOM = "abc123XYZ789qq";
const dir = mkdtempSync(join(tmpdir(), "rlm-plan-key-forms-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const reply = keyForms()
  .map((form, index) => `form ${index}: ${form.text} :end`)
  .join("\n");

function cli(args: readonly string[]): Promise<ChildOutput> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: "1", [KEY_VAR]: SENTINEL_KEY },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return childOutput(child);
}

/** The output decoded as a reader of it could: escapes, entities, width, case, separators. */
function decodedLetters(text: string): string {
  const decoded = text
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .normalize("NFKC");
  return decoded
    .replace(/\\[nrt]/g, "")
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase();
}

function assertNoForm(text: string, where: string): void {
  const letters = decodedLetters(text);
  const random = RANDOM.toLowerCase();
  assert.ok(!letters.includes(random), `${where}: the key's random part, decoded:\n${text}`);
  assert.ok(![...letters].reverse().join("").includes(random), `${where}: the key reversed:\n${text}`);
  assert.ok(!text.toLowerCase().includes(Buffer.from(RANDOM).toString("hex")), `${where}: the key in hex:\n${text}`);
  for (let offset = 0; offset < 3; offset++) {
    const middle = Buffer.from(`${"x".repeat(offset)}${SENTINEL_KEY}`)
      .toString("base64")
      .slice(8, 24);
    assert.ok(!text.includes(middle), `${where}: the key in base64 at offset ${offset}:\n${text}`);
  }
  // eslint-disable-next-line no-control-regex
  assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text), `${where}: control characters`);
}

test("run and propose print no form of the key, and *** in place of each", async () => {
  const forms = keyForms();
  const chat = await startChatServer([], { kind: "dynamic", answer: (request) => answerFor(request.body) });
  try {
    const host = join(dir, "host.json");
    writeFileSync(
      host,
      JSON.stringify({
        capabilities: ["model(local)"],
        providers: { local: { type: "openai-chat", baseUrl: chat.baseUrl, model: "m", apiKeyEnv: KEY_VAR } },
      }),
    );
    const plan = join(dir, "plan.rlmplan.json");
    writeFileSync(
      plan,
      JSON.stringify({
        steps: [
          { op: "model", provider: "local", prompt: "say the forms", bind: "reply" },
          { op: "final", value: { ref: "var", name: "reply" } },
        ],
      }),
    );
    const runs = [
      ["run", plan, "--host", host],
      ["run", plan, "--host", host, "--json"],
      ["propose", "plan the forms", "--provider", "local", "--host", host],
      ["propose", "plan the forms", "--provider", "local", "--host", host, "--json"],
    ];
    for (const args of runs) {
      const result = await cli(args);
      const where = `rlm-plan ${args[0]} ${args.slice(4).join(" ")}`;
      assert.equal(result.code, 0, `${where}: ${result.stderr}`);
      assertNoForm(result.stdout, `${where} stdout`);
      assertNoForm(result.stderr, `${where} stderr`);
      // Each form's line is still there, the form replaced.
      for (const [index, form] of forms.entries()) {
        const expected = `form ${index}: ${form.masked.replace("before ", "").replace(" after", "")} :end`;
        // The reply is printed inside JSON: forms that are JSON text themselves appear escaped.
        assert.ok(
          result.stdout.includes(expected) || result.stdout.includes(JSON.stringify(expected).slice(1, -1)),
          `${where}: form ${index} (${form.name}):\n${result.stdout}`,
        );
      }
    }
  } finally {
    await chat.close();
  }
});

/** The reply: the forms themselves to a run's model step, a plan carrying them to `propose`. */
function answerFor(body: unknown): { kind: "ok"; text: string } {
  const text = JSON.stringify(body);
  return { kind: "ok", text: text.includes("plan the forms") ? planWith(reply) : reply };
}
