// Ten hostile provider behaviours around one sentinel key: error bodies that echo the key in
// folded forms (case changed, punctuation changed or percent-encoded), replies whose text, model
// or finish reason repeat it, and a plan that carries it. Shared by the CLI and server tests.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type { Answer } from "./chatServer";

export interface Sentinel {
  readonly key: string;
  /** The key's random part: in no output, in any form. */
  readonly random: string;
}

export function newSentinel(): Sentinel {
  const random = randomBytes(8).toString("hex");
  return { key: `sk-Sentinel-${random}-Ab`, random };
}

export interface Hostile {
  readonly name: string;
  readonly answer: Answer;
  /** A value the plan's final step carries (the plan repeats the key), when not the reply. */
  readonly planCarries?: string;
}

/** A plan proposal (for `propose`) that carries `text` in its final value. */
export function planWith(text: string): string {
  return JSON.stringify({ steps: [{ op: "final", value: text }] });
}

export function hostileBehaviours(sentinel: Sentinel): Hostile[] {
  const { key } = sentinel;
  const swapped = [...key].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
  return [
    {
      name: "401 whose error code is the key lowercased, - folded to _",
      answer: { kind: "status", status: 401, body: { error: { code: key.toLowerCase().replace(/-/g, "_") } } },
    },
    {
      name: "403 whose message is the key uppercased",
      answer: { kind: "status", status: 403, body: { error: { message: `bad key ${key.toUpperCase()}` } } },
    },
    {
      name: "500 whose raw body has the key percent-encoded",
      answer: { kind: "status", status: 500, raw: `denied: ${key.replace(/-/g, "%2D")}` },
    },
    {
      name: "429 whose type has the key's dashes as dots, and a header echoing it",
      answer: {
        kind: "status",
        status: 429,
        headers: { "x-echo": key },
        body: { error: { type: key.replace(/-/g, "."), message: swapped } },
      },
    },
    { name: "a reply whose text repeats the key", answer: { kind: "ok", text: `your key is ${key}, ok?` } },
    { name: "a reply whose model is the key", answer: { kind: "ok", text: planWith("hi"), model: key } },
    {
      name: "a reply whose finish_reason is the key case-swapped",
      answer: { kind: "ok", text: planWith("hi"), finishReason: swapped },
    },
    {
      name: "a reply that proposes a plan carrying the key split by terminal escapes",
      answer: { kind: "ok", text: planWith(key.replace(/-/g, "\u001b\u0007")) },
    },
    {
      name: "a reply whose text has the key's punctuation doubled",
      answer: { kind: "ok", text: `key: ${key.replace(/-/g, "--")}` },
    },
    {
      name: "a plan that carries the key",
      answer: { kind: "ok", text: planWith(key) },
      planCarries: key,
    },
  ];
}

/** Letters and digits, lowercased: a folded form of the key is still the key here. */
function fold(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
}

/** Fails when `text` holds the key in any case- or punctuation-folded form, or its random part. */
export function assertNoKey(text: string, sentinel: Sentinel, where: string): void {
  assert.ok(!text.includes(sentinel.random), `${where} contains the key's random part:\n${text.slice(0, 2000)}`);
  assert.ok(!fold(text).includes(fold(sentinel.key)), `${where} contains a folded form of the key`);
  // eslint-disable-next-line no-control-regex
  const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  // eslint-disable-next-line no-control-regex
  const withoutColors = text.replace(/\u001b\[\d+m/g, "");
  assert.ok(!controls.test(withoutColors), `${where} has control characters`);
}
