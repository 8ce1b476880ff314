// The opaque context store: texts and item lists the host registers stay here behind handles,
// and plans only ever see the bounded projections that run() computes, with the semantics of
// the reference's memory backend (rlm_context.pl).

import { valueShape, type JsonValue } from "../json";
import type { ContextAction } from "../plan/ast";
import { ContextFault, contextError, describeAction, type ContextError } from "./contextErrors";
import { copyJsonStrict, jsonSafe } from "./jsonCopy";
import { resolveContextLimits, type ContextLimits } from "./limits";
import { byteCount, itemCount, mapWork, reduceWork } from "./operations/mapReduce";
import { partitionWork } from "./operations/partition";
import { openTextFile, type TextFileOptions } from "./sources/file/fileTextSource";
import type { ContextPayload, OpenPayload, Work } from "./payload";
import { peekWork, sliceWork } from "./operations/projection";
import { termBytes } from "./prolog/prologTerm";
import { searchWork } from "./operations/search";
import { ContextHandle, CREATE_HANDLE } from "./contextHandle";
import { contextMetadata } from "../plan/shapes/contextResults";
import { memoryTextSource } from "./sources/memoryTextSource";
import { WorkPace } from "./workPace";

export { DEFAULT_CONTEXT_LIMITS, type ContextLimits, type ContextLimitOptions } from "./limits";
export type { ContextError } from "./contextErrors";
export type { TextFileOptions } from "./sources/file/fileTextSource";
export { ContextHandle } from "./contextHandle";

export type ContextOutcome =
  { ok: true; value: JsonValue; truncated: boolean; oversize?: number } | { ok: false; error: ContextError };

export interface ContextStoreOptions {
  /** Clock in seconds (may be fractional) for metadata.created_at; defaults to Date.now() / 1000. */
  readonly now?: () => number;
  /** Id of a new context; defaults to a random UUID. Tests pin it. */
  readonly newId?: () => string;
}

interface ContextRecord {
  readonly payload: ContextPayload;
  readonly bytes: number;
  readonly items: number;
  readonly createdAt: number;
}

/** The reference keeps a version per context; contexts here are never replaced, so it stays 1. */
const VERSION = 1;

export class ContextStore {
  readonly #records = new Map<ContextHandle, ContextRecord>();
  readonly #now: () => number;
  readonly #newId: () => string;

  constructor(options: ContextStoreOptions = {}) {
    this.#now = options.now ?? (() => Date.now() / 1000);
    this.#newId = options.newId ?? newContextId;
  }

  /** Registers a text; lines are separated by "\n", positions count Unicode code points. */
  registerText(text: string): ContextHandle {
    if (typeof text !== "string") throw new TypeError(`registerText needs a string, got ${valueShape(text)}`);
    const payload: ContextPayload = { kind: "text", text: memoryTextSource(text) };
    return this.#register(payload);
  }

  /**
   * Registers the UTF-8 text file at `path` without holding it in memory: it is read once now
   * (to count its bytes, code points and lines and index positions in it), then each operation
   * reads only the chunks it needs. Results are those registerText would give for the file's
   * text (invalid UTF-8 decodes to U+FFFD, as readFileSync(path, "utf8") does). If the file
   * later changes or disappears, operations fail with a source_changed or source_unavailable
   * context error. No file descriptor stays open between operations.
   */
  async registerTextFile(path: string, options?: TextFileOptions): Promise<ContextHandle> {
    if (typeof path !== "string") throw new TypeError(`registerTextFile needs a path, got ${valueShape(path)}`);
    const text = await openTextFile(path, options);
    return this.#register({ kind: "text", text });
  }

  /** Registers a list of JSON items (copied: later changes to `items` do not reach the store). */
  registerItems(items: readonly JsonValue[]): ContextHandle {
    if (!Array.isArray(items)) throw new TypeError(`registerItems needs a list, got ${valueShape(items)}`);
    const copies = Object.freeze(items.map((item, i) => copyJsonStrict(item, `items[${i}]`)));
    let bytes = 0;
    for (const item of copies) bytes += termBytes(item);
    return this.#register({ kind: "terms", items: copies, bytes });
  }

  /** Whether `value` is a handle this store created (a handle of another store is not). */
  isHandle(value: unknown): value is ContextHandle {
    return value instanceof ContextHandle && this.#records.has(value);
  }

