// The sandbox's cost per tool call (issue 37: at most 1.3x a bare spawn). One command tool call
// (test/fixtures/tools/echo.js: JSON in, JSON out) four ways, samples interleaved in this
// process: a bare `child_process.spawn` of the same program with the same stdin (the baseline),
// the command tool with `"sandbox": "off"` (the supervisor, its process group and cgroup), and
// with the sandbox (bubblewrap started directly, namespaces, its cgroups and limits) twice: in
// steady state, each call finding the spare sandbox its previous call started
// (host/sandbox/spareSandbox.ts), and cold, as a run's first call of a tool is (a tool without an
// owner to end its spares gets none, so each of its calls starts bubblewrap itself). Prints the
// median call and the ratios. A measurement, not a test. Each way gets SAMPLES_MS of samples (a
// call takes tens of milliseconds: measure's 200 ms would be a handful). With `--before DIR` (a
// checkout of another build, built), the sandboxed call of that build is timed too, in turn with
// the others.
//
//   npm run bench:sandbox    (or node bench/out/sandbox.bench.js [--before DIR] after a build)

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createCommandTool, ProcessTracker, sandboxAvailability } from "@rlm-plan/core/host";
import { awaitedCalls, measureFor, table, type Timing } from "./measure";

const ROOT = resolve(__dirname, "..", "..");
const BEFORE_AT = process.argv.indexOf("--before");
const BEFORE = BEFORE_AT < 0 ? undefined : process.argv[BEFORE_AT + 1];
const ECHO = join(ROOT, "test", "fixtures", "tools", "echo.js");
/** Time each way's samples add up to: about fifty calls. */
const SAMPLES_MS = 2_000;

function bareCall(): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [ECHO], { stdio: ["pipe", "pipe", "ignore"], env: {} });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", fail);
    child.on("close", () => done(out));
    child.stdin.end(JSON.stringify({ text: "hi" }));
  });
}

async function main(): Promise<void> {
  const available = sandboxAvailability();
  if (!available.available) {
    process.stdout.write(`no sandbox here: ${available.reason}\n`);
    return;
  }
  // A workspace of its own (the sandbox mounts it read-only), outside the repository.
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-sandbox-bench-"));
  const tracker = new ProcessTracker();
  const signal = new AbortController().signal;
  const spec = { type: "command" as const, command: [process.execPath, ECHO] };
  const profile = (sandbox: "off" | "required") => ({ file: join(dir, "rlmplan.host.json"), dir, sandbox });
  const off = createCommandTool(spec, profile("off"), { tracker });
  const sandboxed = createCommandTool(spec, profile("required"), { tracker });
  const cold = createCommandTool(spec, profile("required"));
  const call = (tool: typeof off) => () => Promise.resolve(tool({ text: "hi" }, { signal, tool: "echo" }));
  const subjects = [
    awaitedCalls(bareCall),
    awaitedCalls(call(off)),
    awaitedCalls(call(sandboxed)),
    awaitedCalls(call(cold)),
  ];
  if (BEFORE !== undefined) {
    // The other build's own launcher (and supervisor), from its compiled runtime.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const other = require(resolve(BEFORE, "shared-runtime", "out", "host")) as typeof import("@rlm-plan/core/host");
    subjects.push(awaitedCalls(call(other.createCommandTool(spec, profile("required"), { tracker }))));
  }
  const timings: Timing[] = await measureFor(SAMPLES_MS, ...subjects);
  const [bare, supervised, inSandbox, first] = [timings[0]!, timings[1]!, timings[2]!, timings[3]!];
  const before = timings[4];
  await tracker.closeAll();
  rmSync(dir, { recursive: true, force: true });
  const row = (name: string, timing: Timing) => [
    name,
    `${timing.ms.toFixed(1)} ms`,
    `±${(timing.spread * 100).toFixed(0)}%`,
    `${(timing.ms / bare.ms).toFixed(2)}x`,
    String(timing.samples * timing.callsPerSample),
  ];
  table(
    ["one echo.js call", "median", "spread", "vs bare spawn", "samples"],
    [
      row("bare child_process.spawn", bare),
      row('command tool, "sandbox": "off"', supervised),
      row("command tool, sandboxed", inSandbox),
      row("command tool, sandboxed, first call (cold)", first),
      ...(before === undefined ? [] : [row("command tool, sandboxed, --before build", before)]),
    ],
  );
  process.stdout.write(`sandbox vs supervised: ${(inSandbox.ms / supervised.ms).toFixed(2)}x\n`);
}

void main();
