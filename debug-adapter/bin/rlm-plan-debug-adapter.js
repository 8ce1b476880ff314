#!/usr/bin/env node
// Committed entry point, so `npm ci` can link the `rlm-plan-debug-adapter` bin before anything is built.
"use strict";
try {
  require("../out/main.js").runDebugAdapter();
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND") {
    process.stderr.write("rlm-plan-debug-adapter: not built yet: run `npm run build` first\n");
    process.exit(2);
  }
  throw error;
}
