// How `run` and `propose` end on a signal: the first INT, TERM, HUP (terminal closed) or QUIT
// cancels the run (tools get SIGTERM, then SIGKILL) and the command exits with 128 + the signal's
// number once they are gone; a second one kills every tool process group at once and exits now.
// Whatever way the process exits, the exit hook in host/processGroup.ts kills the groups still
// running, and the supervisor each tool runs under (host/supervisor.ts) kills its group when this
// process is gone, SIGKILL included.

import { killAllGroupsNow } from "@rlm-plan/core/host";

/** The signals that end the CLI, with the exit status a shell shows for each (128 + number). */
export const ENDING_SIGNALS: readonly (readonly [NodeJS.Signals, number])[] = [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
  ["SIGQUIT", 131],
];

export interface CancellationOptions {
  /** Cancels the run like a signal does (for hosts that embed the command). */
  readonly signal?: AbortSignal | undefined;
  /** Whether to handle the ending signals; default true. */
  readonly handleSignals?: boolean | undefined;
}

/** One run's cancellation: an AbortSignal the signals (and an embedding host) abort once. */
export class Cancellation {
  private readonly controller = new AbortController();
  private kill: (() => void) | undefined;
  private readonly handlers: [NodeJS.Signals, () => void][] = [];
  private readonly onOuterAbort = () => this.abort(130);
  /** The exit status the cancellation asks for: 128 + the number of the signal that asked. */
  status = 130;

  constructor(
    private readonly stderr: { write(text: string): unknown },
    private readonly options: CancellationOptions = {},
  ) {
    if (options.handleSignals !== false) {
      for (const [signal, status] of ENDING_SIGNALS) {
        const handler = () => this.abort(status);
        process.on(signal, handler);
        this.handlers.push([signal, handler]);
      }
    }
    if (options.signal?.aborted) this.abort(130);
    else options.signal?.addEventListener("abort", this.onOuterAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** What a second signal calls before exiting (the run's host: SIGKILL to its tools). */
  onKill(kill: () => void): void {
    this.kill = kill;
  }

  private abort(status: number): void {
    if (this.controller.signal.aborted) {
      // Asked twice: stop waiting for tools to exit gracefully.
      this.kill?.();
      killAllGroupsNow();
      process.exit(status);
    }
    this.status = status;
    try {
      this.stderr.write("rlm-plan: cancelling...\n");
    } catch {
      // A closed terminal (SIGHUP) cannot be told; the run is cancelled all the same.
    }
    this.controller.abort();
  }

  dispose(): void {
    for (const [signal, handler] of this.handlers) process.removeListener(signal, handler);
    this.options.signal?.removeEventListener("abort", this.onOuterAbort);
  }
}
