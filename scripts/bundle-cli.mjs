// Bundles the `rlm-plan` command into cli/dist/ (part of `npm run build`): the command and the
// runtime in one file (cli/dist/rlm-plan.js), started by cli/dist/start.js with V8's code cache,
// and what the runtime loads beside itself (the command tools' supervisor, the MCP SDK on first
// use). Loading some 200 compiled modules one by one was half of a `rlm-plan check`'s time; the
// bin (cli/bin/rlm-plan.js) runs the bundle when it is newer than the compiled sources.
// Run after tsc (it bundles the compiled JavaScript).
//
//   node scripts/bundle-cli.mjs

import { build } from "esbuild";
import { copyFileSync, existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleOptions, root } from "./bundle.mjs";

export const cliEntries = [
  { in: "cli/out/main.js", out: "cli/dist/rlm-plan.js" },
  // The same command for `check` (without --preflight), `estimate`, `--version` and `--help`,
  // without what only the other commands require (cli/src/bundleStart.ts chooses): every start
  // reads, decodes and compares its bundle, and this one is 0.55x the size.
  { in: "cli/out/main.js", out: "cli/dist/static.js", absent: true },
  { in: "cli/out/bundleStart.js", out: "cli/dist/start.js" },
  { in: "shared-runtime/out/host/supervisor.js", out: "cli/dist/supervisor.js" },
  { in: "shared-runtime/out/host/mcp/sdk.js", out: "cli/dist/mcp-sdk.js" },
  // The graph layout engine, 1.5 MiB: only `rlm-plan graph` (SVG) loads it.
  { in: "node_modules/elkjs/lib/elk.bundled.js", out: "cli/dist/elk.js" },
  // The OpenTelemetry exporter, only for a run that exports a trace (--otlp, the profile's telemetry.otlp).
  { in: "shared-runtime/out/telemetry/runTrace.js", out: "cli/dist/otel.js" },
  // Linear-time regular expressions, only for an input schema's patterns.
  { in: "node_modules/re2js/build/index.cjs", out: "cli/dist/re2js.js" },
  // The run browser's page script (`rlm-plan ui`, `runs export --format html`), for the browser;
  // its stylesheet is copied beside it.
  { in: "cli/ui/out/ui/src/app.js", out: "cli/dist/ui/ui.js", browser: true },
];

/**
 * Ajv, for input schemas (a preflight, a run, `rlm-plan test`): its three drafts in one file,
 * required through a one-line file per module name, so they share Ajv's core.
 */
const AJV_ALL = "cli/dist/ajv-all.js";
const ajvModules = { ajv: "draft7", "ajv/dist/2019": "draft2019", "ajv/dist/2020": "draft2020" };

/**
 * The files beside the bundle that it requires at run time instead of inlining them: what only
 * some commands need stays out of the file every start reads, decodes and compiles (a third of
 * it: bench/history/2026-12-05.md, "The CLI's start").
 */
const beside = {
  name: "beside",
  setup(b) {
    b.onResolve({ filter: /^elkjs\/lib\/elk\.bundled\.js$/ }, (args) =>
      args.importer.endsWith("elk.bundled.js") ? undefined : { path: "./elk.js", external: true },
    );
    b.onResolve({ filter: /^@rlm-plan\/core\/telemetry(\/runTrace)?$/ }, () => ({ path: "./otel.js", external: true }));
    // The session's own lazy require of the trace (session/runLife.ts).
    b.onResolve({ filter: /^\.\.\/telemetry\/runTrace$/ }, (args) =>
      /shared-runtime[\\/]out[\\/]session$/.test(args.resolveDir) ? { path: "./otel.js", external: true } : undefined,
    );
    b.onResolve({ filter: /^re2js$/ }, () => ({ path: "./re2js.js", external: true }));
    b.onResolve({ filter: /^ajv(\/dist\/20(19|20))?$/ }, (args) => ({
      path: `./${args.path.replace(/^ajv\/dist\//, "ajv-")}.js`,
      external: true,
    }));
  },
};

