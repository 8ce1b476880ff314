// MCP tool calls beside command tool calls, in the same process: a command tool starts a
// program per call, an MCP server is started once per run and then answers over its pipe. Prints
// the server's start (spawn, initialize, tools/list), the median call of each, and their ratio.
// A measurement, not a test.
//
//   node bench/out/mcp-tools.bench.js [--calls N]

import { join, resolve } from "node:path";
import { createCommandTool, ProcessTracker } from "@rlm-plan/core/host";
import { McpConnection } from "@rlm-plan/core/host/mcp/connection";

const ROOT = resolve(__dirname, "..", "..");
const FAULT = join(ROOT, "test", "fixtures", "mcp", "fault-server.js");
const ECHO = join(ROOT, "test", "fixtures", "tools", "echo.js");

function callsArg(): number {
  const at = process.argv.indexOf("--calls");
  const value = at < 0 ? 50 : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error("--calls needs a positive integer");
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function timed(calls: number, call: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

async function main(): Promise<void> {
  const calls = callsArg();
  const signal = new AbortController().signal;
  const tracker = new ProcessTracker();

  // Bare processes: this benchmark measures the supervisor and MCP's framing (the sandbox has its own).
  const host = { file: join(ROOT, "rlmplan.host.json"), dir: ROOT, sandbox: "off" as const };
  const command = createCommandTool({ type: "command", command: [process.execPath, ECHO] }, host, { tracker });
  const commandTimes = await timed(calls, async () => command({ text: "hi" }, { signal, tool: "echo" }));

  const connection = new McpConnection("fault", { command: process.execPath, args: [FAULT] }, ROOT, {
    tracker,
    sandbox: host,
  });
  const startedAt = process.hrtime.bigint();
  await connection.tools();
  const startMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
  const mcpTimes = await timed(calls, () => connection.call("ok", { text: "hi" }, { signal }));
  await connection.close();
  await tracker.closeAll();

  const commandMedian = median(commandTimes);
  const mcpMedian = median(mcpTimes);
  console.log(`calls per side                  ${calls}`);
  console.log(`command tool, median call       ${commandMedian.toFixed(2)} ms (a process per call)`);
  console.log(`MCP server start + tools/list   ${startMs.toFixed(2)} ms (once per run)`);
  console.log(`MCP tool, median call           ${mcpMedian.toFixed(2)} ms`);
  console.log(`command / MCP per call          ${(commandMedian / mcpMedian).toFixed(1)}x`);
  console.log(
    `break-even                      ${Math.ceil(startMs / Math.max(commandMedian - mcpMedian, 1e-3))} calls`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
