// A context step's handle must be a context the host registered (an input of text or items):
// the analysis says so for literals, values steps produced and plain-value inputs, located on
// the handle, and stays quiet where the handle may be one (an input, a sub-plan's result).
// `rlm-plan check` fails such a plan, since `run` would fail at the step.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { analyzePlanText, type AnalysisPolicy } from "@rlm-plan/core";
import { CLI } from "../support/cliWorkspace";

const ALL = ["context(search)", "context(reduce)", "model(p)", "tool(t)", "rlm"];
const v = (name: string) => ({ ref: "var", name });
const input = (name: string) => ({ ref: "input", name });

function handleProblems(steps: unknown[], registries?: AnalysisPolicy["registries"]) {
  const text = JSON.stringify({ steps });
  const analysis = analyzePlanText(text, {
    capabilities: ALL,
    budget: "default",
    ...(registries ? { registries } : {}),
  });
  return analysis.problems
    .filter((p) => p.kind === "not_a_context_handle")
    .map((p) => ({
      message: p.message,
      host: p.hostDependent === true,
      text: text.slice(p.range.offset, p.range.offset + p.range.length),
    }));
}

const HINT = 'a context step reads an input the host registers as a text or a list of items ({"ref": "input", ...})';

test("a search result used as a handle: the reference, located, an error", () => {
  const found = handleProblems([
    { op: "context", handle: input("doc"), action: { type: "search", pattern: "x" }, bind: "hits" },
    { op: "context", handle: v("hits"), action: { type: "reduce", reducer: "count" }, bind: "n" },
    { op: "final", value: v("n") },
  ]);
  assert.deepEqual(found, [
    {
      message: `"hits" is a context step's result, not a context handle: ${HINT}`,
      host: false,
      text: '{"ref":"var","name":"hits"}',
    },
  ]);
});

test("model replies, tool results and literals are no handles; inputs and sub-plan results may be", () => {
  const found = handleProblems([
    { op: "model", provider: "p", prompt: "hi", bind: "reply" },
    { op: "tool", name: "t", args: {}, bind: "out" },
    { op: "rlm", plan: { steps: [{ op: "final", value: input("doc") }] }, bind: "passed" },
    { op: "context", handle: v("reply"), action: { type: "reduce", reducer: "count" }, bind: "a" },
    { op: "context", handle: v("out"), action: { type: "reduce", reducer: "count" }, bind: "b" },
    { op: "context", handle: "doc", action: { type: "reduce", reducer: "count" }, bind: "c" },
    { op: "context", handle: v("passed"), action: { type: "reduce", reducer: "count" }, bind: "d" },
    { op: "context", handle: input("doc"), action: { type: "reduce", reducer: "count" }, bind: "e" },
    { op: "final", value: [v("a"), v("b"), v("c"), v("d"), v("e")] },
  ]);
  assert.deepEqual(
    found.map((f) => f.message),
    [
      `"reply" is a model step's reply, not a context handle: ${HINT}`,
      `"out" is a tool step's result, not a context handle: ${HINT}`,
      `the handle is the literal "doc", not a context handle: ${HINT}`,
    ],
  );
});

test("with a host: an input declared as a plain value is a host problem; texts and undeclared names are not judged here", () => {
  const registries = {
    tools: new Set(["t"]),
    providers: new Set(["p"]),
    inputs: new Set(["doc", "limit"]),
    contextInputs: new Set(["doc"]),
  };
  const found = handleProblems(
    [
      { op: "context", handle: input("limit"), action: { type: "reduce", reducer: "count" }, bind: "a" },
      { op: "context", handle: input("doc"), action: { type: "reduce", reducer: "count" }, bind: "b" },
      { op: "final", value: [v("a"), v("b")] },
    ],
    registries,
  );
  assert.deepEqual(found, [
    {
      message: `the input "limit" is a plain value in the host profile, not a context handle: ${HINT}`,
      host: true,
      text: '{"ref":"input","name":"limit"}',
    },
  ]);
});

const dir = mkdtempSync(join(tmpdir(), "rlm-plan-handles-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("rlm-plan check fails the plan that run would fail at the step", () => {
  writeFileSync(
    join(dir, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["context(search)", "context(reduce)"],
      inputs: { doc: { type: "text", text: "a\nb" } },
    }),
  );
  writeFileSync(
    join(dir, "p.rlmplan.json"),
    JSON.stringify({
      steps: [
        { op: "context", handle: input("doc"), action: { type: "search", pattern: "a" }, bind: "hits" },
        { op: "context", handle: v("hits"), action: { type: "reduce", reducer: "count" }, bind: "n" },
        { op: "final", value: v("n") },
      ],
    }),
  );
  const check = spawnSync(process.execPath, [CLI, "check", "p.rlmplan.json"], { cwd: dir, encoding: "utf8" });
  assert.equal(check.status, 1, check.stdout + check.stderr);
  assert.match(check.stdout, /p\.rlmplan\.json:1:\d+: error: "hits" is a context step's result, not a context handle/);
  const run = spawnSync(process.execPath, [CLI, "run", "p.rlmplan.json"], { cwd: dir, encoding: "utf8" });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /invalid_handle/);
});
