// Finding a recorded run to continue or replay, and reading what it was given: the journal's own
// queries (no SQL outside journal/) and the one parse of a run's recorded options, typed.

import { isJsonObject, type JsonObject, type JsonValue } from "../json";
import type { RunRow } from "./rows";
import type { JournalStore } from "./journalStore";

/** What a run was started with, as the front end recorded it: what a resume runs with again. */
export interface RecordedOptions {
  /** Input name -> text file (absolute), as `--input NAME=PATH` gave it. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Input name -> value (`--input-text`, `--input-json`, `--inputs`, a job's inputs). */
  readonly inputValues?: JsonObject;
  /** The mocks file (absolute), or a note that the mocks were given as a value (not recorded). */
  readonly mocks?: string;
  readonly parallel?: "concurrent" | "sequential";
  /** A worker's job ("QUEUE/ID"). */
  readonly job?: string;
  /** A fork's new binding values, by the step ("steps/2") they were given at (its parents' first). */
  readonly rebinds?: readonly { readonly at: string; readonly values: JsonObject }[];
  /** Everything else the front end recorded (a test case's, a proposal's), as stored. */
  readonly all: JsonObject;
}

/** The options recorded in a run's details, read once and typed; a key of the wrong type is left out. */
export function recordedOptionsOf(run: Pick<RunRow, "details">): RecordedOptions {
  let details: JsonValue;
  try {
    details = JSON.parse(run.details) as JsonValue;
  } catch {
    details = {};
  }
  const options = isJsonObject(details) && isJsonObject(details["options"]) ? details["options"] : {};
  const inputs = options["inputs"];
  const values = options["input_values"];
  const parallel = options["parallel"];
  return {
    ...(isJsonObject(inputs) ? { inputs: onlyTexts(inputs) } : {}),
    ...(isJsonObject(values) ? { inputValues: Object.assign(Object.create(null) as JsonObject, values) } : {}),
    ...(typeof options["mocks"] === "string" ? { mocks: options["mocks"] } : {}),
    ...(parallel === "concurrent" || parallel === "sequential" ? { parallel } : {}),
    ...(typeof options["job"] === "string" ? { job: options["job"] } : {}),
    ...(Array.isArray(options["rebinds"]) ? { rebinds: rebindsOf(options["rebinds"]) } : {}),
    all: options,
  };
}

/** The latest run of a worker's job ("QUEUE/ID") that did not finish (ok or failed): a retried job continues it. */
export function latestUnfinishedJobRun(store: JournalStore, job: string): number | undefined {
  const row = store.db
    .prepare(
      "SELECT id FROM runs WHERE origin = 'worker' AND status <> 'ok' AND status <> 'failed' AND json_extract(details, '$.options.job') = ? ORDER BY id DESC LIMIT 1",
    )
    .get(job) as { id: number } | undefined;
  return row?.id;
}

function onlyTexts(object: JsonObject): Record<string, string> {
  const texts = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(object)) if (typeof value === "string") texts[name] = value;
  return texts;
}

function rebindsOf(list: readonly JsonValue[]): { at: string; values: JsonObject }[] {
  return list.flatMap((entry) =>
    isJsonObject(entry) && typeof entry["at"] === "string" && isJsonObject(entry["values"])
      ? [{ at: entry["at"], values: entry["values"] }]
      : [],
  );
}
