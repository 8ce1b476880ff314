// The `rlm-plan` command's start, as a pre-commit hook or a `--watch` loop pays it: `check` and
// `run` of a small plan, each a whole process, for the compiled modules the bin ran before
// (cli/out/main.js: some 200 files loaded one by one, the host profile's schema compiled by ajv)
// and for what the bin runs now (cli/dist/start.js: one bundle with V8's code cache warm, the
// validators compiled ahead of time), against a bare `node -e 0`. Samples interleaved
// (measure.ts), so load on the machine hits the baseline alike; and, since a loaded machine
// stretches every wall time, the CPU time each process spent (user + system, reported by the
// process itself at exit through a preloaded hook), the figure load disturbs least.
//
//   npm run build && node bench/out/cli-start.bench.js
//
// RLM_PLAN_BENCH_CLI_BEFORE=<another build's cli/dist/start.js> times that bundle too (a copy of
// cli/dist/ made before a change), with a code cache of its own: before and after in one run.
// A copy outside the checkout finds this checkout's node_modules through NODE_PATH: without it its
// run would find no better-sqlite3, record nothing, and look cheaper than it is.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { calls, measure } from "./measure";

const ROOT = resolve(__dirname, "..", "..");
const COMPILED = join(ROOT, "cli", "out", "main.js");
const BUNDLED = join(ROOT, "cli", "dist", "start.js");
const PLAN = join(ROOT, "examples", "workspace", "plans", "needle-count.rlmplan.json");
const EARLIER = process.env["RLM_PLAN_BENCH_CLI_BEFORE"];

/** Written to fd 3 as the process exits: its own CPU time, in microseconds. */
const CPU_HOOK = `process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  require("node:fs").writeSync(3, String(user + system));
});`;

function spawned(args: readonly string[], env: NodeJS.ProcessEnv, hook?: string): () => number {
  return () => {
    const result = spawnSync(process.execPath, hook ? ["-r", hook, ...args] : args, {
      cwd: ROOT,
      env,
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    });
    if (result.status !== 0) throw new Error(`${args.join(" ")} exited with ${result.status}: ${result.stderr}`);
    // A run that could not open its journal skips the journal's work: not the run a user times.
    if (result.stderr.includes("this run is not recorded")) throw new Error(`${args.join(" ")}: ${result.stderr}`);
    return Number(result.output[3]?.toString() ?? NaN) / 1000;
  };
}

/** Median CPU milliseconds of each command, run in turns `rounds` times. */
function cpuTimes(commands: readonly (() => number)[], rounds: number): number[] {
  const times: number[][] = commands.map(() => []);
  for (let round = 0; round < rounds; round++) commands.forEach((command, i) => times[i]?.push(command()));
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? NaN);
}

async function main(): Promise<void> {
  if (!existsSync(BUNDLED)) throw new Error("cli/dist/start.js is missing: run npm run build");
  const cache = mkdtempSync(join(tmpdir(), "rlm-plan-cli-cache-"));
  const env = { ...process.env, NO_COLOR: "1", RLM_PLAN_CODE_CACHE: cache };
  const earlierEnv = { ...env, RLM_PLAN_CODE_CACHE: join(cache, "earlier"), NODE_PATH: join(ROOT, "node_modules") };
  if (EARLIER) spawned([EARLIER, "check", PLAN], earlierEnv)();
  const hook = join(cache, "cpu-hook.js");
  writeFileSync(hook, CPU_HOOK);
  try {
    spawned([BUNDLED, "check", PLAN], env)(); // writes the cache
    spawned([BUNDLED, "check", PLAN], env, hook)(); // and the one with the hook (same V8 flags: the same)
    console.log(`rlm-plan start · node ${process.version} · ${cpus()[0]?.model ?? "cpu"} × ${cpus().length}`);
    for (const command of ["check", "run"]) {
      const [bare, before, after, earlier] = await measure(
        calls(spawned(["-e", "0"], env)),
        calls(spawned([COMPILED, command, PLAN], env)),
        calls(spawned([BUNDLED, command, PLAN], env)),
        ...(EARLIER ? [calls(spawned([EARLIER, command, PLAN], earlierEnv))] : []),
      );
      const row = (name: string, ms: number) =>
        console.log(`${name.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / bare.ms).toFixed(2).padStart(5)}x`);
      console.log(`\nrlm-plan ${command} (3-step plan)                   time  × bare node`);
      row("node -e 0", bare.ms);
      row("compiled modules, schema compiled (before)", before.ms);
      if (earlier) row("RLM_PLAN_BENCH_CLI_BEFORE's bundle", earlier.ms);
      row("bundle, code cache warm (the bin now)", after.ms);
      console.log(`now / before: ${(after.ms / before.ms).toFixed(2)}x`);
      const [bareCpu, beforeCpu, afterCpu, earlierCpu] = cpuTimes(
        [
          spawned(["-e", "0"], env, hook),
          spawned([COMPILED, command, PLAN], env, hook),
          spawned([BUNDLED, command, PLAN], env, hook),
          ...(EARLIER ? [spawned([EARLIER, command, PLAN], earlierEnv, hook)] : []),
        ],
        15,
      ) as [number, number, number, number | undefined];
      console.log(
        `CPU time (median of 15): node -e 0 ${bareCpu.toFixed(0)} ms, before ${beforeCpu.toFixed(0)} ms ` +
          `(${(beforeCpu / bareCpu).toFixed(2)}x), now ${afterCpu.toFixed(0)} ms (${(afterCpu / bareCpu).toFixed(2)}x)` +
          (earlierCpu === undefined
            ? ""
            : `, RLM_PLAN_BENCH_CLI_BEFORE ${earlierCpu.toFixed(0)} ms (${(earlierCpu / bareCpu).toFixed(2)}x)`),
      );
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
