// Cassettes: the replies of tools, MCP tools and model providers, keyed by the canonical request
// (tool and arguments; provider, model, messages and options). A cassette is a host layer:
// `replayingHost` answers a run's tools and providers from one and fails loudly on a request it
// does not hold, naming the nearest recorded request and the first difference. Recording is the
// run journal's (cassetteRecording.ts): a cassette is derived from the journal's record of a run.

import { isJsonObject, type JsonObject, type JsonValue } from "../json";
import type { ModelProvider, ToolHandler } from "../run/host";
import type { HostFactory } from "../run/startRun";
import { readErrorText, type HostProfileError } from "../host/profile";
import { schemaFileReader } from "./schemaFile";
import { canonicalText, firstDifference } from "./requestDiff";
import { withoutLive } from "./offlineHost";
import { FileRefusedError, MAX_CASSETTE_BYTES, readTextFileSync } from "../text/boundedFile";

export const CASSETTE_VERSION = 1;

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const CASSETTE_SCHEMA = require("../../schemas/cassette.schema.json") as Readonly<Record<string, unknown>>;

export type CassetteRequest =
  | {
      readonly kind: "model";
      readonly provider: string;
      readonly model?: string;
      readonly messages: JsonValue;
      readonly options: JsonObject;
    }
  | { readonly kind: "tool"; readonly tool: string; readonly args: JsonValue };

export type CassetteReply = { readonly value: JsonValue } | { readonly error: string };

export interface CassetteEntry {
  /** The case that made the call. */
  readonly case?: string;
  readonly request: CassetteRequest;
  readonly reply: CassetteReply;
}

export interface Cassette {
  readonly file?: string;
  readonly entries: readonly CassetteEntry[];
}

export type CassetteResult =
  | { readonly ok: true; readonly cassette: Cassette }
  | { readonly ok: false; readonly errors: readonly HostProfileError[] };

const readCassetteFile = schemaFileReader(CASSETTE_SCHEMA, "the cassette");

/** A cassette's text, checked against schemas/cassette.schema.json; problems located at file:line:col. */
export function parseCassette(text: string, file: string): CassetteResult {
  const checked = readCassetteFile(text, file);
  if (!checked.ok) return checked;
  const value = checked.value as unknown as { entries: CassetteEntry[] };
  return { ok: true, cassette: { file, entries: value.entries } };
}

/** Reads a cassette; `shown` names it in messages (default: `file`). */
export function loadCassette(file: string, shown = file): CassetteResult {
  let text: string;
  try {
    // Capped before it is read: a 200 MB cassette was read whole (1 GB) to be refused after.
    text = readTextFileSync(file, MAX_CASSETTE_BYTES);
  } catch (error) {
    const advice = error instanceof FileRefusedError ? "" : "; record it first with rlm-plan test --record";
    const message = `cannot read the cassette: ${readErrorText(error)}${advice}`;
    return { ok: false, errors: [{ file: shown, line: 1, column: 1, offset: 0, length: 0, jsonPath: "", message }] };
  }
  return parseCassette(text, shown);
}

/** A cassette as the file holds it: versioned, one entry a line group, stable across recordings. */
export function cassetteText(entries: readonly CassetteEntry[], recorded: string): string {
  const lines = entries.map((entry) => `    ${JSON.stringify(entry)}`);
  return `{\n  "$schema": "https://rlm-plan.dev/schemas/cassette.schema.json",\n  "version": ${CASSETTE_VERSION},\n  "recorded": ${JSON.stringify(recorded)},\n  "entries": [\n${lines.join(",\n")}\n  ]\n}\n`;
}

// ---- replay ---------------------------------------------------------------------------------

/** Why a replay could not answer: what was asked, the nearest recorded request and how it differs. */
export class CassetteMiss extends Error {
  constructor(
    readonly request: CassetteRequest,
    readonly nearest: CassetteRequest | undefined,
    readonly difference: string | undefined,
    file: string | undefined,
  ) {
    const where = file === undefined ? "the cassette" : `the cassette ${file}`;
    const asked = describeRequest(request);
    const near =
      nearest === undefined
        ? `; it holds no ${request.kind} request at all`
        : `; the nearest recorded request is ${describeRequest(nearest)}, which differs at ${difference ?? "(nothing)"}`;
    super(`${where} holds no reply for ${asked}${near}; record it again with rlm-plan test --record`);
    this.name = "CassetteMiss";
  }
}

