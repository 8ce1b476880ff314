// The mask against every form of one key (test/support/keyForms.ts): split, spaced, cased, encoded
// or reversed, whole or its distinctive part alone; in one text and split across the writes of a
// stream at every position. Text that only shares a few letters with the key is left alone.

import assert from "node:assert/strict";
import { test } from "node:test";
import { SecretMask } from "@rlm-plan/core/mask/secretMask";
import { keyForms, SENTINEL_KEY } from "../support/keyForms";

const mask = new SecretMask([SENTINEL_KEY]);

for (const form of keyForms()) {
  test(`masked: ${form.name}`, () => {
    assert.equal(mask.mask(`before ${form.text} after`), form.masked);
  });
}

test("text sharing fewer than 12 letters in a row with the key is left alone", () => {
  const texts = [
    "SENTINEL sk abc 123 XYZ 78",
    "sk-SENTINEL-zzz999XYZ000aa",
    "abc123XYZ78 and 9qq",
    "the quick brown fox jumps over the lazy dog",
    `{"a": [1, 2, 3], "b": "%41%42 &amp; \\u0041"}`,
  ];
  for (const text of texts) assert.equal(mask.mask(text), text);
});

test("a key split across two writes of a stream, at every position, is masked", () => {
  for (let cut = 1; cut < SENTINEL_KEY.length; cut++) {
    const stream = mask.stream();
    const first = SENTINEL_KEY.slice(0, cut);
    const out = [stream.write(`## ${first}`), stream.write(`${SENTINEL_KEY.slice(cut)} post\n`)];
    // Fewer than 3 letters (`s`, `sk`) cannot be told from text and are written at once.
    const expected = cut === 1 ? "## s*** post\n" : cut <= 3 ? "## sk-*** post\n" : "## *** post\n";
    assert.equal(out.join("") + stream.end(), expected, `cut at ${cut}`);
  }
});

test("a stream: a key split by a line break across writes; encoded forms split mid-escape", () => {
  const cases: string[][] = [
    ["line sk-SENTINEL-abc\n", "123XYZ789qq done\n"],
    ["pct %73%6B%2D%53%45%4E%54%49%4E%45%4C%2D%61%6", "2%63%31%32%33%58%59%5A%37%38%39%71%71 done\n"],
    [
      "html &#115;&#107;&#45;&#83;&#69;&#78;&#84;&#73;&#78;&#69;&#76;&#45;&#97;&#98;&#99;&#4",
      "9;&#50;&#51;&#88;&#89;&#90;&#55;&#56;&#57;&#113;&#113; done\n",
    ],
  ];
  for (const writes of cases) {
    const stream = mask.stream();
    const out = writes.map((w) => stream.write(w)).join("") + stream.end();
    assert.equal(out.replace(/^\w+ /, ""), "*** done\n", writes.join(""));
  }
});

test("a stream writes text that cannot begin a key at once, and holds only a key-like tail", () => {
  const stream = mask.stream();
  assert.equal(stream.write("step 1 ok\n"), "step 1 ok\n");
  assert.equal(stream.write("value: xyz7"), "value: ");
  assert.equal(stream.write("\nnext\n"), "xyz7\nnext\n");
  assert.equal(stream.write("ab\n"), "ab\n");
  assert.equal(stream.end(), "");
});

test("an empty mask passes a stream through", () => {
  const stream = new SecretMask().stream();
  assert.equal(stream.write("sk-SENTINEL-abc1"), "sk-SENTINEL-abc1");
  assert.equal(stream.end(), "");
});
