// Bundles the `rlm-plan` command into cli/dist/ (part of `npm run build`): the command and the
// runtime in one file (cli/dist/rlm-plan.js), started by cli/dist/start.js with V8's code cache,
// and what the runtime loads beside itself (the command tools' supervisor, the MCP SDK on first
// use). Loading some 200 compiled modules one by one was half of a `rlm-plan check`'s time; the
// bin (cli/bin/rlm-plan.js) runs the bundle when it is newer than the compiled sources.
// Run after tsc (it bundles the compiled JavaScript).
//
//   node scripts/bundle-cli.mjs

import { build } from "esbuild";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bundleOptions, root } from "./bundle.mjs";

export const cliEntries = [
  { in: "cli/out/main.js", out: "cli/dist/rlm-plan.js" },
  { in: "cli/out/bundleStart.js", out: "cli/dist/start.js" },
  { in: "shared-runtime/out/host/supervisor.js", out: "cli/dist/supervisor.js" },
  { in: "shared-runtime/out/host/mcp/sdk.js", out: "cli/dist/mcp-sdk.js" },
  // The graph layout engine, 1.5 MiB: only `rlm-plan graph` (SVG) loads it.
  { in: "node_modules/elkjs/lib/elk.bundled.js", out: "cli/dist/elk.js" },
];

/** The files beside the bundle that it requires at run time instead of inlining them. */
const beside = {
  name: "beside",
  setup(b) {
    b.onResolve({ filter: /^elkjs\/lib\/elk\.bundled\.js$/ }, (args) =>
      args.importer.endsWith("elk.bundled.js") ? undefined : { path: "./elk.js", external: true },
    );
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
    const own = entry.in.includes("node_modules/") ? [] : [beside];
    // The queue's BullMQ and ioredis stay packages of the CLI (loaded on first use by `worker`,
    // `run --queue`, `test --queue`), so no other command pays for them.
    const external = [...(options.external ?? []), "bullmq", "ioredis"];
    await build({ ...options, external, metafile: false, plugins: [...options.plugins, ...own] });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
