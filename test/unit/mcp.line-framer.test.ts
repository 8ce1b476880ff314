// The MCP stdio framer at its limit: a line of exactly the limit passes, one byte more ends the
// framing, the lines before it still come out; LF and CRLF ends (a CR at the end of a chunk too)
// are not counted; a line split over many chunks is joined.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LineFramer } from "@rlm-plan/core/host/mcp/lineFramer";

const text = (framed: { lines: Buffer[]; tooLong: boolean }) => ({
  lines: framed.lines.map((line) => line.toString("utf8")),
  tooLong: framed.tooLong,
});

describe("the MCP line framer", () => {
  test("a line of exactly the limit passes; LF and CRLF are not counted", () => {
    const framer = new LineFramer(5);
    assert.deepEqual(text(framer.push(Buffer.from("abcde\nfghij\r\n\n"))), {
      lines: ["abcde", "fghij", ""],
      tooLong: false,
    });
  });

  test("one byte over the limit: the lines before it come out, then nothing more", () => {
    const framer = new LineFramer(5);
    assert.deepEqual(text(framer.push(Buffer.from("ok\nabcdef\nlater\n"))), { lines: ["ok"], tooLong: true });
    assert.deepEqual(text(framer.push(Buffer.from("more\n"))), { lines: [], tooLong: true });
  });

  test("a line split over chunks is joined, and passes the limit as soon as it gets there", () => {
    const framer = new LineFramer(5);
    assert.deepEqual(text(framer.push(Buffer.from("ab"))), { lines: [], tooLong: false });
    assert.deepEqual(text(framer.push(Buffer.from("cd"))), { lines: [], tooLong: false });
    assert.deepEqual(text(framer.push(Buffer.from("e\nxyz"))), { lines: ["abcde"], tooLong: false });
    // An open line may hold one byte more (a CR that turns out to be its end), not two.
    assert.deepEqual(text(framer.push(Buffer.from("uvw"))), { lines: [], tooLong: false });
    assert.deepEqual(text(framer.push(Buffer.from("x"))), { lines: [], tooLong: true });
  });

  test("a CR ending one chunk and the LF starting the next end the line", () => {
    const framer = new LineFramer(5);
    assert.deepEqual(text(framer.push(Buffer.from("abcde\r"))), { lines: [], tooLong: false });
    assert.deepEqual(text(framer.push(Buffer.from("\nnext\n"))), { lines: ["abcde", "next"], tooLong: false });
  });

  test("a line of the limit and a byte that is not its line end is too long", () => {
    const framer = new LineFramer(5);
    assert.deepEqual(text(framer.push(Buffer.from("abcde!"))), { lines: [], tooLong: false });
    assert.deepEqual(text(framer.push(Buffer.from("\n"))), { lines: [], tooLong: true });
  });
});
