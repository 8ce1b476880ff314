// The openai-chat provider against a real scripted HTTP server on 127.0.0.1: values, exact
// error messages, retries, timeouts, cancellation, and a run through the real runtime.

import assert from "node:assert/strict";
import { createServer } from "node:net";
import { describe, test } from "node:test";
import type { JsonObject } from "@rlm-plan/core/json";
import { createOpenAIChatProvider, type OpenAIChatSpec } from "@rlm-plan/core/providers/openaiChat";
import { runPlan } from "@rlm-plan/core/run/startRun";
import type { ModelProvider } from "@rlm-plan/core/run/host";
import { startChatServer, type Answer, type ChatServer } from "../support/chatServer";

const KEY_ENV = "RLM_TEST_CHAT_KEY";
const ENV = { [KEY_ENV]: "sk-test-123" };

function spec(server: { baseUrl: string }, extra: Partial<OpenAIChatSpec> = {}): OpenAIChatSpec {
  return { type: "openai-chat", baseUrl: server.baseUrl, model: "test-model", apiKeyEnv: KEY_ENV, ...extra };
}

function ask(provider: ModelProvider, prompt = "hello", options: JsonObject = {}, signal?: AbortSignal) {
  return provider.complete(
    { messages: [{ role: "user", content: prompt }], options },
    { signal: signal ?? new AbortController().signal, provider: "local" },
  );
}

async function withServer<T>(answers: Answer[], body: (server: ChatServer) => Promise<T>): Promise<T> {
  const server = await startChatServer(answers);
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error, "rejects with an Error");
    return error;
  }
  assert.fail("expected a rejection");
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address && typeof address === "object");
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

