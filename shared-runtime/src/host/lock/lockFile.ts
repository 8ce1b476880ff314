// Reading and writing rlmplan.lock.json: read bounded and checked against lock.schema.json (every
// problem located, as a profile's are); written with keys sorted, two-space indented, no
// timestamps, so the same pins are the same bytes and a change is a readable diff.

import { renameSync, rmSync, writeFileSync } from "node:fs";
import { MAX_LOCK_BYTES, readTextFileSync } from "../../text/boundedFile";
import { schemaEngine, type SchemaValidator } from "../../text/schemaEngine";
import { parseSchemaFile, readErrorText, type SchemaCheck } from "../checkedJsonFile";
import type { HostProfileError } from "../profileTypes";
import type { ToolLock } from "./lockFormat";
import { keysSorted } from "./lockHash";

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const LOCK_SCHEMA = require("../../../schemas/lock.schema.json") as Readonly<Record<string, unknown>>;

export type LockRead =
  | { readonly ok: true; readonly lock: ToolLock | undefined }
  | { readonly ok: false; readonly errors: readonly HostProfileError[] };

let validate: SchemaValidator | undefined;
const check: SchemaCheck = (value) => {
  validate ??= schemaEngine({ allErrors: true, verbose: true, strict: true }).compile(LOCK_SCHEMA);
  return validate(value) ? { ok: true } : { ok: false, errors: validate.errors ?? [] };
};

/** The lock at `file`: undefined when there is none (a profile not pinned), else checked. */
export function readLockFile(file: string): LockRead {
  let text: string;
  try {
    text = readTextFileSync(file, MAX_LOCK_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, lock: undefined };
    const message = `cannot read the lock file: ${readErrorText(error)}; run rlm-plan lock --update to write it again`;
    return { ok: false, errors: [{ file, line: 1, column: 1, offset: 0, length: 0, jsonPath: "", message }] };
  }
  const checked = parseSchemaFile(text, file, check, undefined, "the lock file");
  return checked.ok ? { ok: true, lock: checked.value as unknown as ToolLock } : checked;
}

/** The lock's text: the same pins are always the same bytes. */
export function lockText(lock: ToolLock): string {
  return `${JSON.stringify(keysSorted(lock), null, 2)}\n`;
}

/** Writes the lock whole or not at all (a reader never sees half a file). */
export function writeLockFile(file: string, lock: ToolLock): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, lockText(lock), { flag: "wx" });
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}
