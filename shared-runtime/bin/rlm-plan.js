#!/usr/bin/env node
// Committed entry point, so `npm ci` can link the `rlm-plan` bin before anything is built.
"use strict";
try {
  require("../out/cli/main.js").runCli();
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND") {
    process.stderr.write("rlm-plan: not built yet: run `npm run build` first\n");
    process.exit(2);
  }
  throw error;
}
