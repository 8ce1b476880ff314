#!/usr/bin/env node
// Committed entry point, so `npm ci` can link the `rlm-plan-language-server` bin before anything is built.
"use strict";
const path = require("node:path");
const main = path.join(__dirname, "..", "out", "lsp", "main.js");
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
require(main);