describe("openai-chat provider", () => {
  test("an ok answer becomes {text, model, usage, finish_reason}; the request is what was asked", () =>
    withServer([{ kind: "ok", text: "Paris", model: "test-model-2024" }], async (server) => {
      const provider = createOpenAIChatProvider(spec(server), ENV);
      const value = await ask(provider, "capital of France?", { temperature: 0, max_tokens: 5, stop: ["\n"] });
      assert.deepEqual(value, {
        text: "Paris",
        model: "test-model-2024",
        usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        finish_reason: "stop",
      });
      assert.equal(server.requests.length, 1);
      const request = server.requests[0]!;
      assert.equal(request.method, "POST");
      assert.equal(request.url, "/v1/chat/completions");
      assert.equal(request.headers.authorization, "Bearer sk-test-123");
      assert.equal(request.headers["content-type"], "application/json");
      assert.deepEqual(request.body, {
        model: "test-model",
        messages: [{ role: "user", content: "capital of France?" }],
        temperature: 0,
        max_tokens: 5,
        stop: ["\n"],
      });
    }));

  test("every allowed option is passed on as given", () =>
    withServer([{ kind: "ok", text: "{}" }], async (server) => {
      const options = {
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 64,
        stop: "END",
        seed: 7,
        presence_penalty: 0.1,
        frequency_penalty: -0.1,
        response_format: { type: "json_object" },
      };
      await ask(createOpenAIChatProvider(spec(server), ENV), "x", options);
      assert.deepEqual(server.requests[0]!.body, {
        model: "test-model",
        messages: [{ role: "user", content: "x" }],
        ...options,
      });
    }));

  test("missing usage, model and finish_reason become null / the spec's model", () =>
    withServer(
      [{ kind: "raw", body: JSON.stringify({ choices: [{ message: { content: "hi" } }] }) }],
      async (server) => {
        const value = await ask(createOpenAIChatProvider(spec(server), ENV));
        assert.deepEqual(value, {
          text: "hi",
          model: "test-model",
          usage: { prompt_tokens: null, completion_tokens: null, total_tokens: null },
          finish_reason: null,
        });
      },
    ));

  test("without apiKeyEnv no Authorization header is sent", () =>
    withServer([{ kind: "ok", text: "ok" }], async (server) => {
      const provider = createOpenAIChatProvider({ type: "openai-chat", baseUrl: server.baseUrl, model: "m" }, {});
      await ask(provider);
      assert.equal(server.requests[0]!.headers.authorization, undefined);
    }));

  test("the key is read from the environment at call time", () =>
    withServer(
      [
        { kind: "ok", text: "a" },
        { kind: "ok", text: "b" },
      ],
      async (server) => {
        const env: NodeJS.ProcessEnv = { [KEY_ENV]: "first" };
        const provider = createOpenAIChatProvider(spec(server), env);
        await ask(provider);
        env[KEY_ENV] = "second";
        await ask(provider);
        assert.deepEqual(
          server.requests.map((r) => r.headers.authorization),
          ["Bearer first", "Bearer second"],
        );
      },
    ));

  test("a missing key names the variable and sends nothing", () =>
    withServer([], async (server) => {
      const error = await rejection(ask(createOpenAIChatProvider(spec(server), {})));
      assert.equal(error.message, `environment variable ${KEY_ENV} is not set`);
      const blank = await rejection(ask(createOpenAIChatProvider(spec(server), { [KEY_ENV]: "  " })));
      assert.equal(blank.message, `environment variable ${KEY_ENV} is not set`);
      const bad = await rejection(ask(createOpenAIChatProvider(spec(server), { [KEY_ENV]: "sk-a\nb" })));
      assert.equal(bad.message, `environment variable ${KEY_ENV} holds characters a key cannot contain`);
      assert.ok(!bad.message.includes("sk-a"));
      assert.equal(server.requests.length, 0);
    }));

  test("options outside the allow-list, or of the wrong type, are refused by name", () =>
    withServer([], async (server) => {
      const provider = createOpenAIChatProvider(spec(server), ENV);
      const unknown = await rejection(ask(provider, "x", { model: "gpt-expensive" }));
      assert.equal(
        unknown.message,
        'option "model" is not allowed (allowed: temperature, top_p, max_tokens, stop, seed, presence_penalty, frequency_penalty, response_format)',
      );
      const stream = await rejection(ask(provider, "x", { stream: true }));
      assert.match(stream.message, /^option "stream" is not allowed/);
      const wrong = await rejection(ask(provider, "x", { max_tokens: 0 }));
      assert.equal(wrong.message, 'option "max_tokens" must be a positive integer');
      const temperature = await rejection(ask(provider, "x", { temperature: "hot" }));
      assert.equal(temperature.message, 'option "temperature" must be a number');
      assert.equal(server.requests.length, 0);
    }));

  test("HTTP 500: the status and the provider's error type and code, nothing else", () =>
    withServer(
      [
        {
          kind: "status",
          status: 500,
          body: {
            error: { message: "upstream failed for prompt: hello there", type: "server_error", code: "overloaded" },
          },
        },
        { kind: "status", status: 503, raw: "<html>Service Unavailable</html>" },
      ],
      async (server) => {
        const provider = createOpenAIChatProvider(spec(server), ENV);
        const error = await rejection(ask(provider, "hello there"));
        assert.equal(error.message, "HTTP 500 from the provider (type server_error, code overloaded)");
        const html = await rejection(ask(provider));
        assert.equal(html.message, "HTTP 503 from the provider");
      },
    ));

  test("an error type or code that echoes the request, or is not an identifier, is left out", () =>
    withServer(
      [
        { kind: "status", status: 400, body: { error: { type: "promptword", code: "test" } } },
        { kind: "status", status: 400, body: { error: { type: "Invalid Request: hello", code: "sk-test-123" } } },
        { kind: "status", status: 401, body: { error: { type: "x".repeat(41), code: 401 } } },
      ],
      async (server) => {
        const provider = createOpenAIChatProvider(spec(server), ENV);
        const echo = await rejection(ask(provider, "say promptword"));
        assert.equal(echo.message, "HTTP 400 from the provider");
        const prose = await rejection(ask(provider));
        assert.equal(prose.message, "HTTP 400 from the provider");
        const long = await rejection(ask(provider));
        assert.equal(long.message, "HTTP 401 from the provider (code 401)");
      },
    ));

  test("429 with Retry-After: reported when retries are off", () =>
    withServer([{ kind: "status", status: 429, headers: { "retry-after": "1" }, body: {} }], async (server) => {
      const error = await rejection(ask(createOpenAIChatProvider(spec(server), ENV)));
      assert.equal(error.message, "HTTP 429 from the provider: rate limited; retry after 1 s");
      assert.equal(server.requests.length, 1);
    }));

  test("429 with Retry-After: 1 then ok: honoured when maxRetries > 0", () =>
    withServer(
      [
        { kind: "status", status: 429, headers: { "retry-after": "1" }, body: { error: { type: "rate_limit" } } },
        { kind: "ok", text: "after the wait" },
      ],
      async (server) => {
        const started = Date.now();
        const value = await ask(createOpenAIChatProvider(spec(server, { maxRetries: 2 }), ENV));
        const elapsed = Date.now() - started;
        assert.equal((value as JsonObject).text, "after the wait");
        assert.equal(server.requests.length, 2);
        assert.ok(elapsed >= 950, `waited ${elapsed} ms`);
      },
    ));

  test("429 whose wait does not fit the timeout fails at once with the rate-limit message", () =>
    withServer([{ kind: "status", status: 429, headers: { "retry-after": "5" } }], async (server) => {
      const started = Date.now();
      const error = await rejection(
        ask(createOpenAIChatProvider(spec(server, { maxRetries: 3, timeoutMs: 2000 }), ENV)),
      );
      assert.equal(error.message, "HTTP 429 from the provider: rate limited; retry after 5 s");
      assert.ok(Date.now() - started < 1000);
      assert.equal(server.requests.length, 1);
    }));

  test("429 retries stop after maxRetries", () =>
    withServer(
      [
        { kind: "status", status: 429, headers: { "retry-after": "0" } },
        { kind: "status", status: 429, headers: { "retry-after": "0" } },
        { kind: "status", status: 429, headers: { "retry-after": "0" } },
      ],
      async (server) => {
        const error = await rejection(ask(createOpenAIChatProvider(spec(server, { maxRetries: 2 }), ENV)));
        assert.equal(error.message, "HTTP 429 from the provider: rate limited; retry after 0 s");
        assert.equal(server.requests.length, 3);
      },
    ));

  test("the signal cancels a wait for Retry-After at once", () =>
    withServer([{ kind: "status", status: 429, headers: { "retry-after": "20" } }], async (server) => {
      const controller = new AbortController();
      const provider = createOpenAIChatProvider(spec(server, { maxRetries: 1 }), ENV);
      const started = Date.now();
      const pending = ask(provider, "x", {}, controller.signal);
      setTimeout(() => controller.abort(), 100);
      const error = await rejection(pending);
      assert.equal(error.message, "the request was cancelled");
      assert.ok(Date.now() - started < 1000);
    }));

  test("a body that is not JSON", () =>
    withServer([{ kind: "raw", body: "<html>oops</html>" }], async (server) => {
      const error = await rejection(ask(createOpenAIChatProvider(spec(server), ENV)));
      assert.equal(error.message, "the provider's answer is not JSON");
    }));

  test("a body without choices, or with an error instead", () =>
    withServer(
      [
        { kind: "raw", body: JSON.stringify({ id: "x", object: "chat.completion" }) },
        { kind: "raw", body: JSON.stringify({ choices: [] }) },
        { kind: "raw", body: JSON.stringify({ error: { type: "upstream_error", code: 502, message: "hello" } }) },
      ],
      async (server) => {
        const provider = createOpenAIChatProvider(spec(server), ENV);
        assert.equal((await rejection(ask(provider))).message, "the provider's answer has no choices");
        assert.equal((await rejection(ask(provider))).message, "the provider's answer has no choices");
        assert.equal(
          (await rejection(ask(provider))).message,
          "the provider answered with an error (type upstream_error, code 502)",
        );
      },
    ));

  test("content that is not text", () =>
    withServer(
      [{ kind: "raw", body: JSON.stringify({ choices: [{ message: { content: null, tool_calls: [] } }] }) }],
      async (server) => {
        const error = await rejection(ask(createOpenAIChatProvider(spec(server), ENV)));
        assert.equal(error.message, "the provider's answer has no text in choices[0].message.content");
      },
    ));

  test("a slow answer times out after timeoutMs", () =>
    withServer([{ kind: "slow", delayMs: 3000, then: { kind: "ok", text: "late" } }], async (server) => {
      const started = Date.now();
      const error = await rejection(ask(createOpenAIChatProvider(spec(server, { timeoutMs: 200 }), ENV)));
      assert.equal(error.message, "no answer within 200 ms");
      assert.ok(Date.now() - started < 1500);
    }));

  test("the signal cancels a slow request quickly", () =>
    withServer([{ kind: "slow", delayMs: 5000, then: { kind: "ok", text: "late" } }], async (server) => {
      const controller = new AbortController();
      const started = Date.now();
      const pending = ask(createOpenAIChatProvider(spec(server), ENV), "x", {}, controller.signal);
      // Cancelled once the server holds the request (not after a fixed delay: on a loaded machine
      // the request may not have arrived yet, and nothing would be cancelled in flight).
      while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.abort();
      const error = await rejection(pending);
      assert.equal(error.message, "the request was cancelled");
      // The server answers after 5 s: well before that, the request was cancelled, not answered.
      assert.ok(Date.now() - started < 4000, `took ${Date.now() - started} ms`);
      const already = await rejection(ask(createOpenAIChatProvider(spec(server), ENV), "x", {}, controller.signal));
      assert.equal(already.message, "the request was cancelled");
      assert.equal(server.requests.length, 1);
    }));

  test("a connection destroyed mid-response", () =>
    withServer([{ kind: "destroy" }], async (server) => {
      const error = await rejection(ask(createOpenAIChatProvider(spec(server), ENV)));
      assert.equal(
        error.message,
        `connection to 127.0.0.1:${server.port} failed while reading the answer (UND_ERR_SOCKET)`,
      );
    }));

  test("connection refused names host:port only, never the path or query", async () => {
    const port = await closedPort();
    const provider = createOpenAIChatProvider(
      { type: "openai-chat", baseUrl: `http://127.0.0.1:${port}/v1?api-key=QUERYSECRET`, model: "m" },
      {},
    );
    const error = await rejection(ask(provider));
    assert.equal(error.message, `connection to 127.0.0.1:${port} failed (ECONNREFUSED)`);
    assert.equal(provider.description, `openai-chat m at http://127.0.0.1:${port}`);
  });

  test("the base URL's query is kept on the request", () =>
    withServer([{ kind: "ok", text: "ok" }], async (server) => {
      await ask(createOpenAIChatProvider(spec({ baseUrl: `${server.baseUrl}/?api-version=2024` }), ENV));
      assert.equal(server.requests[0]!.url, "/v1/chat/completions?api-version=2024");
    }));

  test("description: type, model and origin, never the key; a bad baseUrl fails calls safely", async () => {
    const provider = createOpenAIChatProvider(
      { type: "openai-chat", baseUrl: "https://openrouter.ai/api/v1", model: "openai/gpt-4o-mini", apiKeyEnv: KEY_ENV },
      ENV,
    );
    assert.equal(provider.description, "openai-chat openai/gpt-4o-mini at https://openrouter.ai");
    const described = createOpenAIChatProvider(
      { type: "openai-chat", baseUrl: "http://localhost:11434/v1", model: "llama3", description: "local Ollama" },
      {},
    );
    assert.equal(described.description, "openai-chat llama3 at http://localhost:11434: local Ollama");
    const bad = createOpenAIChatProvider(
      { type: "openai-chat", baseUrl: "https://user:pw@example.com/v1", model: "m" },
      {},
    );
    assert.equal(bad.description, "openai-chat m at an invalid baseUrl");
    const error = await rejection(ask(bad));
    assert.equal(error.message, "the provider's baseUrl is not an http(s) URL without credentials");
  });
});

