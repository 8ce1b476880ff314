// The entry of cli/dist/start.js, what the `rlm-plan` bin runs once `npm run build` has bundled
// the command: a bundle beside it compiled with V8's code cache, so that a pre-commit hook or a
// `--watch` loop does not compile the whole runtime on every start. cli/dist/static.js for the
// static commands (scripts/bundle-cli.mjs), cli/dist/rlm-plan.js for everything else.
// Only meaningful in dist/: the bundles are what it loads.

import { homedir } from "node:os";
import { join } from "node:path";
import { requireWithCodeCache } from "@rlm-plan/core/codeCache";

/**
 * Where the cache is kept: $RLM_PLAN_CODE_CACHE (`off` for none), else the user's cache folder.
 * Never a shared temporary folder: a cache is code, and another user could plant one there.
 */
function cacheFolder(): string | undefined {
  const chosen = process.env["RLM_PLAN_CODE_CACHE"];
  if (chosen === "off") return undefined;
  if (chosen) return chosen;
  const base = process.env["XDG_CACHE_HOME"] || join(homedir(), ".cache");
  return join(base, "rlm-plan", "v8");
}

/**
 * The commands whose starts keep a cache entry of their own (codeCache.ts): a `run` compiles much
 * that a `check` never does. Anything else (help, an option, a typo) shares one entry, so the
 * folder holds a bounded number of entries.
 */
const COMMANDS = new Set(["check", "estimate", "graph", "propose", "run", "runs", "test", "worker"]);

function commandOf(argv: readonly string[]): string {
  const word = argv[2] ?? "";
  return COMMANDS.has(word) ? word : "other";
}

/**
 * The static bundle for what needs no run, journal, provider or MCP connection: `check` and
 * `estimate` (unless an argument names a preflight: then the whole bundle, which a false alarm
 * only makes slower), `--version` and `--help`. The static bundle throws on requiring what it
 * lacks, so whatever is in doubt goes to the whole one.
 */
function bundleOf(argv: readonly string[]): string {
  const word = argv[2] ?? "";
  if (["--version", "--help", "-h", "help"].includes(word) && argv.length === 3) return "static.js";
  if ((word === "check" || word === "estimate") && !argv.some((arg) => arg.includes("preflight"))) return "static.js";
  return "rlm-plan.js";
}

const load = requireWithCodeCache(join(__dirname, bundleOf(process.argv)), cacheFolder(), commandOf(process.argv));
// Written when the process ends, so the cache holds every function this start compiled;
// only when there was none or V8 rejected it (codeCache.ts), so a warm start writes nothing.
process.on("exit", () => load.saveCache());
(load.exports as { runCli(): void }).runCli();
