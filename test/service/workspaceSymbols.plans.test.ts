// Workspace symbols, in process over a real folder: the bindings and tool calls of every plan below the
// workspace folder, open or not (an open plan's unsaved text wins), filtered by the query; a plan over
// the `maxAnalyzedSize` limit, on disk or open, is left out and the log says why once.

import assert from "node:assert/strict";
import { statSync, writeFileSync } from "node:fs";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { WorkspaceSymbols } from "@rlm-plan/language-server/service/workspaceSymbols";
import type { AnalyzedPlan } from "@rlm-plan/language-server/service/analyzedPlan";
import type { SymbolInformation } from "vscode-languageserver-protocol";
import { TempWorkspace } from "../protocol/support/lspClient";
import { analyzed } from "./support/analyzed";

const plan = (tool: string, bind: string) =>
  JSON.stringify({
    steps: [
      { op: "tool", name: tool, args: [], bind },
      { op: "rlm", plan: { steps: [{ op: "final", value: 1 }] }, bind: `${bind}_sub` },
      { op: "final", value: { ref: "var", name: bind } },
    ],
  });

describe("workspace symbols", () => {
  const workspace = new TempWorkspace({
    "a/one.rlmplan.json": plan("count_items", "total"),
    "b/two.rlmplan": plan("word_count", "words"),
    "node_modules/dep/skip.rlmplan.json": plan("hidden", "nope"),
    "rlmplan.host.json": "{}",
  });
  const warnings: string[] = [];
  const index = new WorkspaceSymbols((message) => warnings.push(message));
  let open: AnalyzedPlan[] = [];
  let refused: string[] = [];
  let maxBytes = 8_000_000;
  after(() => workspace.dispose());

  const search = (query: string) => index.search(workspace.root, query, { analyzed: open, refused }, maxBytes);
  const brief = (symbols: SymbolInformation[]) =>
    symbols.map((s) => [s.name, s.containerName, s.location.uri.slice(s.location.uri.lastIndexOf("/") + 1)]);

  it("every binding and tool call of the plans on disk; node_modules is not searched", () => {
    assert.deepEqual(brief(search("")), [
      ["total", "tool count_items · a/one.rlmplan.json", "one.rlmplan.json"],
      ["count_items", "tool · a/one.rlmplan.json", "one.rlmplan.json"],
      ["total_sub", "rlm · a/one.rlmplan.json", "one.rlmplan.json"],
      ["words", "tool word_count · b/two.rlmplan", "two.rlmplan"],
      ["word_count", "tool · b/two.rlmplan", "two.rlmplan"],
      ["words_sub", "rlm · b/two.rlmplan", "two.rlmplan"],
    ]);
  });

  it("the query filters by letters in order, any case", () => {
    assert.deepEqual(
      search("WdS").map((s) => s.name),
      ["words", "words_sub"],
    );
  });

  it("an open plan's current text is searched instead of the file; a change on disk is read again", () => {
    const opened = analyzed(plan("sum", "renamed"), { name: workspace.path("a/one.rlmplan.json") });
    const uri = opened.uri;
    open = [opened.plan];
    assert.deepEqual(
      search("renamed").map((s) => [s.name, s.location.uri === uri]),
      [
        ["renamed", true],
        ["renamed_sub", true],
      ],
    );
    open = [];
    writeFileSync(workspace.path("b/two.rlmplan"), plan("word_count", "fresh") + "\n");
    assert.deepEqual(
      search("fresh").map((s) => s.name),
      ["fresh", "fresh_sub"],
    );
  });

  it("a plan over maxAnalyzedSize is left out, logged once per version; the rest answered", () => {
    writeFileSync(workspace.path("b/two.rlmplan"), plan("word_count", "fresh") + " ".repeat(100));
    const size = statSync(workspace.path("b/two.rlmplan")).size;
    maxBytes = size - 1;
    assert.ok(statSync(workspace.path("a/one.rlmplan.json")).size < maxBytes);
    assert.deepEqual(
      search("").map((s) => s.name),
      ["total", "count_items", "total_sub"],
    );
    assert.deepEqual(warnings, [
      `b/two.rlmplan is ${size} bytes, over the ${size - 1} bytes the editor analyses (setting rlmPlan.maxAnalyzedSize): its steps are left out of workspace symbols.`,
    ]);
    search("");
    assert.equal(warnings.length, 1);
    // An open plan over the limit is not read from its file instead.
    refused = [pathToFileURL(workspace.path("a/one.rlmplan.json")).href];
    assert.deepEqual(search(""), []);
    refused = [];
    maxBytes = 8_000_000;
  });
});
