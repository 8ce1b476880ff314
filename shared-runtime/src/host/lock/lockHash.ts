// The fingerprints a lock holds: SHA-256 of canonical JSON (object keys sorted, no spaces) for an
// MCP tool's published definition, and SHA-256 of a file's bytes for programs and scripts.

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { pointer } from "../../json";
import type { ToolPin } from "./lockFormat";

/** `value` with every object's keys sorted (a lock's text and every hash are written from it). */
export function keysSorted(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null || depth > 256) return value;
  if (Array.isArray(value)) return value.map((item) => keysSorted(item, depth + 1));
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort())
    out[key] = keysSorted((value as Record<string, unknown>)[key], depth + 1);
  return out;
}

export function sha256Of(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * node:crypto on the first hash: a run without a lock hashes nothing, and a run's start loads no
 * module it does not use (test/cli/run.start.test.ts).
 */
function createHash(algorithm: "sha256"): import("node:crypto").Hash {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("node:crypto") as typeof import("node:crypto")).createHash(algorithm);
}

const canonicalHash = (value: unknown) => sha256Of(JSON.stringify(keysSorted(value)) ?? "null");

// A program such as node is some 100 MB (0.17 s to hash): hashed once per process (every case of a
// `rlm-plan test`, every tool that runs it), for as long as its file is the same one. A file
// replaced or written to changes its inode or ctime, which no user can set back; but a clock tick
// is coarse (milliseconds), so a file changed in the last seconds is not remembered (git's "racy"
// rule): two writes in one tick would otherwise look the same.
const hashed = new Map<string, string>();
const SETTLED_NS = 2_000_000_000n;

/** SHA-256 of a regular file's bytes, read in chunks (a program can be large); throws on anything else. */
export function fileSha256(path: string): string {
  const fd = openSync(path, "r");
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (!stat.isFile()) throw new Error(`${path} is not a regular file`);
    const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    const known = hashed.get(key);
    if (known !== undefined) return known;
    const hash = createHash("sha256");
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
    const digest = hash.digest("hex");
    if (BigInt(Date.now()) * 1_000_000n - stat.ctimeNs > SETTLED_NS) {
      if (hashed.size >= 256) hashed.clear();
      hashed.set(key, digest);
    }
    return digest;
  } finally {
    closeSync(fd);
  }
}

/** What an MCP server publishes of one tool, as tools/list gives it. */
export interface PublishedTool {
  readonly name: string;
  readonly description?: unknown;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

const FINGERPRINTED = ["description", "inputSchema", "outputSchema", "annotations"] as const;
const pins = new WeakMap<object, ToolPin>();

/**
 * A tool's fingerprint: the hash of the whole, and one per part (each top-level key of a schema or
 * of the annotations, each of a schema's properties), so a drift says which keys changed. The name
 * is in the whole but in no part: a renamed tool has the same parts.
 */
export function toolPin(tool: PublishedTool): ToolPin {
  const known = pins.get(tool);
  if (known) return known;
  const whole: Record<string, unknown> = { name: tool.name };
  const parts: Record<string, string> = {};
  for (const field of FINGERPRINTED) {
    const value = tool[field];
    if (value === undefined) continue;
    whole[field] = value;
    partsOf([field], value, parts);
  }
  const pin = { sha256: canonicalHash(whole), parts: keysSorted(parts) as Record<string, string> };
  pins.set(tool, pin);
  return pin;
}

function partsOf(path: readonly string[], value: unknown, parts: Record<string, string>): void {
  const object = typeof value === "object" && value !== null && !Array.isArray(value);
  const entries = object ? Object.entries(value) : [];
  if (entries.length === 0 || path.length > 2) {
    parts[pointer(path)] = canonicalHash(value);
    return;
  }
  for (const [key, item] of entries) {
    // One level more for a schema's properties: "which argument changed" is what a reviewer asks.
    if (path.length === 1 && key === "properties" && path[0] !== "annotations") partsOf([...path, key], item, parts);
    else parts[pointer([...path, key])] = canonicalHash(item);
  }
}
