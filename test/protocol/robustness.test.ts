// Robustness over the protocol: thousands of random edits (truncations, deletions, junk, very
// deep nesting, huge arrays) to plans and to the host profile. After every batch the server
// must answer a hover and a completion, stay alive, and never log a caught bug or print an
// uncaught exception. The seed is printed; ROBUSTNESS_SEED=<n> replays a run.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MessageType } from "vscode-languageserver-protocol/node";
import { hostProfile, positionAt } from "@rlm-plan/lsp-harness";
import { useServer } from "@rlm-plan/lsp-harness/suite";
import { HOST, PLAN } from "../support/sampleWorkspace";

const SEED = Number(process.env.ROBUSTNESS_SEED ?? Date.now() % 1_000_000);
const BATCHES = 40;
const EDITS_PER_BATCH = 75;

/** mulberry32: a small, seedable generator, so a failing run can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NESTED = `{"steps": [
  {"op": "parallel", "plans": [
    {"steps": [{"op": "rlm", "plan": {"steps": [{"op": "tool", "name": "count_items", "args": [1], "bind": "a"},
      {"op": "final", "value": {"ref": "field", "value": {"ref": "var", "name": "a"}, "key": "k"}}]}, "bind": "r"},
      {"op": "final", "value": {"ref": "var", "name": "r"}}]},
    {"steps": [{"op": "context", "handle": {"ref": "input", "name": "doc"},
      "action": {"type": "peek", "selector": {"type": "head", "count": 2}}, "bind": "p"},
      {"op": "final", "value": {"ref": "var", "name": "p"}}]}
  ], "bind": "both"},
  // a comment
  {"op": "final", "value": {"ref": "var", "name": "both"}}
]}`;

const JUNK = [
  "{",
  "}",
  "[",
  "]",
  '"',
  ",",
  ":",
  "\\",
  "/*",
  "*/",
  "//",
  "\n",
  "null",
  "-1e999",
  "\u{1F600}",
  "\ud800",
  "\u0000",
  '"op"',
  '"steps"',
  '{"ref": "var", "name": ',
  '{"op": "retry", "attempts": 1e308, "plan": ',
  '"__proto__": {"op": "final"}',
  '{"op": "parallel", "plans": [], "bind": "x"}',
  "[".repeat(200),
];

const MONSTERS = 7;

/** Texts that stress depth and size. */
function monster(pick: () => number, kind = Math.floor(pick() * MONSTERS)): string {
  const depth = 5_000;
  switch (kind) {
    case 0:
      return `{"steps": [${"[".repeat(depth)}${"]".repeat(depth)}]}`;
    case 1:
      return `{"steps": [{"op": "final", "value": ${'{"a": '.repeat(depth)}1${"}".repeat(depth)}}]}`;
    case 2:
      return "{".repeat(depth);
    case 3: {
      let plan = '{"op": "final", "value": 1}';
      for (let i = 0; i < 400; i++) plan = `{"op": "rlm", "plan": {"steps": [${plan}]}, "bind": "v${i}"}`;
      return `{"steps": [${plan}, {"op": "final", "value": 2}]}`;
    }
    case 4: {
      // Just under the runtime's nesting limit: a valid plan every feature walks to the bottom.
      let plan = '{"op": "final", "value": 1}';
      for (let i = 0; i < 320; i++) plan = `{"op": "rlm", "plan": {"steps": [${plan}]}, "bind": "v${i}"}`;
      return `{"steps": [${plan}, {"op": "final", "value": 2}]}`;
    }
    case 5: {
      const steps = Array.from({ length: 20_000 }, (_, i) => `{"op": "checkpoint", "label": "c${i}"}`);
      return `{"steps": [${steps.join(",\n")}, {"op": "final", "value": 1}]}`;
    }
    default:
      return `{"steps": [{"op": "tool", "name": "count_items", "args": [${"1,".repeat(100_000)}1], "bind": "n"}, {"op": "final", "value": {"ref": "var", "name": "n"}}]}`;
  }
}

