// Context errors as values: the reference's vocabulary (operation, kind, details) plus a message
// that tells the user what to change. No message ever quotes a context's contents.

import type { JsonValue } from "../json";
import type { ContextAction, PartitionStrategy, Selector } from "../plan/ast";
import { jsonSafe } from "./jsonCopy";
import type { ContextKind } from "./payload";
import { printTerm, prologAtom, prologNumber, prologString } from "./prolog/prologTerm";

export interface ContextError {
  readonly operation: string;
  readonly kind: string;
  readonly message: string;
  readonly [detail: string]: JsonValue;
}

/** A failure inside an operation; the store turns it into a ContextError for that operation. */
export class ContextFault extends Error {
  readonly kind: string;
  readonly details: Readonly<Record<string, JsonValue>>;

  constructor(kind: string, details: Readonly<Record<string, JsonValue>>, message: string) {
    super(message);
    this.kind = kind;
    this.details = details;
  }
}

export function contextError(operation: string, fault: ContextFault): ContextError {
  return { operation, kind: fault.kind, ...fault.details, message: fault.message };
}

const KIND_NAMES: Record<ContextKind, string> = { text: "a text", terms: "a list of items" };

export function outOfRange(index: number, message: string): ContextFault {
  return new ContextFault("out_of_range", { index }, message);
}

export function unsupportedSelector(kind: ContextKind, selector: string, advice: string): ContextFault {
  return new ContextFault(
    "unsupported_selector",
    { context_kind: kind, selector },
    `the ${selector} selector does not apply to ${KIND_NAMES[kind]}; ${advice}`,
  );
}

export function unsupportedPartition(kind: ContextKind, strategy: string, advice: string): ContextFault {
  return new ContextFault(
    "unsupported_partition",
    { context_kind: kind, strategy },
    `partition ${strategy} does not apply to ${KIND_NAMES[kind]}; ${advice}`,
  );
}

export function capabilityDenied(capability: string, requested: unknown, allowed: readonly string[]): ContextFault {
  const name = typeof requested === "string" ? `"${requested}"` : "that value";
  return new ContextFault(
    "capability_denied",
    { capability, requested: jsonSafe(requested) },
    `${capability} does not allow ${name}; use one of: ${allowed.join(", ")}`,
  );
}

/** A file-backed text whose file is no longer the one that was registered. */
export function sourceChanged(): ContextFault {
  return new ContextFault(
    "source_changed",
    {},
    "the file behind this text changed after it was registered (its size, modification time or identity differ); register it again",
  );
}

/** A file-backed text whose file can no longer be opened or read. */
/** The run that asked for the operation ended (time limit, cancel): nobody reads its result. */
export function operationStopped(): ContextFault {
  return new ContextFault("stopped", {}, "the context operation was stopped: its run ended");
}

export function sourceUnavailable(code: string): ContextFault {
  return new ContextFault(
    "source_unavailable",
    { code },
    `the file behind this text can no longer be read (${code}); restore it or register the text again`,
  );
}

/** The reference's require_nonnegative_integer/1. */
export function requireNonNegativeInteger(value: unknown, what: string): asserts value is number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return;
  throw new ContextFault(
    "invalid_argument",
    { value: jsonSafe(value) },
    `${what} must be a non-negative integer (0, 1, 2, ...)`,
  );
}

/** The reference's require_positive_integer/1. */
export function requirePositiveInteger(value: unknown, what: string): asserts value is number {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return;
  throw new ContextFault(
    "invalid_argument",
    { value: jsonSafe(value) },
    `${what} must be a positive integer (1, 2, ...)`,
  );
}

/** An argument of an operation term, written as the reference writes it. */
function argument(value: unknown): string {
  if (typeof value === "number") return prologNumber(value);
  if (typeof value === "string") return prologString(value);
  const json = jsonSafe(value);
  return json === null && value !== null ? "_" : printTerm(json);
}

function atomArgument(value: unknown): string {
  return typeof value === "string" ? prologAtom(value) : argument(value);
}

/** `head(5)`, `item(0)`, `metadata`: a selector as the reference writes it. */
export function describeSelector(selector: Selector): string {
  switch (selector.type) {
    case "metadata":
      return "metadata";
    case "item":
      return `item(${argument(selector.index)})`;
    case "head":
    case "tail":
      return `${selector.type}(${argument(selector.count)})`;
    default:
      return atomArgument((selector as { type?: unknown }).type);
  }
}

/** `lines(2)`, `fixed(100)`: a partition strategy as the reference writes it. */
export function describeStrategy(strategy: PartitionStrategy): string {
  return `${atomArgument(strategy.type)}(${argument(strategy.size)})`;
}

/** The operation term the reference reports in errors: `slice(34,1)`, `search("needle")`. */
export function describeAction(action: ContextAction): string {
  switch (action.type) {
    case "search":
      return `search(${argument(action.pattern)})`;
    case "slice":
      return `slice(${argument(action.start)},${argument(action.length)})`;
    case "peek":
      return `peek(${describeSelector(action.selector)})`;
    case "partition":
      return `partition(${describeStrategy(action.strategy)})`;
    case "map":
      return `map(${atomArgument(action.transform)})`;
    case "reduce":
      return `reduce(${atomArgument(action.reducer)})`;
    default:
      return atomArgument((action as { type?: unknown }).type);
  }
}
