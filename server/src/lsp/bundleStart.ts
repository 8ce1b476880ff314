// The entry of dist/serverStart.js, the file the extension starts: the bundled server beside it
// (dist/server.js) run with V8's code cache in the folder the extension names (codeCache.ts).
// Only meaningful in dist/: the bundle is what it loads.

import { join } from "node:path";
import type { CodeCacheEnvironment } from "../protocol";
import { requireWithCodeCache } from "@rlm-plan/core/codeCache";

/** protocol.ts's name, typed as its literal: importing protocol.ts would bundle the LSP library here. */
const VARIABLE: typeof CodeCacheEnvironment.variable = "RLM_PLAN_CODE_CACHE";

/** After this long the start-up's functions are compiled: the cache then holds them too. */
const SAVE_AFTER_MS = 3000;

const load = requireWithCodeCache(join(__dirname, "server.js"), process.env[VARIABLE] || undefined);
setTimeout(() => load.saveCache(), SAVE_AFTER_MS).unref();
