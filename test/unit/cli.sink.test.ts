// The output sink's guards on what commands write (cli/src/sink.ts), in process: a line starting
// with `::` (after whitespace, across writes, a colon split from its twin) is written with its
// first colon escaped per format; JSON keeps its value; only workflowCommand starts a line with
// `::`, and on one line; keys are masked across writes; our colour codes pass where allowed.

import assert from "node:assert/strict";
import { test } from "node:test";
import { openSink } from "rlm-plan/sink";

const KEY = "sklive9f8e7d6c5b4a39281706f5e4d3c2b1a0";

function collect(styles?: { stdout: boolean; stderr: boolean }) {
  let out = "";
  let err = "";
  const sink = openSink(
    { stdout: { write: (text: string) => (out += text) }, stderr: { write: (text: string) => (err += text) } },
    { env: { OPENAI_API_KEY: KEY }, ...(styles ? { styles } : {}) },
  );
  return { sink, out: () => out, err: () => err };
}

test("a line that would start with :: has its first colon escaped, leading whitespace or not", () => {
  const { sink, out } = collect();
  sink.stdout.write("::error::a\n  ::warning::b\nc ::not-a-start\n\t::notice::d\n");
  sink.end();
  assert.equal(out(), "\\u003a:error::a\n  \\u003a:warning::b\nc ::not-a-start\n\t\\u003a:notice::d\n");
});

test("across writes: a line started by one write and a colon split from its twin", () => {
  const { sink, out } = collect();
  sink.stdout.write("first\n");
  sink.stdout.write("::error::a\n   ");
  sink.stdout.write("::b\n:");
  sink.stdout.write(":c\nmid");
  sink.stdout.write("::d\n");
  sink.end();
  assert.equal(out(), "first\n\\u003a:error::a\n   \\u003a:b\n\\u003a:c\nmid::d\n");
  assert.ok(
    !out()
      .split("\n")
      .some((line) => /^\s*::/.test(line)),
  );
});

test("xml writes &#58;; json keeps the value, C1 and bidi controls written as escapes", () => {
  const { sink, out } = collect();
  sink.stdout.xml('<a b="x">\n::error::y\n</a>\n');
  sink.stdout.json(`${JSON.stringify({ name: "x\n::e \u202eevil\u009b" })}\n`);
  sink.end();
  const [xml, json] = [out().slice(0, out().indexOf("{")), out().slice(out().indexOf("{"))];
  assert.equal(xml, '<a b="x">\n&#58;:error::y\n</a>\n');
  assert.equal(json, '{"name":"x\\n::e \\u202eevil\\u009b"}\n');
  assert.deepEqual(JSON.parse(json), { name: "x\n::e \u202eevil\u009b" });
});

test("workflowCommand: our annotation starts its own line, one line, masked", () => {
  const { sink, out } = collect();
  sink.stdout.write("summary");
  sink.stdout.workflowCommand(`::error file=a.json::${KEY} broke\nhere`);
  sink.stdout.write("::after\n");
  sink.end();
  assert.equal(out(), "summary\n::error file=a.json::*** broke%0Ahere\n\\u003a:after\n");
});

test("keys are masked across writes, on both streams; styles pass only where allowed", () => {
  const { sink, out, err } = collect({ stdout: false, stderr: true });
  sink.stdout.write(`key ${KEY.slice(0, 20)}`);
  sink.stdout.write(`${KEY.slice(20)} \u001b[31mred\u001b[39m\n`);
  sink.stderr.write(`${KEY} \u001b[31mred\u001b[39m\n`);
  sink.end();
  assert.equal(out(), "key *** [31mred[39m\n");
  assert.equal(err(), "*** \u001b[31mred\u001b[39m\n");
});

test("a key added to the mask after the sink opened (a session's profile) is masked from then on", () => {
  const { sink, out } = collect();
  sink.mask.add(["profilekey-0123456789abcdef"]);
  sink.stdout.write("the profilekey-0123456789abcdef\n");
  sink.end();
  assert.equal(out(), "the ***\n");
});
