// Sentinel test: a key, a prompt and a completion marked with random sentinels go through the
// provider and the runtime on success and on every kind of failure (servers that echo the
// request back included), and nothing observable except the bound value may contain them.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { test } from "node:test";
import { createOpenAIChatProvider } from "@rlm-plan/core/providers/openaiChat";
import { runPlan } from "@rlm-plan/core/run/startRun";
import { startChatServer, type Answer } from "../support/chatServer";

const random = randomBytes(8).toString("hex");
const KEY = `sk-SENTINEL-${random}`;
const PROMPT = `PROMPT-SENTINEL-${random}`;
const COMPLETION = `COMPLETION-SENTINEL-${random}`;
const KEY_ENV = "RLM_TEST_SENTINEL_KEY";

/** An error body that repeats everything it was sent, in every field a provider might use. */
const ECHO = {
  error: {
    message: `bad request ${KEY} ${PROMPT} ${COMPLETION}`,
    type: PROMPT,
    code: KEY,
    param: COMPLETION,
    metadata: { raw: `${PROMPT}` },
  },
};

const NO_ANSWER = "an answer that never comes (the provider's timeout)";

const FAILURES: readonly (readonly [string, Answer])[] = [
  ["HTTP 500 echoing the request", { kind: "status", status: 500, body: ECHO }],
  ["HTTP 400 whose type is the completion", { kind: "status", status: 400, body: { error: { type: COMPLETION } } }],
  ["HTTP 429 echoing", { kind: "status", status: 429, headers: { "retry-after": "7" }, body: ECHO }],
  ["HTTP 302 to elsewhere", { kind: "status", status: 302, headers: { location: `http://example.invalid/${PROMPT}` } }],
  ["a body that is not JSON", { kind: "raw", body: `not json ${PROMPT} ${COMPLETION} ${KEY}` }],
  ["an error body with status 200", { kind: "raw", body: JSON.stringify(ECHO) }],
  [
    "content that is not text",
    { kind: "raw", body: JSON.stringify({ choices: [{ message: { content: [COMPLETION, PROMPT, KEY] } }] }) },
  ],
  ["a connection destroyed mid-response", { kind: "destroy" }],
  // An answer that never comes, so the provider's own timeout ends the call whatever the
  // machine's load (a slow answer raced the timeout and lost under load in CI).
  [NO_ANSWER, { kind: "wait", until: new Promise(() => {}), then: { kind: "ok", text: COMPLETION } }],
];

/** The timeout of the provider that meets NO_ANSWER; every other call gets the default (minutes). */
const SHORT_TIMEOUT_MS = 300;

function forbidden(text: string, what: string, completionToo: boolean): void {
  assert.ok(!text.includes(KEY), `${what} contains the key`);
  assert.ok(!text.includes(random), `${what} contains the sentinel's random part`);
  assert.ok(!text.includes(PROMPT), `${what} contains the prompt`);
  if (completionToo) assert.ok(!text.includes(COMPLETION), `${what} contains the completion`);
}

/** Everything about a thrown value that could be logged or shown. */
function errorViews(error: unknown): string[] {
  const views = [String(error), inspect(error, { depth: 10, showHidden: true })];
  if (error instanceof Error) {
    views.push(error.message, error.stack ?? "", JSON.stringify(error, Object.getOwnPropertyNames(error)));
    views.push(inspect(error.cause, { depth: 10 }));
  }
  return views;
}

test("no key, prompt or completion sentinel escapes through errors, transitions or output", async () => {
  const server = await startChatServer([{ kind: "ok", text: COMPLETION }, ...FAILURES.map(([, answer]) => answer)]);
  const written: string[] = [];
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const capture = (original: typeof process.stdout.write) =>
    function (this: NodeJS.WriteStream, ...args: Parameters<typeof process.stdout.write>): boolean {
      written.push(String(args[0]));
      return original.apply(this, args);
    } as typeof process.stdout.write;
  process.stdout.write = capture(stdoutWrite);
  process.stderr.write = capture(stderrWrite);
  try {
    const env = { [KEY_ENV]: KEY };
    const spec = { type: "openai-chat" as const, baseUrl: server.baseUrl, model: "m", apiKeyEnv: KEY_ENV };
    const timingOut = { ...spec, timeoutMs: SHORT_TIMEOUT_MS };
    const providerFor = (name: string) => createOpenAIChatProvider(name === NO_ANSWER ? timingOut : spec, env);
    const host = { providers: new Map([["local", createOpenAIChatProvider(spec, env)]]) };
    const plan = {
      steps: [
        { op: "model", provider: "local", prompt: `Please ${PROMPT} now`, options: { stop: [PROMPT] }, bind: "reply" },
        { op: "final", value: { ref: "field", value: { ref: "var", name: "reply" }, key: "text" } },
      ],
    };
    const policy = { capabilities: ["model(local)"] };
    const observed: string[] = [];
    const run = (runHost = host) =>
      runPlan({ kind: "value", value: plan }, policy, runHost, {
        observers: [{ event: (e) => observed.push(JSON.stringify(e)) }],
      });

    // Success: the completion is the plan's value, and only there.
    const ok = await run();
    assert.ok(ok.ok);
    assert.equal(ok.value, COMPLETION);
    const { value: _value, vars: _vars, ...rest } = ok;
    forbidden(JSON.stringify(rest), "a successful outcome (value and vars aside)", true);

    // Every failure, through the runtime.
    for (const [name, _answer] of FAILURES) {
      const outcome = await run({ providers: new Map([["local", providerFor(name)]]) });
      assert.ok(!outcome.ok, `${name} fails`);
      assert.equal(outcome.error.kind, "model_error", name);
      forbidden(JSON.stringify(outcome), `the outcome of ${name}`, true);
    }
    assert.equal(server.requests.length, 1 + FAILURES.length);
    // The server did get the key and the prompt: the test would prove nothing otherwise.
    for (const request of server.requests) {
      assert.equal(request.headers.authorization, `Bearer ${KEY}`);
      assert.ok(request.text.includes(PROMPT));
    }

    // The same failures straight from the provider: every view of the thrown error.
    server.script(...FAILURES.map(([, answer]) => answer));
    const request = {
      messages: [{ role: "user" as const, content: `Please ${PROMPT} now` }],
      options: { stop: PROMPT },
    };
    for (const [name] of FAILURES) {
      const error = await providerFor(name)
        .complete(request, { signal: new AbortController().signal, provider: "local" })
        .then(
          () => assert.fail(`${name} should fail`),
          (e: unknown) => e,
        );
      for (const view of errorViews(error)) forbidden(view, `the error of ${name}`, true);
      if (name === NO_ANSWER) assert.match(String(error), new RegExp(`no answer within ${SHORT_TIMEOUT_MS} ms`));
    }

    // Key problems name the variable only.
    const newline = createOpenAIChatProvider(spec, { [KEY_ENV]: `${KEY}\n${KEY}` });
    const bad = await newline
      .complete(request, { signal: new AbortController().signal, provider: "local" })
      .catch((e: unknown) => e);
    for (const view of errorViews(bad)) forbidden(view, "the error of a malformed key", true);

    forbidden(observed.join("\n"), "transitions and step events", true);
    assert.ok(observed.length > 0);
    assert.ok(!(host.providers.get("local")?.description ?? "").includes(KEY));
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    await server.close();
  }
  forbidden(written.join(""), "stdout/stderr", true);
});
