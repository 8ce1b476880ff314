// Preloaded (NODE_OPTIONS=--require) by scripts/test-node.sh into every process of the Node 22 and
// Node 24 tiers, the tests and the CLI, servers and adapters they spawn: `require("better-sqlite3")`
// resolves to the copy built for this Node (RLM_PLAN_NATIVE_MODULES/node_modules, which
// scripts/install-e2e.sh builds), since the repository's copy is built for the machine's Node
// and a native module loads only in the Node it was built for. Nothing else is redirected.
"use strict";
const Module = require("node:module");
const path = require("node:path");

const root = process.env.RLM_PLAN_NATIVE_MODULES;
if (root) {
  const redirected = path.join(root, "node_modules", "better-sqlite3");
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return resolve.call(this, request === "better-sqlite3" ? redirected : request, ...rest);
  };
}