function mutate(text: string, pick: () => number, base: string): string {
  const at = (limit: number) => Math.floor(pick() * (limit + 1));
  const roll = pick();
  // Huge texts are truncated now and then, but mostly give way to the plan again: each one is
  // sent whole with every edit, and the point is the variety, not the bytes.
  if (text.length > 50_000) return roll < 0.2 ? text.slice(0, at(text.length)) : base;
  if (roll < 0.05) return base;
  if (roll < 0.07) return monster(pick);
  if (roll < 0.25) return text.slice(0, at(text.length));
  if (roll < 0.5) {
    const start = at(text.length);
    return text.slice(0, start) + text.slice(start + 1 + at(40));
  }
  const start = at(text.length);
  const junk = JUNK[Math.floor(pick() * JUNK.length)] as string;
  return text.slice(0, start) + junk + text.slice(start);
}

describe("robustness", () => {
  // A short delay so that validations run between edits too, not only after each batch.
  const server = useServer({ files: { "rlmplan.host.json": hostProfile(HOST) }, settings: { validationDelay: 2 } });

  it(`survives ${BATCHES * EDITS_PER_BATCH * 2} random edits and answers every request (seed ${SEED})`, async () => {
    const { client, workspace } = server;
    const pick = random(SEED);
    const documents = [
      { base: PLAN, text: PLAN, uri: await client.open(workspace.path("a.rlmplan.json"), PLAN) },
      { base: NESTED, text: NESTED, uri: await client.open(workspace.path("sub/b.rlmplan"), NESTED, "json") },
    ];
    const profileText = hostProfile(HOST);
    const profile = {
      base: profileText,
      text: profileText,
      uri: await client.open(workspace.path("rlmplan.host.json"), profileText, "json"),
    };

    for (let batch = 0; batch < BATCHES; batch++) {
      for (let edit = 0; edit < EDITS_PER_BATCH; edit++) {
        for (const document of documents) {
          document.text = mutate(document.text, pick, document.base);
          await client.change(document.uri, document.text);
        }
      }
      // Now and then the host profile changes too, which re-checks every open plan.
      if (batch % 4 === 0) {
        profile.text = batch % 8 === 0 ? mutate(profile.text, pick, profile.base) : profile.base;
        await client.change(profile.uri, profile.text);
      }
      for (const document of [...documents, profile]) {
        const position = positionAt(document.text, Math.floor(pick() * (document.text.length + 1)));
        const [hover, items] = await Promise.all([
          client.hover(document.uri, position),
          client.completion(document.uri, position),
        ]);
        assert.ok(hover === null || typeof hover.contents === "object", `batch ${batch}: a hover or null`);
        assert.ok(Array.isArray(items), `batch ${batch}: completion items`);
      }
      assert.ok(client.alive, `the server is alive after batch ${batch}`);
    }

    // The last versions are checked too: diagnostics arrive for them.
    for (const document of documents) await client.waitForDiagnostics(document.uri);
    assert.ok(client.alive);
    assert.doesNotMatch(client.stderr, /uncaught|unhandled|RangeError|TypeError/i);
    assert.deepEqual(
      client.logMessages.filter((message) => message.type === MessageType.Error).map((message) => message.message),
      [],
      "no handler failed (the guard would have logged it)",
    );
  });

  it("answers on 5,000-deep nesting and huge arrays, at their start, middle and end", async () => {
    const { client, workspace } = server;
    const pick = random(SEED + 1);
    const uri = await client.open(workspace.path("monster.rlmplan.json"), "{}");
    for (let kind = 0; kind < MONSTERS; kind++) {
      const text = monster(pick, kind);
      await client.change(uri, text);
      for (const offset of [0, 1, Math.floor(text.length / 2), text.length - 1, text.length]) {
        const position = positionAt(text, offset);
        const [hover, items] = await Promise.all([client.hover(uri, position), client.completion(uri, position)]);
        assert.ok(hover === null || typeof hover.contents === "object");
        assert.ok(Array.isArray(items));
      }
      const diagnostics = await client.waitForDiagnostics(uri);
      assert.ok(Array.isArray(diagnostics), `kind ${kind}`);
      assert.ok(client.alive, `the server is alive after monster ${kind}`);
    }
    assert.doesNotMatch(client.stderr, /uncaught|unhandled|RangeError|TypeError/i);
    assert.deepEqual(
      client.logMessages.filter((message) => message.type === MessageType.Error).map((message) => message.message),
      [],
    );
  });
});
