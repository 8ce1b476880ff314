// The server's output boundary: the connection every feature talks through, with every answer
// and every message it sends passed through the sessions' secret mask (run/secrets.ts). An MCP
// server's stderr line or a tool description holding a provider key reaches no diagnostic,
// hover, completion, log or run notification in clear. The mask grows as the server learns
// secrets: the environment's at start, each host profile's key variables as it is read, and
// the keys a client passes for a run.

import { ResponseError, type Connection } from "vscode-languageserver";
import { maskedMethods, type SecretMask } from "@rlm-plan/core/secrets";

/** A value as it may leave the server: strings masked, ResponseErrors kept as such. */
export function maskOutgoing<T>(value: T, mask: SecretMask): T {
  if (mask.size === 0) return value;
  if (value instanceof ResponseError)
    return new ResponseError(value.code, mask.mask(value.message), mask.maskValue(value.data)) as T;
  return mask.maskValue(value);
}

/** Registration methods whose last argument is a handler whose answer goes to the client. */
function isRegistration(name: string): boolean {
  return /^on[A-Z]/.test(name);
}

/** Methods that send to the client: every argument is masked. */
function isSend(name: string): boolean {
  return /^send[A-Z]/.test(name);
}

/** The connection, with everything that leaves it masked. */
export function maskedConnection(connection: Connection, mask: SecretMask): Connection {
  const wrapHandler =
    (handler: (...args: unknown[]) => unknown) =>
    (...args: unknown[]): unknown => {
      const result = handler(...args);
      if (result instanceof Promise) return result.then((value: unknown) => maskOutgoing(value, mask));
      return maskOutgoing(result, mask);
    };
  const console = maskedMethods(connection.console, mask);
  const window = maskedMethods(connection.window, mask);
  return new Proxy(connection, {
    get(target, property, receiver) {
      if (property === "console") return console;
      if (property === "window") return window;
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      const method = value as (...args: unknown[]) => unknown;
      if (isSend(property))
        return (...args: unknown[]) =>
          method.apply(
            target,
            args.map((arg) => maskOutgoing(arg, mask)),
          );
      if (isRegistration(property))
        return (...args: unknown[]) => {
          const last = args[args.length - 1];
          if (typeof last === "function") args[args.length - 1] = wrapHandler(last as (...a: unknown[]) => unknown);
          return method.apply(target, args);
        };
      return method.bind(target);
    },
  });
}
