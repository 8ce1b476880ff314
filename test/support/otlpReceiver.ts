// A real OTLP/HTTP receiver on 127.0.0.1 for the tests that export traces: a node http server
// that keeps each request body (the exporter's JSON payload) and decodes its spans. Process tiers
// only (it opens a socket).

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const HANG_BACKSTOP_MS = Number(process.env["OTLP_WAIT_MS"] ?? 10 * 60_000);

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}

export interface OtlpReceiver {
  /** The traces endpoint: http://127.0.0.1:PORT/v1/traces. */
  readonly url: string;
  /** Every request body received, in order. */
  readonly bodies: string[];
  /** Every span of every body, in order. */
  spans(): OtlpSpan[];
  /**
   * Resolves with the spans once one is named `name` (now or later); rejects, naming what did
   * arrive, after a 10-minute backstop against a trace that never comes (never a deadline).
   */
  spansWith(name: string): Promise<OtlpSpan[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (c: string) => (body += c));
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const wake of [...waiters]) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  const spans = (): OtlpSpan[] =>
    bodies.flatMap((body) =>
      (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) => s.spans),
      ),
    );
  return {
    url,
    bodies,
    spans,
    spansWith: (name) =>
      new Promise((resolve, reject) => {
        const backstop = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no span "${name}" arrived; got: ${JSON.stringify(spans().map((s) => s.name))}`));
        }, HANG_BACKSTOP_MS);
        backstop.unref();
        const check = () => {
          if (!spans().some((s) => s.name === name)) return;
          waiters.delete(check);
          clearTimeout(backstop);
          resolve(spans());
        };
        waiters.add(check);
        check();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A span attribute's value (whatever its OTLP type), or undefined. */
export function spanAttribute(span: OtlpSpan | undefined, key: string): unknown {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
}
