// A profile's named inputs as the values a run sees: texts and item lists are registered in
// the context store (plans get opaque handles), plain values pass as they are. Data files that
// cannot be read or parsed are located errors: the profile entry, or the file and line.

import { basename, extname, resolve } from "node:path";
import { lineColumn } from "../text/lineColumn";
import type { ContextHandle, ContextStore } from "../context/store";
import { describe } from "../plan/normalize";
import type { JsonValue } from "../json";
import { MAX_ITEMS_FILE_BYTES, readTextFile } from "../text/boundedFile";
import { parseJsonText } from "../text/jsonText";
import {
  pointer,
  profileError,
  readErrorText,
  type HostProfile,
  type HostProfileError,
  type InputSpec,
} from "./profile";

export type InputResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: HostProfileError };

/**
 * A text file as a context: indexed in one streaming pass and read chunk by chunk afterwards,
 * so a file far larger than memory can be searched, sliced and counted.
 */
export async function textFileInput(file: string, store: ContextStore): Promise<ContextHandle> {
  return store.registerTextFile(file);
}

/** The value of input `name` of `profile`. */
export async function loadInput(
  profile: HostProfile,
  name: string,
  spec: InputSpec,
  store: ContextStore,
): Promise<InputResult> {
  const entry = pointer(["inputs", name]);
  switch (spec.type) {
    case "value":
      return { ok: true, value: spec.value };
    case "text":
      return { ok: true, value: store.registerText(spec.text) };
    case "items":
      return registered(() => store.registerItems(spec.items as JsonValue[]), profile, entry);
    case "text-file": {
      const file = resolve(profile.dir, spec.path);
      try {
        return { ok: true, value: await textFileInput(file, store) };
      } catch (error) {
        return unreadable(profile, `${entry}/path`, name, spec.path, error);
      }
    }
    case "items-file": {
      const file = resolve(profile.dir, spec.path);
      let text: string;
      try {
        text = await readTextFile(file, MAX_ITEMS_FILE_BYTES);
      } catch (error) {
        return unreadable(profile, `${entry}/path`, name, spec.path, error);
      }
      const format = spec.format ?? defaultItemsFormat(file);
      const items = format === "jsonl" ? jsonLines(text, file, entry) : jsonArray(text, file, entry);
      if (!Array.isArray(items)) return { ok: false, error: items };
      return registered(() => store.registerItems(items), profile, entry);
    }
  }
}

/** A text file given on the command line (`--input name=path`), relative to the current folder. */
export async function inputFileOverride(name: string, path: string, store: ContextStore): Promise<InputResult> {
  const file = resolve(path);
  try {
    return { ok: true, value: await textFileInput(file, store) };
  } catch (error) {
    return {
      ok: false,
      error: {
        file: path,
        line: 1,
        column: 1,
        offset: 0,
        length: 0,
        jsonPath: pointer(["inputs", name]),
        message: `cannot read the file given for input ${JSON.stringify(name)}: ${readErrorText(error)}`,
      },
    };
  }
}

function defaultItemsFormat(file: string): "jsonl" | "json" {
  const ext = extname(file).toLowerCase();
  return ext === ".jsonl" || ext === ".ndjson" ? "jsonl" : "json";
}

/** One JSON value per line; blank lines are skipped. */
function jsonLines(text: string, file: string, entry: string): JsonValue[] | HostProfileError {
  const items: JsonValue[] = [];
  const lines = text.split("\n");
  let offset = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    const line = (i === 0 && offset === 1 ? raw.slice(1) : raw).replace(/\r$/, "");
    if (line.trim() !== "") {
      const parsed = parseJsonText(line);
      if (!parsed.ok) {
        return {
          file,
          line: i + 1,
          column: parsed.error.offset + 1,
          offset: offset + parsed.error.offset,
          length: parsed.error.length,
          jsonPath: entry,
          message: `line ${i + 1} of ${basename(file)} is not JSON (${parsed.error.message}): each line of a jsonl file holds one JSON value`,
        };
      }
      items.push(parsed.value);
    }
    offset += raw.length + 1;
  }
  return items;
}

/** One JSON array for the whole file. */
function jsonArray(text: string, file: string, entry: string): JsonValue[] | HostProfileError {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = parseJsonText(source);
  if (!parsed.ok) {
    const { line, character } = lineColumn(source, parsed.error.offset);
    return {
      file,
      line: line + 1,
      column: character + 1,
      offset: parsed.error.offset,
      length: parsed.error.length,
      jsonPath: entry,
      message: `${basename(file)} is not JSON (${parsed.error.message}): a json items file holds one JSON array (or set "format": "jsonl")`,
    };
  }
  if (!Array.isArray(parsed.value)) {
    return {
      file,
      line: 1,
      column: 1,
      offset: 0,
      length: 0,
      jsonPath: entry,
      message: `${basename(file)} holds ${describe(parsed.value)}, not a JSON array: a json items file holds one JSON array (or set "format": "jsonl")`,
    };
  }
  return parsed.value;
}

function registered(register: () => ContextHandle, profile: HostProfile, entry: string): InputResult {
  try {
    return { ok: true, value: register() };
  } catch (error) {
    return {
      ok: false,
      error: profileError(
        profile,
        entry,
        `cannot use these items: ${error instanceof Error ? error.message : String(error)}`,
      ),
    };
  }
}

function unreadable(profile: HostProfile, path: string, name: string, file: string, error: unknown): InputResult {
  return {
    ok: false,
    error: profileError(
      profile,
      path,
      `cannot read ${JSON.stringify(file)} for input ${JSON.stringify(name)}: ${readErrorText(error)}`,
    ),
  };
}