describe("openai-chat provider through the runtime", () => {
  const policy = { capabilities: ["model(local)", "retry"], budget: "default" };
  const modelStep = { op: "model", provider: "local", prompt: "Say hi", options: { temperature: 0 }, bind: "reply" };
  const finalText = { op: "final", value: { ref: "field", value: { ref: "var", name: "reply" }, key: "text" } };

  test("model -> final: the text is the final value", () =>
    withServer([{ kind: "ok", text: "hi there" }], async (server) => {
      const host = { providers: new Map([["local", createOpenAIChatProvider(spec(server), ENV)]]) };
      const outcome = await runPlan({ kind: "value", value: { steps: [modelStep, finalText] } }, policy, host);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(outcome.value, "hi there");
      assert.deepEqual(
        outcome.transitions.map((t) => [t.sequence, t.operation, t.bind, t.status]),
        [
          [1, "model(local)", "reply", "ok"],
          [2, "final", null, "ok"],
        ],
      );
      assert.deepEqual(server.requests[0]!.body, {
        model: "test-model",
        messages: [{ role: "user", content: "Say hi" }],
        temperature: 0,
      });
    }));

  test("a provider failure is a structured model_error", () =>
    withServer([{ kind: "status", status: 500, body: { error: { type: "server_error" } } }], async (server) => {
      const host = { providers: new Map([["local", createOpenAIChatProvider(spec(server), ENV)]]) };
      const outcome = await runPlan({ kind: "value", value: { steps: [modelStep, finalText] } }, policy, host);
      assert.ok(!outcome.ok);
      assert.deepEqual(outcome.error, {
        phase: "execute",
        kind: "model_error",
        provider: "local",
        cause: "HTTP 500 from the provider (type server_error)",
        message: 'provider "local" failed: HTTP 500 from the provider (type server_error)',
        path: ["steps", 0],
      });
      assert.deepEqual(outcome.transitions, []);
    }));

  test("a retry step retries a 500 and then succeeds", () =>
    withServer(
      [
        { kind: "status", status: 500, body: {} },
        { kind: "ok", text: "second time" },
      ],
      async (server) => {
        const host = { providers: new Map([["local", createOpenAIChatProvider(spec(server), ENV)]]) };
        const plan = {
          steps: [
            {
              op: "retry",
              attempts: 2,
              plan: { steps: [modelStep, { op: "final", value: { ref: "var", name: "reply" } }] },
              bind: "answer",
            },
            { op: "final", value: { ref: "field", value: { ref: "var", name: "answer" }, key: "text" } },
          ],
        };
        const outcome = await runPlan({ kind: "value", value: plan }, policy, host);
        assert.ok(outcome.ok, JSON.stringify(outcome));
        assert.equal(outcome.value, "second time");
        assert.deepEqual(
          outcome.transitions.map((t) => [t.operation, t.bind]),
          [
            ["model(local)", "reply"],
            ["final", null],
            ["retry", "answer"],
            ["final", null],
          ],
        );
        assert.equal(server.requests.length, 2);
        assert.equal(outcome.budget_remaining.model_calls, 6);
      },
    ));
});
