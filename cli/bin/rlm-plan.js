#!/usr/bin/env node
// Committed entry point, so `npm ci` can link the `rlm-plan` bin before anything is built.
// It runs the bundle (dist/start.js, written by `npm run build`) unless a later `tsc -b` has
// compiled sources the bundle does not hold yet; then the compiled modules in out/.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

function modified(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

const cli = path.join(__dirname, "..");
const bundled = modified(path.join(cli, "dist", "rlm-plan.js"));
// tsc rewrites a project's .tsbuildinfo on every build that changes it: the CLI's and, in a
// checkout, the runtime's. An installed package has neither.
const compiled = [path.join(cli, "out", ".tsbuildinfo"), path.join(cli, "..", "shared-runtime", "out", ".tsbuildinfo")]
  .map(modified)
  .filter((time) => time !== undefined);
if (bundled !== undefined && compiled.every((time) => time <= bundled)) {
  require(path.join(cli, "dist", "start.js"));
} else {
  const main = path.join(cli, "out", "main.js");
  if (modified(main) === undefined) {
    process.stderr.write("rlm-plan: not built yet: run `npm run build` first\n");
    process.exit(2);
  }
  require(main).runCli();
}
