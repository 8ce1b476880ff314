// A real HTTP server on 127.0.0.1 that speaks the chat-completions protocol with scripted
// answers, one per request in order, and records every request so tests can check what was sent.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type Answer =
  /** 200 with a well-formed completion whose content is `text`. */
  | {
      readonly kind: "ok";
      readonly text: string;
      readonly model?: string;
      readonly finishReason?: string;
      /** The usage reported (default 11 prompt, 7 completion tokens); null reports none. */
      readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number } | null;
    }
  /** Any status with a JSON (or raw text) body and extra headers. */
  | {
      readonly kind: "status";
      readonly status: number;
      readonly body?: unknown;
      readonly raw?: string;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** 200 with this exact body text (not JSON, JSON without choices, ...). */
  | { readonly kind: "raw"; readonly body: string }
  /** Waits, then gives the inner answer (if the client is still there). */
  | { readonly kind: "slow"; readonly delayMs: number; readonly then: Answer }
  /** Sends headers and part of a body, then destroys the connection. */
  | { readonly kind: "destroy" }
  /** Computes the answer from the request. */
  | { readonly kind: "dynamic"; readonly answer: (request: RecordedRequest) => Answer }
  /** Holds the request until `until` settles, then gives the inner answer (if the client is still there). */
  | { readonly kind: "wait"; readonly until: Promise<unknown>; readonly then: Answer };

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  readonly body: unknown;
}

export interface ChatServer {
  /** http://127.0.0.1:PORT/v1: what a provider spec's baseUrl points at. */
  readonly baseUrl: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  /** How many requests the client abandoned before their answer was sent (aborted fetches). */
  abandoned(): number;
  /** Appends answers to the script. */
  script(...answers: Answer[]): void;
  /** Forgets the answers not given yet and the requests recorded so far. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts the server; requests beyond the script get `fallback` (a 500 by default). */
export async function startChatServer(answers: readonly Answer[] = [], fallback?: Answer): Promise<ChatServer> {
  const queue: Answer[] = [...answers];
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let abandoned = 0;
  const server = createServer((req, res) => {
    res.on("close", () => {
      if (!res.writableFinished) abandoned++;
    });
    void collect(req).then(
      (text) => {
        const recorded: RecordedRequest = {
          method: req.method ?? "",
          url: req.url ?? "",
          headers: req.headers,
          text,
          body: parseOrUndefined(text),
        };
        requests.push(recorded);
        const answer = queue.shift() ??
          fallback ?? { kind: "status", status: 500, body: { error: { type: "unscripted" } } };
        respond(answer, recorded, res, timers);
      },
      () => res.destroy(),
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    abandoned: () => abandoned,
    script: (...more) => void queue.push(...more),
    reset: () => {
      queue.length = 0;
      requests.length = 0;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function respond(answer: Answer, request: RecordedRequest, res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  switch (answer.kind) {
    case "ok":
      return json(
        res,
        200,
        completion(answer.text, answer.model ?? modelOf(request), answer.finishReason ?? "stop", answer.usage),
      );
    case "status": {
      const text = answer.raw ?? JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(text);
      return;
    }
    case "raw":
      res.writeHead(200, { "content-type": "application/json" });
      res.end(answer.body);
      return;
    case "slow": {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!res.destroyed) respond(answer.then, request, res, timers);
      }, answer.delayMs);
      timers.add(timer);
      return;
    }
    case "destroy":
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write('{"id":"cut","choices":[{"index":0,"message":{"role":"assistant","content":"par', () => {
        setImmediate(() => res.socket?.destroy());
      });
      return;
    case "dynamic":
      return respond(answer.answer(request), request, res, timers);
    case "wait":
      void answer.until.finally(() => {
        if (!res.destroyed) respond(answer.then, request, res, timers);
      });
      return;
  }
}

/** A completion as OpenAI-compatible servers send it. */
export function completion(
  text: string,
  model: string,
  finishReason: string,
  usage: { readonly prompt_tokens: number; readonly completion_tokens: number } | null = {
    prompt_tokens: 11,
    completion_tokens: 7,
  },
): unknown {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1700000000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: finishReason }],
    ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function modelOf(request: RecordedRequest): string {
  const body = request.body;
  if (typeof body === "object" && body !== null && "model" in body && typeof body.model === "string") return body.model;
  return "unknown";
}

async function collect(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A host profile whose provider "a" is the scripted server priced at 0.1 EUR a token in and out
 * with maxTokens 10: a call's worst case is (prompt bytes + 8 + 10) * 0.1, figures the money
 * tests can say by heart. `more` adds to the profile (a budget, approval rules).
 */
export function tenthPerTokenHost(baseUrl: string, more: Record<string, unknown> = {}): string {
  return JSON.stringify({
    capabilities: ["model(a)"],
    currency: "EUR",
    providers: {
      a: {
        type: "openai-chat",
        baseUrl,
        model: "m",
        price: { input_per_mtok: 100000, output_per_mtok: 100000 },
        maxTokens: 10,
      },
    },
    ...more,
  });
}
