// Where a warm `rlm-plan` start spends its CPU, phase by phase: Node's bootstrap, reading and
// decoding the bundle, reading its code cache entry and comparing the entry's copy of the source,
// V8 deserializing the cache, the bundle's top level, then the command and exit. Each phase is
// what shared-runtime/src/codeCache.ts does, done again by a small script (written to a temporary
// folder) that times each step with process.cpuUsage(); medians of interleaved runs, with a bare
// `node -e 0` in the same rounds. bench/README.md, "Issue 22 target 6, fourth pass".
//
//   npm run build && node bench/out/cli-phases.bench.js [ROUNDS]
//
// RLM_PLAN_BENCH_CLI_BEFORE=<another build's cli/dist/start.js> adds that build's bundle (it has
// no static.js: every command from its rlm-plan.js), each build with a code cache of its own.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(__dirname, "..", "..");
const PLAN = join(ROOT, "examples", "workspace", "plans", "needle-count.rlmplan.json");
const EARLIER = process.env["RLM_PLAN_BENCH_CLI_BEFORE"];

/** Does what requireWithCodeCache does, timing each step; writes the phases to fd 3 at exit. */
const PHASES = `"use strict";
const boot = process.cpuUsage();
const cpu = () => { const u = process.cpuUsage(boot); return (u.user + u.system) / 1000; };
const phases = {}; let last = 0;
const mark = (name) => { const now = cpu(); phases[name] = now - last; last = now; };
const { readFileSync, readdirSync, statSync, writeSync } = require("node:fs");
const { Script } = require("node:vm");
const { createRequire } = require("node:module");
const { basename, dirname, join } = require("node:path");
const file = process.env.BENCH_BUNDLE, dir = process.env.RLM_PLAN_CODE_CACHE, variant = process.env.BENCH_VARIANT;
const bytes = readFileSync(file); mark("read the bundle");
const source = bytes.toString("utf8").replace(/^#!.*/, ""); mark("decode it");
statSync(file);
const name = readdirSync(dir).find((f) => f.startsWith(basename(file) + "-") && f.endsWith("." + variant + ".v8cache"));
const entry = readFileSync(join(dir, name)); mark("read its cache entry");
const same = entry.subarray(12, 12 + bytes.length).equals(bytes); mark("compare the entry's copy");
const script = new Script("(function (exports, require, module, __filename, __dirname) {" + source + "\\n})", { filename: file, cachedData: entry.subarray(12 + bytes.length) });
if (!same || script.cachedDataRejected) throw new Error("the cache entry was not used");
mark("V8 deserializes the cache");
const loaded = { exports: {} };
script.runInThisContext().call(loaded.exports, loaded.exports, createRequire(file), loaded, file, dirname(file));
mark("the bundle's top level");
process.on("exit", () => {
  mark("the command and exit");
  phases["Node's bootstrap"] = (boot.user + boot.system) / 1000;
  phases.total = cpu() + phases["Node's bootstrap"];
  writeSync(3, JSON.stringify(phases));
});
loaded.exports.runCli(process.argv.slice(2));
`;

const CPU_HOOK = `process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  require("node:fs").writeSync(3, String((user + system) / 1000));
});`;

interface Case {
  readonly label: string;
  readonly start: string;
  readonly bundle: string;
  readonly args: readonly string[];
  readonly variant: string;
  readonly cache: string;
}

function output(args: readonly string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe", "pipe"] });
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited with ${result.status}: ${result.stderr}`);
  return result.output[3]?.toString() ?? "";
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function main(): void {
  const rounds = Number(process.argv[2] ?? 15);
  const folder = mkdtempSync(join(tmpdir(), "rlm-plan-cli-phases-"));
  const script = join(folder, "phases.cjs");
  const hook = join(folder, "cpu-hook.js");
  writeFileSync(script, PHASES);
  writeFileSync(hook, CPU_HOOK);
  const builds = [
    ...(EARLIER ? [{ name: "before", start: EARLIER, whole: true }] : []),
    { name: "now", start: join(ROOT, "cli", "dist", "start.js"), whole: false },
  ];
  const commands = [
    { label: "check", args: ["check", PLAN], variant: "check", static: true },
    { label: "run", args: ["run", PLAN], variant: "run", static: false },
    { label: "run --no-journal", args: ["run", PLAN, "--no-journal"], variant: "run", static: false },
    { label: "--version", args: ["--version"], variant: "other", static: true },
  ];
  const cases: Case[] = commands.flatMap((command) =>
    builds.map((build) => ({
      label: `${command.label} (${build.name})`,
      start: build.start,
      bundle: join(dirname(build.start), command.static && !build.whole ? "static.js" : "rlm-plan.js"),
      args: command.args,
      variant: command.variant,
      cache: join(folder, build.name),
    })),
  );
  const env = (cache: string) => ({ ...process.env, NO_COLOR: "1", RLM_PLAN_CODE_CACHE: cache });
  try {
    // Each start writes its entry; the second finds it.
    for (const each of cases) for (let i = 0; i < 2; i++) output([each.start, ...each.args], env(each.cache));
    const bare: number[] = [];
    const phases: Record<string, number>[][] = cases.map(() => []);
    for (let round = 0; round < rounds; round++) {
      bare.push(Number(output(["-r", hook, "-e", "0"], env(folder))));
      cases.forEach((each, i) => {
        const text = output([script, ...each.args], {
          ...env(each.cache),
          BENCH_BUNDLE: each.bundle,
          BENCH_VARIANT: each.variant,
        });
        phases[i]?.push(JSON.parse(text) as Record<string, number>);
      });
    }
    const bareMs = median(bare);
    console.log(`rlm-plan start, CPU by phase (ms, median of ${rounds}); node -e 0: ${bareMs.toFixed(1)} ms`);
    const names = Object.keys(phases[0]?.[0] ?? {});
    for (const [i, each] of cases.entries()) {
      const of = (name: string) => median((phases[i] ?? []).map((row) => row[name] ?? NaN));
      const parts = names.filter((name) => name !== "total").map((name) => `${name} ${of(name).toFixed(1)}`);
      console.log(`${each.label.padEnd(30)} ${(of("total") / bareMs).toFixed(2)}x · ${parts.join(" · ")}`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main();
