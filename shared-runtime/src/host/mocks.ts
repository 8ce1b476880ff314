// Mocks files for dry runs: for a tool or provider name, answers (values, or failures of a
// kind) consumed in order, each optionally matched on the call. Mocked names replace the host
// profile's tools and providers, so a plan's logic runs in CI with no program and no key.
// The file is JSON with comments, checked against schemas/mocks.schema.json, errors located.

// node:timers' `promises` getter loads them on the first delayed answer, not when mocks are read.
import { promises as timers } from "node:timers";
import type { ValidateFunction } from "ajv";
import { hasOwn, isJsonObject, type JsonValue } from "../json";
import type { ProviderCosting } from "../plan/modelCost";
import type { ModelProvider, ToolHandler } from "../run/host";
import { MAX_MOCKS_BYTES, readTextFileSync } from "../text/boundedFile";
import validateMocksSchema from "./generated/mocksValidator";
import { parseSchemaFile, readErrorText, type HostProfileError } from "./profile";

export const MOCKS_FILE_SUFFIX = ".mocks.json";

export interface MockAnswer {
  readonly match?: JsonValue;
  readonly value?: JsonValue;
  readonly error?: { readonly kind?: "failure" | "timeout" | "not_json"; readonly message: string };
  readonly repeat?: boolean;
  /** Milliseconds the call takes before it answers (a slow tool or model, for tests of concurrency). */
  readonly delayMs?: number;
}

export interface Mocks {
  /** The file the mocks came from (for messages), if any. */
  readonly file?: string;
  /** Where a key of the file is (a mocked name: ["tools", name]); read from a file only. */
  readonly locate?: (path: readonly string[]) => Omit<HostProfileError, "jsonPath" | "message">;
  readonly tools: ReadonlyMap<string, readonly MockAnswer[]>;
  readonly providers: ReadonlyMap<string, readonly MockAnswer[]>;
}

export type MocksResult =
  { readonly ok: true; readonly mocks: Mocks } | { readonly ok: false; readonly errors: readonly HostProfileError[] };

// schemas/mocks.schema.json (what editors use too), compiled ahead of time (host/generated/,
// `npm run generate`).
const compiled = validateMocksSchema as unknown as ValidateFunction;

/** A mocks file's text as mocks, or every problem located at file:line:col. */
export function parseMocks(text: string, file: string): MocksResult {
  const validate = compiled;
  const checked = parseSchemaFile(
    text,
    file,
    (value) => (validate(value) ? { ok: true } : { ok: false, errors: validate.errors ?? [] }),
    undefined,
    "the mocks file",
  );
  if (!checked.ok) return checked;
  const at = checked.at;
  return { ok: true, mocks: { ...mocksOf(checked.value, file), locate: (path) => at.path(path, "key") } };
}

export function loadMocks(file: string): MocksResult {
  let text: string;
  try {
    text = readTextFileSync(file, MAX_MOCKS_BYTES);
  } catch (error) {
    const message = `cannot read the mocks file: ${readErrorText(error)}`;
    return { ok: false, errors: [{ file, line: 1, column: 1, offset: 0, length: 0, jsonPath: "", message }] };
  }
  return parseMocks(text, file);
}

/** Mocks from a value already checked against the schema (a server request's inline mocks). */
export function mocksOf(value: JsonValue, file?: string): Mocks {
  const table = (key: string): Map<string, readonly MockAnswer[]> => {
    const section = isJsonObject(value) && hasOwn(value, key) ? value[key] : undefined;
    const map = new Map<string, readonly MockAnswer[]>();
    if (isJsonObject(section))
      for (const name of Object.keys(section)) map.set(name, section[name] as unknown as MockAnswer[]);
    return map;
  };
  return { ...(file === undefined ? {} : { file }), tools: table("tools"), providers: table("providers") };
}

/**
 * The next answer for a call: the first unused one whose match fits. Calls of concurrent
 * branches take answers in the order they are made.
 */
class AnswerQueue {
  private readonly used = new Set<number>();
  private calls = 0;