/**
 * What the static commands never require, by the module that requires it on first use: the
 * other commands, and what the session and the MCP discovery require only for a run, a preflight,
 * a recording or a proposal. In cli/dist/static.js each is a module that throws when required:
 * bundleStart.ts sends every command that could need one to cli/dist/rlm-plan.js.
 */
const STATIC_ABSENT = {
  "cli/out/main.js": [
    "./run",
    "./runs",
    "./propose",
    "./signals",
    "./graph",
    "./planTests/testCommand",
    "./queue/workerCommand",
    "./ui/uiCommand",
    "./ui/htmlExport",
  ],
  "shared-runtime/out/session/index.js": ["./recordedRun"],
  "shared-runtime/out/session/planSession.js": [
    "../run/startRun",
    "./runLife",
    "../journal/replayRun",
    "../journal/replay",
    "../providers/proposePlan",
    "../host/createHost",
  ],
  "shared-runtime/out/host/mcp/discovery.js": ["./connection"],
};

const absent = {
  name: "absent",
  setup(b) {
    const byImporter = new Map(Object.entries(STATIC_ABSENT).map(([file, paths]) => [join(root, file), paths]));
    b.onResolve({ filter: /^\./ }, (args) =>
      byImporter.get(args.importer)?.includes(args.path)
        ? { path: `${args.importer.slice(root.length + 1)} -> ${args.path}`, namespace: "absent" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "absent" }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not in cli/dist/static.js (cli/src/bundleStart.ts chose it for this command)`)});`,
      loader: "js",
    }));
  },
};

async function main() {
  for (const entry of cliEntries) {
    if (!existsSync(join(root, entry.in))) {
      console.error(`bundle-cli: ${entry.in} is missing; run tsc -b first`);
      process.exit(1);
    }
  }
  rmSync(join(root, "cli", "dist"), { recursive: true, force: true });
  for (const entry of cliEntries) {
    const options = bundleOptions(entry);
    // The beside files themselves inline what they use (otel.js its OpenTelemetry packages).
    const own = entry.in.includes("node_modules/") || entry.out === "cli/dist/otel.js" || entry.browser ? [] : [beside];
    // The queue's BullMQ and ioredis stay packages of the CLI (loaded on first use by `worker`,
    // `run --queue`, `test --queue`), so no other command pays for them.
    const external = entry.browser ? [] : [...(options.external ?? []), "bullmq", "ioredis"];
    // The command's bundle holds better-sqlite3's JavaScript (its fourteen modules loaded one by
    // one cost a run a sixth of a bare Node start); the native addon stays in node_modules, loaded
    // by journal/sqlite.ts, which hands it over, so the package's own lookup (`bindings`) is not used.
    if (entry.out === "cli/dist/rlm-plan.js") external.splice(external.indexOf("better-sqlite3"), 1, "bindings");
    // journal/sqlite.ts finds the installed better-sqlite3 with require.resolve on purpose (its
    // addon and version), which esbuild leaves to run time and warns of, since it bundles the package.
    const logOverride = { ...options.logOverride, "require-resolve-not-external": "silent" };
    // The beside files first: the CLI names its OpenTelemetry file otel.js.
    const plugins = [...own, ...options.plugins, ...(entry.absent ? [absent] : [])];
    await build({ ...options, external, logOverride, metafile: false, plugins });
  }
  copyFileSync(join(root, "cli/ui/ui.css"), join(root, "cli/dist/ui/ui.css"));
  const drafts = Object.entries(ajvModules).map(([name, key]) => `${key}: require(${JSON.stringify(name)})`);
  await build({
    ...bundleOptions({ in: "ajv", out: AJV_ALL }),
    entryPoints: undefined,
    stdin: { contents: `module.exports = { ${drafts.join(", ")} };`, resolveDir: root, sourcefile: "ajv-all.js" },
    metafile: false,
  });
  for (const [name, key] of Object.entries(ajvModules)) {
    const file = `cli/dist/${name.replace(/^ajv\/dist\//, "ajv-")}.js`;
    writeFileSync(join(root, file), `"use strict";\nmodule.exports = require("./ajv-all.js").${key};\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
