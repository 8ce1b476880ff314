// The language server's start as the extension sees it: spawn `node <bundle> --stdio` and wait
// for the answer to `initialize`, for the shipped bundle (the MCP SDK left to dist/mcp-sdk.js,
// required on first use) beside the same bundle with the SDK inlined (how it shipped before),
// and the shipped bundle started as the extension starts it (dist/serverStart.js, with V8's code
// cache warm), against a bare Node process that answers `initialize` at once (what any server
// costs). The bundles are built here with scripts/bundle.mjs's options, so the comparison is like
// for like.
//
//   npx tsc -b && node bench/out/server-start.bench.js

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type BuildOptions } from "esbuild";
import { awaitedCalls, measure } from "./measure";

const ROOT = resolve(__dirname, "..", "..");

interface Entry {
  readonly in: string;
  readonly out: string;
}
interface BundleScript {
  readonly entries: readonly Entry[];
  bundleOptions(entry: Entry, options?: { dev?: boolean }): BuildOptions;
}

/** A Node process that answers the first message on stdin as `initialize` would be answered. */
const BARE = `process.stdin.once("data", () => {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { capabilities: {} } });
  process.stdout.write("Content-Length: " + Buffer.byteLength(body) + "\\r\\n\\r\\n" + body);
});`;

const INITIALIZE = (() => {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { processId: process.pid, rootUri: null, capabilities: {} },
  });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
})();

/** Spawns the process and resolves when it has answered initialize; kills it `linger` ms later. */
function started(args: readonly string[], env: NodeJS.ProcessEnv = process.env, linger = 0): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"], env });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes('"id":1')) {
        setTimeout(() => {
          child.kill();
          done();
        }, linger);
      }
    });
    child.once("exit", (code) => {
      if (!out.includes('"id":1')) fail(new Error(`${args.join(" ")} exited with ${code} before initialize`));
    });
    child.stdin.write(INITIALIZE);
  });
}

async function main(): Promise<void> {
  const script = (await import(pathToFileURL(join(ROOT, "scripts", "bundle.mjs")).href)) as BundleScript;
  const entry = (out: string): Entry => {
    const found = script.entries.find((e) => e.out === out);
    if (!found) throw new Error(`scripts/bundle.mjs has no entry for ${out}`);
    return found;
  };
  const dir = mkdtempSync(join(tmpdir(), "rlm-plan-server-start-"));
  try {
    const lazy = join(dir, "lazy", "server.js");
    const inlined = join(dir, "inlined", "server.js");
    await build({ ...script.bundleOptions(entry("dist/server.js")), outfile: lazy, logLevel: "silent" });
    await build({
      ...script.bundleOptions(entry("dist/mcp-sdk.js")),
      outfile: join(dir, "lazy", "mcp-sdk.js"),
      logLevel: "silent",
    });
    await build({
      ...script.bundleOptions(entry("dist/server.js")),
      outfile: inlined,
      plugins: [],
      logLevel: "silent",
    });
    const start = join(dir, "lazy", "serverStart.js");
    await build({ ...script.bundleOptions(entry("dist/serverStart.js")), outfile: start, logLevel: "silent" });
    const cached = { ...process.env, RLM_PLAN_CODE_CACHE: join(dir, "code-cache") };
    // The first start writes the cache 3 s after loading (bundleStart.ts): it is left that long.
    await started([start, "--stdio"], cached, 4000);
    console.log(`language server start · node ${process.version} · ${cpus()[0]?.model ?? "cpu"} × ${cpus().length}`);
    const [bare, before, after, warm] = await measure(
      awaitedCalls(() => started(["-e", BARE])),
      awaitedCalls(() => started([inlined, "--stdio"])),
      awaitedCalls(() => started([lazy, "--stdio"])),
      awaitedCalls(() => started([start, "--stdio"], cached)),
    );
    const row = (name: string, ms: number, bytes?: number) =>
      console.log(
        `${name.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / bare.ms).toFixed(2).padStart(5)}x` +
          (bytes === undefined ? "" : `  ${bytes.toLocaleString("en-US")} B`),
      );
    console.log("process                            initialize  × bare node  bundle");
    row("bare node (answers at once)", bare.ms);
    row("server, MCP SDK inlined (before)", before.ms, statSync(inlined).size);
    row("server, MCP SDK on first use", after.ms, statSync(lazy).size);
    row("the same, code cache warm (shipped)", warm.ms);
    console.log(`shipped / before: ${(warm.ms / before.ms).toFixed(2)}x`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
