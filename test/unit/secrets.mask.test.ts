// The masking function at the output boundary: exact results for folded forms, what is left
// alone, JSON values, the masking wrapper the editor's trace channel goes through, and the
// terminal filter for model- and plan-controlled text.

import assert from "node:assert/strict";
import { test } from "node:test";
import { terminalText } from "rlm-plan/guardedOutput";
import { environmentSecrets, maskedMethods, SecretMask } from "@rlm-plan/core/mask/secretMask";

const KEY = "sk-AbC123-xyz";

test("every case-, space- and punctuation-folded form of a secret becomes ***", () => {
  const mask = new SecretMask([KEY]);
  const cases: [string, string][] = [
    [`key ${KEY}.`, "key ***."],
    [`{"code":"sk_abc123_xyz"}`, `{"code":"***"}`],
    ["SK-ABC123-XYZ", "***"],
    ["skabc123xyz", "***"],
    ["sk%2DAbC123%2Dxyz", "***"],
    ["sk\\u002dAbC123\\\\u002dxyz", "***"],
    ["sk--AbC123..xyz!", "***!"],
    ["sk-AbC123", "sk-AbC123"],
    ["sk AbC123 xyz", "***"],
    ["sk-AbC12 xy", "sk-AbC12 xy"],
  ];
  for (const [input, expected] of cases) assert.equal(mask.mask(input), expected, input);
});

test("short values are not secrets, and an empty mask changes nothing", () => {
  const mask = new SecretMask(["abc", "  ", "a-b-c-d"]);
  assert.equal(mask.size, 0);
  assert.equal(mask.mask("abc a-b-c-d"), "abc a-b-c-d");
});

test("the longer of two overlapping secrets is masked whole", () => {
  const mask = new SecretMask(["token1", "token1-extra"]);
  assert.equal(mask.mask("token1-extra token1"), "*** ***");
});

test("JSON values: strings and keys are masked, numbers and structure kept", () => {
  const mask = new SecretMask([KEY]);
  const value = { ok: false, error: { message: `bad ${KEY}`, [KEY]: 1, list: ["SK_ABC123_XYZ", 2, null] } };
  assert.deepEqual(mask.maskValue(value), {
    ok: false,
    error: { message: "bad ***", "***": 1, list: ["***", 2, null] },
  });
});

test("environment secrets: provider key variables and names that say key, token or password", () => {
  const env = {
    PROVIDER_VAR: "value-one-1",
    OPENAI_API_KEY: "value-two-2",
    GITHUB_TOKEN: "value-3-three",
    HOME: "/root/home",
  };
  const profile = {
    providers: new Map([["p", { type: "openai-chat", baseUrl: "http://x", model: "m", apiKeyEnv: "PROVIDER_VAR" }]]),
  };
  assert.deepEqual(environmentSecrets(env, profile as never).sort(), ["value-3-three", "value-one-1", "value-two-2"]);
  assert.deepEqual(environmentSecrets(env).sort(), ["value-3-three", "value-two-2"]);
});

test("the trace channel wrapper masks every string a method is given, added secrets included", () => {
  const written: unknown[] = [];
  const channel = {
    name: "RLM Plan Language Server",
    appendLine: (line: string) => void written.push(line),
    trace: (message: string, ...args: unknown[]) => void written.push([message, ...args]),
    error: (error: string | Error) => void written.push(error instanceof Error ? error.message : error),
  };
  const mask = new SecretMask();
  const masked = maskedMethods(channel, mask);
  mask.add([KEY]);
  masked.appendLine(`[Trace] Sending request 'workspace/executeCommand'.\nParams: {"env": {"P": "${KEY}"}}`);
  masked.trace(`params ${KEY.toUpperCase()}`, 3);
  masked.error(new Error(`failed with ${KEY}`));
  assert.equal(masked.name, "RLM Plan Language Server");
  assert.deepEqual(written, [
    `[Trace] Sending request 'workspace/executeCommand'.\nParams: {"env": {"P": "***"}}`,
    ["params ***", 3],
    "failed with ***",
  ]);
});

test("terminal text: control characters go, newline, tab and our own colors stay", () => {
  assert.equal(terminalText("a\u001b]52;c;aGk=\u0007b\r\n\tc\u009b2Jd\u007f"), "a]52;c;aGk=b\n\tc2Jd");
  assert.equal(terminalText("\u001b[31mred\u001b[39m \u001b[2J"), "\u001b[31mred\u001b[39m [2J");
  assert.equal(terminalText("plain"), "plain");
});
