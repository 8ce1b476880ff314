// The Content-Length framer both the debug adapter and the language server read with, fuzzed: valid
// messages among malformed frames (bad lengths, bodies that are not JSON objects, garbage between
// frames), the stream cut into random chunks, from a fixed seed. Every valid message comes out, in
// order, and nothing throws; random bytes and lying lengths never throw nor grow the buffer past
// the limit. FUZZ_ITERATIONS=N runs longer (the default tier runs 300).

import assert from "node:assert/strict";
import { test } from "node:test";
import { ContentLengthFrames } from "@rlm-plan/core/text/contentLengthFrames";

const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 300);

/** A small seeded generator (mulberry32): the same cases every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
// Malformed frames a resync recovers from: none holds "Content-Length" where a body would be.
const MALFORMED = [
  () => frame("{{{{{"),
  () => frame("null"),
  () => frame("[1,2,3]"),
  () => frame('"text"'),
  () => frame('{"a":'),
  () => `Content-Length: -5\r\n\r\n{"x":1}`,
  () => `Content-Length: abc\r\n\r\n{"x":1}`,
  () => `Content-Type: utf8\r\n\r\n{"y":2}`,
  () => "garbage between frames\r\n\r\n",
  () => "\r\n\r\n",
  () => `Content-Length: 5\r\nContent-Length: x\r\n\r\n{"z":3}`,
  () => "éàü\u0000\u00ff",
];

function cut(bytes: Buffer, next: () => number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = 1 + Math.floor(next() * (next() < 0.2 ? 3 : 200));
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

test("valid messages among malformed frames, in random chunks: all come out, in order", () => {
  const next = random(20261201);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const sent: object[] = [];
    let stream = "";
    for (let k = 0; k < 1 + Math.floor(next() * 8); k++) {
      if (next() < 0.5) stream += MALFORMED[Math.floor(next() * MALFORMED.length)]!();
      const message = { seq: sent.length + 1, text: "é".repeat(Math.floor(next() * 5)), n: next() };
      sent.push(message);
      stream += frame(JSON.stringify(message));
    }
    const frames = new ContentLengthFrames(1 << 20);
    const got = cut(Buffer.from(stream), next)
      .flatMap((chunk) => frames.push(chunk))
      .filter((f) => f.kind === "message")
      .map((f) => (f.kind === "message" ? f.message : undefined));
    assert.deepEqual(got, sent, `iteration ${iteration}: ${JSON.stringify(stream)}`);
  }
});

test("random bytes and lying lengths: nothing throws, a length over the limit is skipped whole", () => {
  const next = random(7);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const parts: Buffer[] = [];
    for (let k = 0; k < 6; k++) {
      const roll = next();
      if (roll < 0.3)
        parts.push(Buffer.from(Array.from({ length: Math.floor(next() * 64) }, () => Math.floor(next() * 256))));
      else if (roll < 0.5) parts.push(Buffer.from(`Content-Length: ${Math.floor(next() * 5000)}\r\n\r\n`));
      else parts.push(Buffer.from(frame(JSON.stringify({ k }))));
    }
    const frames = new ContentLengthFrames(1024);
    for (const chunk of cut(Buffer.concat(parts), next)) frames.push(chunk);
  }
  const frames = new ContentLengthFrames(16);
  const out = [
    ...frames.push(Buffer.from(`Content-Length: 23\r\n\r\n{"a":"0123456789`)),
    ...frames.push(Buffer.from(`01234"}${frame('{"b":1}')}`)),
  ];
  assert.deepEqual(out, [
    { kind: "malformed", reason: "a message of 23 bytes, over the limit of 16, was skipped" },
    { kind: "message", message: { b: 1 } },
  ]);
});
