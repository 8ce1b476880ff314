// Every request and notification handler runs under this guard: a bug in one feature answers
// that one request with an empty result (or an error) and is logged to the client's console;
// it never takes the server down.

import { CancellationToken, LSPErrorCodes, ResponseError } from "vscode-languageserver";

/** Where the guard reports what it caught: the connection's console in the server. */
export interface GuardLog {
  error(message: string): void;
}

export interface Guard {
  /**
   * Wraps a request handler. A thrown error or rejected promise is logged and answered with
   * `fallback` (an empty result the client can show); a cancelled request answers with the
   * LSP "request cancelled" error as the protocol asks.
   */
  request<P, R>(
    name: string,
    handler: (params: P, token: CancellationToken) => R | Promise<R>,
    fallback: R,
  ): (params: P, token: CancellationToken) => Promise<R | ResponseError<void>>;
  /** Wraps a notification handler (or any callback): errors are logged, never rethrown. */
  notification<P>(name: string, handler: (params: P) => void | Promise<void>): (params: P) => void;
  /** Runs work that no request waits for (timers, file watching) under the same rule. */
  run(name: string, work: () => void | Promise<void>): void;
}

export function createGuard(log: GuardLog): Guard {
  const report = (name: string, error: unknown): void => {
    try {
      log.error(`rlm-plan: ${name} failed: ${describeError(error)}`);
    } catch {
      // The console itself failed (the connection is closing): nothing more to do.
    }
  };
  return {
    request(name, handler, fallback) {
      return async (params, token) => {
        try {
          if (token.isCancellationRequested) return cancelled();
          const result = await handler(params, token);
          return token.isCancellationRequested ? cancelled() : result;
        } catch (error) {
          report(name, error);
          return fallback;
        }
      };
    },
    notification(name, handler) {
      return (params) => {
        try {
          onFailure(handler(params), (error) => report(name, error));
        } catch (error) {
          report(name, error);
        }
      };
    },
    run(name, work) {
      try {
        onFailure(work(), (error) => report(name, error));
      } catch (error) {
        report(name, error);
      }
    },
  };
}

function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, "request cancelled");
}

/** A caught value as text for the log: the stack when there is one, so the bug can be found. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return "an unprintable value";
  }
}

/**
 * Reports a returned promise's failure. A handler may return anything (a document manager's
 * listener returns its own result, not a promise): only a thenable is waited for.
 */
function onFailure(result: unknown, report: (error: unknown) => void): void {
  if (typeof result === "object" && result !== null && typeof (result as PromiseLike<unknown>).then === "function")
    (result as PromiseLike<unknown>).then(undefined, report);
}
