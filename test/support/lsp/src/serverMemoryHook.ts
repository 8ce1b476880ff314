// Preloaded into the server by a benchmark's memory run only (`node --expose-gc -r
// serverMemoryHook.js main.js --stdio`, see ServerProcessOptions.memoryHook): on SIGUSR2 it runs a
// full garbage collection and writes one line with process.memoryUsage() to stderr, so the
// benchmark can tell live memory from garbage V8 has not collected yet. The server's code is not
// touched.

/** The same prefix as MEMORY_LINE_PREFIX in memory.ts (not imported: this file runs alone). */
const MEMORY_LINE_PREFIX = "rlm-plan-bench-memory ";

process.on("SIGUSR2", () => {
  if (gc) gc();
  const usage = process.memoryUsage();
  process.stderr.write(`${MEMORY_LINE_PREFIX}${JSON.stringify(usage)}\n`);
});

export {};
