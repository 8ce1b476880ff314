// The OTLP/HTTP exporter of a run's trace, bounded so telemetry never holds a run: every request
// (and the whole retry loop of the exporter) ends by the flush deadline, the sockets are the
// trace's own (an http.Agent destroyed when the trace lets go), and what did not go is said once.
// A collector that accepts and never answers, or a closed port, costs the deadline at most,
// after the result; an interrupt (Ctrl-C) ends the wait at once.

import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";

/** How long a trace may still be sent once its run has ended (issue 33: ≤ 0.5 s after the result). */
export const TRACE_FLUSH_DEADLINE_MS = 500;

/** What became of a flush: sent, or why not (a message for the one warning line). */
export type FlushEnd = { readonly sent: true } | { readonly sent: false; readonly reason: string };

/** The exporter and span processor of one trace, and the agent whose sockets they use. */
export class BoundedExport {
  readonly processor: BatchSpanProcessor;
  private readonly agents: (HttpAgent | HttpsAgent)[] = [];
  private flushing: Promise<FlushEnd> | undefined;
  private flushStarted = 0;

  constructor(
    url: string,
    private readonly deadlineMs: number = TRACE_FLUSH_DEADLINE_MS,
  ) {
    const exporter = new OTLPTraceExporter({
      url,
      // The exporter's own timeout bounds its retries too (it retries only within it).
      timeoutMillis: deadlineMs,
      // Our agent, so the sockets can be destroyed when the wait is over or interrupted; no
      // keep-alive, so a sent trace leaves nothing open behind it.
      httpAgentOptions: (protocol) => {
        const agent =
          protocol === "https:" ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });
        this.agents.push(agent);
        return agent;
      },
    });
    // The processor's export timer is not unref'd: it must not outlive the deadline either.
    this.processor = new BatchSpanProcessor(exporter, { exportTimeoutMillis: deadlineMs });
  }

  /** Starts sending every span still buffered; the deadline counts from here. Idempotent. */
  flush(shutdown: () => Promise<void>): void {
    if (this.flushing) return;
    this.flushStarted = performance.now();
    this.flushing = shutdown().then(
      () => ({ sent: true }) as const,
      (error: unknown) => ({ sent: false, reason: reasonOf(error) }) as const,
    );
  }

  /**
   * Waits for the flush until it ends, the deadline passes, or `signal` aborts, whichever comes
   * first; then lets go of every socket. Resolves to what became of it; never rejects.
   */
  async settle(signal?: AbortSignal): Promise<FlushEnd> {
    const flushing = this.flushing ?? Promise.resolve<FlushEnd>({ sent: true });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const left = Math.max(0, this.deadlineMs - (performance.now() - this.flushStarted));
    const late = new Promise<FlushEnd>((resolve) => {
      timer = setTimeout(() => resolve({ sent: false, reason: `no answer within ${this.deadlineMs / 1000} s` }), left);
    });
    const interrupted = new Promise<FlushEnd>((resolve) => {
      onAbort = () => resolve({ sent: false, reason: "interrupted" });
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([flushing, late, interrupted]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      // Whatever is still in flight goes now: the process owes the collector nothing more.
      for (const agent of this.agents) agent.destroy();
    }
  }
}

/** The exporter's error in one line ("Request timed out", "connect ECONNREFUSED 127.0.0.1:4318"). */
function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text
      .replace(/^Error: /, "")
      .replace(/\s+/g, " ")
      .trim() || "the export failed"
  );
}
