#!/usr/bin/env node
// Committed entry point, so `npm ci` can link the `rlm-plan-language-server` bin before anything is built.
// Editors start it as `rlm-plan-language-server --stdio` or `node .../rlm-plan-language-server.js --stdio`,
// without the server's Node flags (out/nodeFlags.js: V8's young generation, which cannot be changed once
// Node runs): then it starts the server again as a child with them, on the same standard streams, and
// exits as the child does. Started with them (on the command line or in NODE_OPTIONS; or over --node-ipc, whose channel belongs to this process:
// a Node client such as VS Code's passes the flags itself), it runs the server in this process.
"use strict";
const path = require("node:path");
const out = path.join(__dirname, "..", "out");
const main = path.join(out, "lsp", "main.js");
let built = true;
try {
  require.resolve(main);
} catch {
  built = false;
}
if (!built) {
  process.stderr.write("rlm-plan-language-server: not built yet: run `npm run build` first\n");
  process.exit(2);
}
const { ServerNodeFlags } = require(path.join(out, "nodeFlags.js"));
const args = process.argv.slice(2);
const serves = args.some((arg) => arg === "--stdio" || arg.startsWith("--socket") || arg.startsWith("--pipe"));
if (!serves || ServerNodeFlags.given(process.execArgv, process.env.NODE_OPTIONS)) {
  require(main);
} else {
  relaunch();
}

function relaunch() {
  const { spawn } = require("node:child_process");
  const child = spawn(process.execPath, [...process.execArgv, ...ServerNodeFlags.flags, main, ...args], {
    stdio: "inherit",
  });
  // The editor's signals reach the server; this process ends as the server did.
  const forward = (signal) => () => child.kill(signal);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, forward(signal));
  child.on("error", (error) => {
    process.stderr.write(`rlm-plan-language-server: could not start the server: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}