  /**
   * Runs one context action within the host's options (a `ContextLimitOptions` object; the
   * defaults when omitted). Never throws and never rejects: every failure is an outcome.
   */
  async run(
    handle: unknown,
    action: ContextAction,
    options: unknown = {},
    signal?: AbortSignal,
    outputCap?: number,
  ): Promise<ContextOutcome> {
    try {
      return await this.#run(handle, action, options, signal, outputCap);
    } catch (error) {
      const operation = operationText(action);
      if (error instanceof ContextFault) return { ok: false, error: contextError(operation, error) };
      return {
        ok: false,
        error: {
          operation,
          kind: "runtime_error",
          exception: error instanceof Error ? error.name : typeof error,
          message: "the context operation failed unexpectedly; this is a bug in the runtime, please report it",
        },
      };
    }
  }

  #register(payload: ContextPayload): ContextHandle {
    const handle = new ContextHandle(CREATE_HANDLE, this.#newId(), VERSION);
    this.#records.set(handle, {
      payload,
      bytes: byteCount(payload),
      items: itemCount(payload),
      createdAt: this.#now(),
    });
    return handle;
  }

  async #run(
    handle: unknown,
    action: ContextAction,
    options: unknown,
    signal?: AbortSignal,
    outputCap?: number,
  ): Promise<ContextOutcome> {
    // As in the reference, an empty pattern is refused before the handle is even looked at.
    if (action.type === "search" && (typeof action.pattern !== "string" || action.pattern === "")) {
      return fail({
        operation: "search",
        kind: "invalid_pattern",
        message: "the search pattern must be non-empty text",
      });
    }
    const record = this.isHandle(handle) ? this.#records.get(handle) : undefined;
    if (record === undefined) {
      const got = handle instanceof ContextHandle ? "a handle of another context store" : describeShape(handle);
      return fail({
        operation: "resolve",
        kind: "invalid_handle",
        handle: safeJson(handle),
        message: `expected a context handle (an input registered as a text or a list of items), got ${got}`,
      });
    }
    // The reference looks at the handle first, then at the options.
    const limits = resolveContextLimits(options);
    if (limits === undefined) {
      return fail({
        operation: "options",
        kind: "invalid_limit",
        message: "context options need positive integers for max_results and max_bytes and a positive time_limit",
      });
    }
    const work = await this.#open(record, action, limits, new WorkPace(signal, outputCap));
    return {
      ok: true,
      value: work.value,
      truncated: work.truncated,
      ...(work.oversize === undefined ? {} : { oversize: work.oversize }),
    };
  }

  /** Runs the action on the context; a text is read through one reader (one file session). */
  #open(record: ContextRecord, action: ContextAction, limits: ContextLimits, pace: WorkPace): Promise<Work> {
    const payload = record.payload;
    const signal = pace.signal;
    if (payload.kind === "terms") return this.#work(record, payload, action, limits, pace);
    return payload.text.read((text) => this.#work(record, { kind: "text", text }, action, limits, pace), signal);
  }

  async #work(
    record: ContextRecord,
    payload: OpenPayload,
    action: ContextAction,
    limits: ContextLimits,
    pace: WorkPace,
  ): Promise<Work> {
    switch (action.type) {
      case "peek":
        return peekWork(action.selector, payload, metadataOf(record), limits);
      case "slice":
        return sliceWork(action.start, action.length, payload, limits);
      case "search":
        return searchWork(action.pattern, payload, limits, pace);
      case "partition":
        return partitionWork(action.strategy, payload, limits, pace);
      case "map":
        return mapWork(action.transform, payload, limits, pace);
      case "reduce":
        return reduceWork(action.reducer, payload);
      default: {
        const requested = operationText(action);
        throw new ContextFault(
          "unsupported_operation",
          { requested },
          `unknown context action ${requested}; use search, slice, peek, partition, map or reduce`,
        );
      }
    }
  }
}

const SHAPE_NAMES: Readonly<Record<string, string>> = {
  object: "an object",
  list: "a list",
  null: "null",
  undefined: "nothing",
};

function describeShape(value: unknown): string {
  const shape = valueShape(value);
  return SHAPE_NAMES[shape] ?? `a ${shape}`;
}

function fail(error: ContextError): ContextOutcome {
  return { ok: false, error };
}

function metadataOf(record: ContextRecord): JsonValue {
  return contextMetadata(record.payload.kind, record.bytes, record.items, VERSION, record.createdAt);
}

/** The action as the reference names it in errors; "unknown" if it is too malformed to name. */
function operationText(action: ContextAction): string {
  try {
    return describeAction(action);
  } catch {
    return "unknown";
  }
}

function safeJson(value: unknown): JsonValue {
  try {
    return jsonSafe(value);
  } catch {
    return null;
  }
}

/** A context's id. node:crypto on first use: a check or an editor's start registers no context. */
function newContextId(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("node:crypto") as typeof import("node:crypto")).randomUUID();
}
