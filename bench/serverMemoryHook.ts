// Preloaded into the server by the benchmark's memory run only (`node --expose-gc -r
// bench/out/serverMemoryHook.js server/out/lsp/main.js --stdio`): on SIGUSR2 it runs a full garbage
// collection and writes one line with process.memoryUsage() to stderr, so the benchmark can
// tell live memory from garbage V8 has not collected yet. The server's code is not touched.

/** The same prefix as MEMORY_LINE_PREFIX in lspSession.ts (not imported: this file runs alone). */
const MEMORY_LINE_PREFIX = "rlm-plan-bench-memory ";

process.on("SIGUSR2", () => {
  if (gc) gc();
  const usage = process.memoryUsage();
  process.stderr.write(`${MEMORY_LINE_PREFIX}${JSON.stringify(usage)}\n`);
});

export {};
