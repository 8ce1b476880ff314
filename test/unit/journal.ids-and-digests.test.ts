// The journal's SHA-256 in JavaScript (journal/idsAndDigests.ts) gives node:crypto's digest for
// every text: random texts of every length around SHA-256's padding edges (55, 56, 63, 64 bytes
// and their multiples), non-ASCII of each UTF-8 width, lone surrogates, and texts long enough to
// go to node:crypto itself; and its UUIDs are version 4 and distinct.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { randomUuid, sha256Hex, SHORT_TEXT } from "@rlm-plan/core/journal/idsAndDigests";

const nodeSha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A seeded generator, so a failure names a text that can be made again. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 0x100000000;
  };
}

// One character of each UTF-8 width (1 to 4 bytes), a lone high and a lone low surrogate.
const ALPHABET = [
  "a",
  "Z",
  "0",
  " ",
  "\n",
  "\u0000",
  "é",
  "ß",
  "€",
  "中",
  "\u{1F600}",
  "\u{10FFFF}",
  "\ud800",
  "\udfff",
];

function randomText(next: () => number, length: number, alphabet: readonly string[]): string {
  let text = "";
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
  return text;
}

test("known digests: the empty text, 'abc' and FIPS 180's two-block message", () => {
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assert.equal(
    sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
  );
});

test("every byte length from 0 to 200 (each padding edge), ASCII: node:crypto's digest", () => {
  const next = generator(1);
  for (let length = 0; length <= 200; length++) {
    const text = randomText(next, length, ["a", "b", "~", "0", "\n"]);
    assert.equal(Buffer.byteLength(text), length);
    assert.equal(sha256Hex(text), nodeSha256(text), JSON.stringify(text));
  }
});

test("texts of 1-4 byte characters and lone surrogates whose UTF-8 ends near 55, 56, 64: node:crypto's digest", () => {
  const next = generator(2);
  const edges = new Set<number>();
  for (let round = 0; round < 3000; round++) {
    const text = randomText(next, Math.floor(next() * 80), ALPHABET);
    const bytes = Buffer.byteLength(text);
    if ([54, 55, 56, 57, 63, 64, 65, 119, 120, 128].includes(bytes)) edges.add(bytes);
    assert.equal(sha256Hex(text), nodeSha256(text), JSON.stringify(text));
  }
  assert.deepEqual(
    [...edges].sort((a, b) => a - b),
    [54, 55, 56, 57, 63, 64, 65, 119, 120, 128],
  );
});

test("longer texts, up to and past the length hashed in JavaScript: node:crypto's digest", () => {
  const next = generator(3);
  for (const length of [1000, 4095, 4096, 10_000, SHORT_TEXT - 1, SHORT_TEXT, SHORT_TEXT + 1, 100_000]) {
    const text = randomText(next, length, ALPHABET);
    assert.equal(sha256Hex(text), nodeSha256(text), `length ${length}`);
  }
});

test("random UUIDs: version 4, RFC 4122's variant, all distinct", () => {
  const seen = new Set<string>();
  for (let i = 0; i < 5000; i++) {
    const uuid = randomUuid();
    assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    seen.add(uuid);
  }
  assert.equal(seen.size, 5000);
});
