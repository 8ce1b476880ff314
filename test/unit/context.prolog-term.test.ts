// How items print as SWI-Prolog terms and how text is cut to a byte budget: the two details that
// decide search matches, case transforms and every byte count of the context store. Expected
// texts are what SWI-Prolog 9.0.4 prints (term_string/3 with quoted(true)).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { JsonValue } from "@rlm-plan/core/json";
import { truncateToBytes } from "@rlm-plan/core/context/sources/byteBudget";
import { prologLower, prologUpper } from "@rlm-plan/core/context/prolog/prologChars";
import {
  itemText,
  payloadBytes,
  printTerm,
  prologAtom,
  prologNumber,
  prologString,
  termBytes,
} from "@rlm-plan/core/context/prolog/prologTerm";
import { memoryTextSource } from "@rlm-plan/core/context/sources/memoryTextSource";
import { codePointCount } from "@rlm-plan/core/context/sources/textSource";

function check(cases: readonly (readonly [JsonValue, string])[]): void {
  for (const [value, printed] of cases) assert.equal(printTerm(value), printed, JSON.stringify(value));
}

describe("printed terms", () => {
  test("the reference's sample items", () => {
    check([
      ["red", '"red"'],
      [42, "42"],
      [{ k: "needle in dict" }, 'json{k:"needle in dict"}'],
      [["x", 1], '["x",1]'],
      [true, "true"],
      [false, "false"],
      [null, "null"],
      [-3.5, "-3.5"],
    ]);
    const items: JsonValue[] = ["red", "green needle", 42, { k: "needle in dict" }, ["x", 1], true, null, -3.5];
    assert.equal(
      items.reduce<number>((sum, item) => sum + termBytes(item), 0),
      64,
    );
  });

  test("strings escape quotes, backslashes and characters that are not printable", () => {
    assert.equal(prologString('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(prologString("\n\t\r\u0007\b\f\u000b"), '"\\n\\t\\r\\a\\b\\f\\v"');
    assert.equal(prologString("\u0000\u0001\u001b\u007f\u0085"), '"\\u0000\\u0001\\u001B\\u007F\\u0085"');
    assert.equal(prologString("\u00a0\u00ad\u200b\u2028\ue000"), '"\\u00A0\\u00AD\\u200B\\u2028\\uE000"');
    assert.equal(prologString("\u{10ffff}\u{e0001}"), '"\\U0010FFFF\\U000E0001"');
    assert.equal(prologString("it's é 中 😀"), '"it\'s é 中 😀"');
  });

  test("characters assigned after Unicode 14 print as unassigned ones, as in the reference", () => {
    assert.equal(prologString("\u{1fae8}"), '"\\U0001FAE8"');
    assert.equal(prologString("\u{1faf6}"), '"🫶"');
  });

  test("atoms print bare when they read back unchanged, else quoted", () => {
    const bare = ["k", "aB", "é", "a_1", "+", "->", "\\", "..", "!", ";", "{}", "zz", "µ", "中文"];
    for (const name of bare) assert.equal(prologAtom(name), name);
    const quoted: [string, string][] = [
      ["", "''"],
      ["Count Items", "'Count Items'"],
      ["Ab", "'Ab'"],
      ["_x", "'_x'"],
      ["1", "'1'"],
      ["-3", "'-3'"],
      ["a b", "'a b'"],
      ["[]", "'[]'"],
      [",", "','"],
      ["|", "'|'"],
      [".", "'.'"],
      ["/*x", "'/*x'"],
      ["a'b", "'a\\'b'"],
      ['a"b', "'a\"b'"],
      ["\n", "'\\n'"],
      ["a·b", "'a·b'"],
    ];
    for (const [name, printed] of quoted) assert.equal(prologAtom(name), printed, name);
  });

  test("dicts sort keys by code point and keep symbol atoms and negative numbers apart", () => {
    check([
      [{ b: 1, a: 2, zz: 3, c: { y: 1, x: 2 } }, "json{a:2,b:1,c:json{x:2,y:1},zz:3}"],
      [{ a: -1, b: [-1, 2], c: -1.5 }, "json{a: -1,b:[-1,2],c: -1.5}"],
      [{ "+": 1, "->": -1, "😀": 2, "\ue000": 3 }, "json{+ :1,-> : -1,'\\uE000':3,😀 :2}"],
      [{ "'": 1, "\\": 2, "a'b": 3 }, "json{'\\'':1,\\ :2,'a\\'b':3}"],
      [{}, "json{}"],
      [[{}], "[json{}]"],
      [[], "[]"],
      [[[1, [2]], "x"], '[[1,[2]],"x"]'],
      [[1, -2], "[1,-2]"],
    ]);
  });

  test("numbers: integers as integers, floats with the shortest digits in SWI-Prolog's layout", () => {
    const cases: [number, string][] = [
      [0, "0"],
      [-0, "0"],
      [2.0, "2"],
      [9007199254740991, "9007199254740991"],
      [1e21, "1000000000000000000000"],
      [0.1, "0.1"],
      [-0.5, "-0.5"],
      [0.0001, "0.0001"],
      [0.000012345, "1.2345e-5"],
      [1e-6, "1.0e-6"],
      [1.5e-7, "1.5e-7"],
      [5e-324, "5.0e-324"],
      [123456789.123, "123456789.123"],
      [123456789012345.6, "123456789012345.6"],
      [100.25, "100.25"],
      [Infinity, "1.0Inf"],
      [-Infinity, "-1.0Inf"],
      [NaN, "1.5NaN"],
    ];
    for (const [value, printed] of cases) assert.equal(prologNumber(value), printed, String(value));
  });

  test("an item's text and its sizes", () => {
    assert.equal(itemText("green needle"), "green needle");
    assert.equal(itemText(null), "null");
    assert.equal(itemText(42), "42");
    assert.equal(itemText({ k: "v" }), 'json{k:"v"}');
    assert.equal(termBytes("é"), 4);
    assert.equal(payloadBytes("é"), 2);
    assert.equal(payloadBytes({ k: "v" }), 11);
  });
});

describe("case transforms", () => {
  test("one code point to one, never the multi-character full mappings", () => {
    assert.equal(prologUpper("straße ŉ ﬀ"), "STRAßE ŉ ﬀ");
    assert.equal(prologUpper("ᾳ ᾀ σς ǆ µ ÿ"), "ᾼ ᾈ ΣΣ Ǆ Μ Ÿ");
    assert.equal(prologLower("İ ΑΣ Ǆ K"), "i ασ ǆ k");
  });

  test("case pairs added after Unicode 14 are left alone", () => {
    assert.equal(prologUpper("ƛ"), "ƛ");
    assert.equal(prologLower("\u{a7dc}"), "\u{a7dc}");
  });
});

describe("cutting text to a byte budget", () => {
  test("text within the budget is kept whole", () => {
    assert.deepStrictEqual(truncateToBytes("needle one", 10), { text: "needle one", truncated: false });
    assert.deepStrictEqual(truncateToBytes("", 0), { text: "", truncated: true });
  });

  test("a character cut in the middle leaves its bytes as Latin-1 characters, as SWI-Prolog decodes them", () => {
    assert.deepStrictEqual(truncateToBytes("é", 1), { text: "\u00c3", truncated: true });
    assert.deepStrictEqual(truncateToBytes("a😀b", 4), { text: "a\u00f0\u009f\u0098", truncated: true });
    assert.deepStrictEqual(truncateToBytes("中文", 5), { text: "中\u00e6\u0096", truncated: true });
    assert.deepStrictEqual(truncateToBytes("a😀b", 5), { text: "a😀", truncated: true });
  });
});

describe("text sources", () => {
  test("code point positions in a text with astral characters", () => {
    const source = memoryTextSource("😀a😀b\n𝔘x");
    assert.deepStrictEqual([source.charLength, source.byteLength, source.lineCount], [7, 16, 2]);
    assert.equal(source.chars(1, 3), "a😀b");
    assert.equal(source.chars(6, 10), "x");
    assert.equal(source.chars(9, 1), "");
  });

  test("positions stay right across many checkpoints", () => {
    const unit = "😀é中x";
    const source = memoryTextSource(unit.repeat(3000));
    for (const start of [0, 1023, 1024, 1025, 4095, 4096, 11_998]) {
      const expected = Array.from(unit.repeat(3000))
        .slice(start, start + 5)
        .join("");
      assert.equal(source.chars(start, 5), expected, String(start));
    }
    assert.equal(codePointCount(unit.repeat(3000)), 12_000);
  });

  test("lines follow split_string", () => {
    const lines = (text: string): string[] => {
      const out: string[] = [];
      const iterator = memoryTextSource(text).lines();
      for (let line = iterator.next(); line.done !== true; line = iterator.next()) out.push(line.value);
      return out;
    };
    assert.deepStrictEqual(lines(""), [""]);
    assert.deepStrictEqual(lines("a\n"), ["a", ""]);
    assert.deepStrictEqual(lines("\n\nb"), ["", "", "b"]);
    assert.deepStrictEqual(memoryTextSource("\n\nb").lineCount, 3);
  });
});