/** The answers of one run (one case): each request takes its recordings in order. */
export class CassetteReplay {
  private readonly taken = new Map<string, number>();
  readonly misses: CassetteMiss[] = [];

  constructor(
    private readonly cassette: Cassette,
    private readonly caseId: string | undefined,
  ) {}

  answer(request: CassetteRequest): JsonValue {
    const key = canonicalText(request as unknown as JsonValue);
    const matching = this.cassette.entries.filter((e) => canonicalText(e.request as unknown as JsonValue) === key);
    // A case's own recordings first: two cases may ask the same and have been answered differently.
    const own = matching.filter((e) => e.case === this.caseId);
    const pool = own.length > 0 ? own : matching;
    const n = this.taken.get(key) ?? 0;
    const entry = pool[Math.min(n, pool.length - 1)];
    if (entry === undefined) {
      const miss = this.miss(request);
      this.misses.push(miss);
      throw miss;
    }
    this.taken.set(key, n + 1);
    if ("error" in entry.reply) throw new Error(entry.reply.error);
    return entry.reply.value;
  }

  private miss(request: CassetteRequest): CassetteMiss {
    let best: { entry: CassetteEntry; score: number; difference: string | undefined } | undefined;
    for (const entry of this.cassette.entries) {
      if (entry.request.kind !== request.kind) continue;
      const found = firstDifference(entry.request as unknown as JsonValue, request as unknown as JsonValue);
      const score = found.count + (entry.case === this.caseId ? 0 : 0.5);
      if (!best || score < best.score) best = { entry, score, difference: found.text };
    }
    return new CassetteMiss(request, best?.entry.request, best?.difference, this.cassette.file);
  }
}

/** The host of a replayed run: every tool and provider the plan names answers from the cassette, nothing live. */
export function replayingHost(inner: HostFactory, replay: CassetteReplay, models: ModelNames): HostFactory {
  return async (needs) => {
    const setup = await inner(needs);
    if (!setup.ok) return setup;
    const built = setup.built;
    const tools = new Map<string, ToolHandler>();
    for (const name of needs.tools) tools.set(name, (args) => replay.answer({ kind: "tool", tool: name, args }));
    const providers = new Map<string, ModelProvider>();
    for (const name of needs.providers) {
      const model = models(name);
      providers.set(name, {
        description: "replayed from a cassette",
        complete: async (request) => replay.answer(modelRequest(name, model, request)),
      });
    }
    // Nothing real is called: not even an MCP server to list its tools.
    return { ok: true, built: withoutLive(built, tools, providers) };
  };
}

/** The model a provider asks for (from the host profile), part of the canonical request. */
export type ModelNames = (provider: string) => string | undefined;

function modelRequest(
  provider: string,
  model: string | undefined,
  request: { readonly messages: readonly unknown[]; readonly options: JsonObject },
): CassetteRequest {
  return {
    kind: "model",
    provider,
    ...(model === undefined ? {} : { model }),
    messages: request.messages as unknown as JsonValue,
    options: request.options,
  };
}

/** One line naming a request: the tool and its arguments, or the provider, model and prompt's start. */
export function describeRequest(request: CassetteRequest): string {
  if (request.kind === "tool") return `tool ${JSON.stringify(request.tool)} with ${clip(JSON.stringify(request.args))}`;
  const model = request.model === undefined ? "" : ` (model ${JSON.stringify(request.model)})`;
  const prompt = Array.isArray(request.messages)
    ? request.messages.map((m) => (isJsonObject(m) && typeof m.content === "string" ? m.content : "")).join("\n")
    : "";
  return `provider ${JSON.stringify(request.provider)}${model} with prompt ${clip(JSON.stringify(prompt))}`;
}

function clip(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