  constructor(
    private readonly what: string,
    private readonly answers: readonly MockAnswer[],
    private readonly fits: (match: JsonValue) => boolean,
  ) {}

  take(): MockAnswer {
    this.calls++;
    const index = this.answers.findIndex(
      (answer, i) => !this.used.has(i) && (answer.match === undefined || this.fits(answer.match)),
    );
    if (index < 0) {
      const left = this.answers.length - this.used.size;
      const why = left === 0 ? "all its answers are used up" : `none of its ${left} unused answers matches the call`;
      throw new Error(`the mock for ${this.what} has no answer for call ${this.calls}: ${why}`);
    }
    const answer = this.answers[index] as MockAnswer;
    if (answer.repeat !== true) this.used.add(index);
    return answer;
  }
}

/** What a mocked call returns; a failure answer throws, as a failing tool or request would. */
function answerValue(answer: MockAnswer): unknown {
  const error = answer.error;
  if (!error) return answer.value ?? null;
  if (error.kind === "not_json") return () => undefined;
  if (error.kind === "timeout") throw new Error(`timed out (mocked): ${error.message}`);
  throw new Error(error.message);
}

/** A tool answering from `answers`; a handler (and its queue) is built per run. */
export function mockTool(name: string, answers: readonly MockAnswer[]): ToolHandler {
  let args: JsonValue = null;
  const queue = new AnswerQueue(`tool ${JSON.stringify(name)}`, answers, (match) => contains(args, match));
  return (callArgs, context) => {
    args = callArgs;
    const answer = queue.take();
    if (!answer.delayMs) return answerValue(answer) as JsonValue;
    return delayed(answer.delayMs, context.signal).then(() => answerValue(answer) as JsonValue);
  };
}

/**
 * A provider answering from `answers`; a match is text the prompt must contain. `model` is the
 * model of the profile's provider it stands in for: its calls are that provider's requests, so a
 * call recorded live and the same call answered by a mock (a replay) have one key.
 */
export function mockProvider(
  name: string,
  answers: readonly MockAnswer[],
  model?: string,
  costing?: ProviderCosting,
): ModelProvider {
  let prompt = "";
  const queue = new AnswerQueue(
    `provider ${JSON.stringify(name)}`,
    answers,
    (match) => typeof match === "string" && prompt.includes(match),
  );
  return {
    description: `mocked provider (${answers.length} answer${answers.length === 1 ? "" : "s"})`,
    ...(model === undefined ? {} : { model }),
    // Priced as the provider it stands in for: `test --max-cost` gates a plan on mocked runs.
    ...(costing === undefined ? {} : { costing }),
    complete: (request, context) => {
      prompt = request.messages.map((m) => m.content).join("\n");
      // Taken now, while `prompt` is this call's: concurrent branches call in turn.
      let answer: MockAnswer;
      try {
        answer = queue.take();
      } catch (error) {
        return Promise.reject(error as Error);
      }
      const wait = answer.delayMs ? delayed(answer.delayMs, context.signal) : Promise.resolve();
      return wait.then(() => answerValue(answer) as JsonValue);
    },
  };
}

/** Waits `ms`; a cancelled run stops waiting at once (the wait rejects, as a cancelled call would). */
function delayed(ms: number, signal: AbortSignal): Promise<void> {
  return timers.setTimeout(ms, undefined, { signal }).catch(() => {
    throw new Error("cancelled while the mocked call was answering");
  });
}

/** Whether `value` contains `pattern`: an object's listed keys recursively, arrays item by item, else equal. */
export function contains(value: JsonValue, pattern: JsonValue): boolean {
  if (Array.isArray(pattern)) {
    return (
      Array.isArray(value) &&
      value.length === pattern.length &&
      pattern.every((item, i) => contains(value[i] as JsonValue, item))
    );
  }
  if (isJsonObject(pattern)) {
    return (
      isJsonObject(value) &&
      Object.keys(pattern).every(
        (key) => hasOwn(value, key) && contains(value[key] as JsonValue, pattern[key] as JsonValue),
      )
    );
  }
  return value === pattern;
}
