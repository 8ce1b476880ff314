// A window's first tokenization of a plan, our TextMate grammar against VS Code's JSON grammar (the
// one the e2e floor's file gets): each in a fresh Node process, vscode-textmate with onig's
// WebAssembly as VS Code runs them, the CPU time of tokenizing broken.rlmplan.json's lines the
// first time (compiling the grammar's regular expressions included). Samples interleaved.
//
//   npx tsc -b bench && node bench/out/grammar-first.bench.js   (E2E_DIR: where code-server is)

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..", "..");
const E2E_DIR = process.env.E2E_DIR ?? join(ROOT, ".e2e");
const JSON_GRAMMAR = join(
  E2E_DIR,
  "code-server/node_modules/code-server/lib/vscode/extensions/json/syntaxes/JSON.tmLanguage.json",
);
const OURS = join(ROOT, "syntaxes/rlm-plan.tmLanguage.json");
const PLAN = join(ROOT, "examples/plans/broken.rlmplan.json");
const SAMPLES = Number(process.env.GRAMMAR_SAMPLES ?? 9);

/** argv: root, grammar file, scope, plan, strip comments (JSON) → prints the CPU ms of the first tokenization. */
const CHILD = `
const fs = require("node:fs");
const [root, file, scope, plan, strip] = process.argv.slice(1);
const oniguruma = require(root + "/node_modules/vscode-oniguruma");
const textmate = require(root + "/node_modules/vscode-textmate");
const wasm = fs.readFileSync(require.resolve(root + "/node_modules/vscode-oniguruma/release/onig.wasm"));
(async () => {
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async () => textmate.parseRawGrammar(fs.readFileSync(file, "utf8"), file),
  });
  const grammar = await registry.loadGrammar(scope);
  let text = fs.readFileSync(plan, "utf8");
  if (strip === "strip") text = text.replace(/^\\/\\/.*$/gm, "");
  const before = process.cpuUsage();
  let state = textmate.INITIAL;
  for (const line of text.split("\\n")) state = grammar.tokenizeLine2(line, state).ruleStack;
  const used = process.cpuUsage(before);
  process.stdout.write(String((used.user + used.system) / 1000));
})();
`;

function first(file: string, scope: string, strip: boolean): number {
  const args = ["-e", CHILD, ROOT, file, scope, PLAN, strip ? "strip" : "keep"];
  return Number(execFileSync(process.execPath, args, { encoding: "utf8" }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function main(): void {
  if (!existsSync(JSON_GRAMMAR))
    throw new Error(`${JSON_GRAMMAR} is missing: bash scripts/install-e2e.sh (or E2E_DIR)`);
  const ours: number[] = [];
  const json: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    ours.push(first(OURS, "source.rlm-plan", false));
    json.push(first(JSON_GRAMMAR, "source.json", true));
  }
  console.log(`first tokenization of broken.rlmplan.json, CPU, median of ${SAMPLES} fresh processes (interleaved):`);
  console.log(`  VS Code's JSON grammar: ${median(json).toFixed(0)} ms`);
  console.log(`  rlm-plan's grammar:     ${median(ours).toFixed(0)} ms (${(median(ours) / median(json)).toFixed(2)}x)`);
}

main();
