// The published shape of the packages: `npm pack` @rlm-plan/core, the CLI (rlm-plan) and
// @rlm-plan/language-server, install the tarballs globally into a temporary prefix (dependencies from
// the npm cache, the registry only for what it lacks), then use the installed commands from another
// folder, as a user would: `rlm-plan --version` and `check` on the example workspace's plan, and the
// language server over stdio (initialize, a diagnostic, shutdown). Real child processes; nothing of
// the repository is on their module path.

import { strict as assert } from "node:assert";
import { execFile, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";

const run = promisify(execFile);
const ROOT = resolve(__dirname, "..", "..", "..");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
/** npm's errors when it can reach neither the registry nor a cached copy. */
const OFFLINE = /ENOTCACHED|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|network/;

/** The packages a user installs: the runtime, and the two commands built on it. */
const PACKED = ["@rlm-plan/core", "rlm-plan", "@rlm-plan/language-server"];

const BAD_PLAN = '{"steps":[{"bogus":1}]}\n';
const GOOD_PLAN = join(ROOT, "examples", "workspace", "plans", "needle-count.rlmplan.json");

let base = "";
let prefix = "";
let workspace = "";
let skipReason: string | undefined;

function bin(name: string): string {
  return process.platform === "win32" ? join(prefix, `${name}.cmd`) : join(prefix, "bin", name);
}

before(async () => {
  base = mkdtempSync(join(tmpdir(), "rlm-plan-pack-"));
  prefix = join(base, "global");
  workspace = join(base, "workspace");
  mkdirSync(workspace);
  const { stdout } = await run(
    NPM,
    ["pack", "--json", "--pack-destination", base, "-w", "shared-runtime", "-w", "cli", "-w", "server"],
    { cwd: ROOT, maxBuffer: 32 * 1024 * 1024, shell: process.platform === "win32" },
  );
  const packed = JSON.parse(stdout) as { name: string; filename: string; files: { path: string }[] }[];
  assert.deepEqual(
    packed.map((p) => p.name),
    PACKED,
  );
  for (const p of packed) {
    assert.ok(!p.files.some((f) => f.path.startsWith("src/")), `${p.name} packs its sources`);
  }
  try {
    await run(
      NPM,
      [
        "install",
        "--global",
        "--prefix",
        prefix,
        "--prefer-offline",
        // better-sqlite3 (the run journal, optional) would be compiled from source here, minutes on
        // a loaded machine, and npm runs its build even with --omit=optional: no install scripts
        // (no other dependency of the three has one); the commands run unrecorded, which is what
        // this checks.
        "--omit=optional",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        ...packed.map((p) => join(base, p.filename)),
      ],
      { cwd: base, maxBuffer: 32 * 1024 * 1024, shell: process.platform === "win32" },
    );
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? error);
    if (!OFFLINE.test(text)) throw error;
    skipReason = `npm could not install the tarballs' dependencies: neither the npm cache nor the registry answered (${text.split("\n")[0]})`;
  }
});

after(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

test("the installed packages are the tarballs, not links into the repository", (t) => {
  if (skipReason) return t.skip(skipReason);
  const lib = process.platform === "win32" ? join(prefix, "node_modules") : join(prefix, "lib", "node_modules");
  for (const name of PACKED) {
    const real = realpathSync(join(lib, name));
    assert.ok(real.startsWith(realpathSync(base) + sep), `${name} is ${real}`);
  }
  // Both commands run on the packed runtime, not a copy from the registry.
  for (const name of ["rlm-plan", "@rlm-plan/language-server"]) {
    const core = createRequire(join(lib, name, "package.json")).resolve("@rlm-plan/core/package.json");
    assert.equal(realpathSync(core), realpathSync(join(lib, "@rlm-plan", "core", "package.json")), name);
  }
});

test("rlm-plan from the global install prints its version and checks plans", async (t) => {
  if (skipReason) return t.skip(skipReason);
  copyFileSync(GOOD_PLAN, join(workspace, "good.rlmplan.json"));
  writeFileSync(join(workspace, "bad.rlmplan.json"), BAD_PLAN);
  const shell = process.platform === "win32";
  const version = await run(bin("rlm-plan"), ["--version"], { cwd: workspace, shell });
  assert.equal(version.stdout, "rlm-plan 0.1.0\n");
  const good = await run(bin("rlm-plan"), ["check", "good.rlmplan.json"], { cwd: workspace, shell });
  assert.equal(good.stdout, "good.rlmplan.json: ok (3 steps)\n");
  const bad = await run(bin("rlm-plan"), ["check", "bad.rlmplan.json"], { cwd: workspace, shell }).then(
    () => assert.fail("check passed a plan without an op"),
    (error: { code: number; stdout: string }) => error,
  );
  assert.equal(bad.code, 1);
  assert.equal(
    bad.stdout,
    'bad.rlmplan.json:1:11: error: missing field "op": "op" is required here [missing_field]\nbad.rlmplan.json: 1 error\n',
  );
});

test("rlm-plan ui from the global install serves the page's script and stylesheet the package carries", async (t) => {
  if (skipReason) return t.skip(skipReason);
  const lib = process.platform === "win32" ? join(prefix, "node_modules") : join(prefix, "lib", "node_modules");
  const server = spawn(bin("rlm-plan"), ["ui", "--no-open", "--journal", workspace], {
    cwd: workspace,
    stdio: ["ignore", "pipe", "pipe"],
    shell: process.platform === "win32",
  });
  const exited = new Promise<number | null>((done) => server.on("exit", (code) => done(code)));
  try {
    const url = await new Promise<string>((done, fail) => {
      let out = "";
      server.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        const found = /rlm-plan ui: (\S+)\n/.exec(out);
        if (found) done(found[1] as string);
      });
      void exited.then((code) => fail(new Error(`rlm-plan ui exited ${code}`)));
    });
    const opened = await fetch(url, { redirect: "manual" });
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
    for (const file of ["ui.js", "ui.css"]) {
      const served = await fetch(new URL(`/${file}`, url), { headers: { cookie } });
      assert.equal(served.status, 200, file);
      assert.equal(await served.text(), readFileSync(join(lib, "rlm-plan", "dist", "ui", file), "utf8"), file);
    }
  } finally {
    server.kill("SIGINT");
  }
  assert.equal(await exited, 0);
});

test("rlm-plan-language-server from the global install answers initialize over stdio", async (t) => {
  if (skipReason) return t.skip(skipReason);
  const child = spawn(bin("rlm-plan-language-server"), ["--stdio"], {
    cwd: workspace,
    stdio: "pipe",
    shell: process.platform === "win32",
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const published = new Promise<PublishDiagnosticsParams>((done) =>
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      if (params.diagnostics.length > 0) done(params);
    }),
  );
  connection.listen();
  try {
    const result = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: pathToFileURL(workspace).href,
      workspaceFolders: [{ uri: pathToFileURL(workspace).href, name: "workspace" }],
      capabilities: {},
    });
    assert.deepEqual(result.serverInfo, { name: "rlm-plan-language-server", version: "0.1.0" });
    assert.ok(result.capabilities.hoverProvider, "no hover provider");
    await connection.sendNotification(InitializedNotification.type, {});
    const uri = pathToFileURL(join(workspace, "bad.rlmplan.json")).href;
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "rlm-plan", version: 1, text: BAD_PLAN },
    });
    const diagnostics = await published;
    assert.equal(diagnostics.uri, uri);
    assert.deepEqual(
      diagnostics.diagnostics.map((d) => [d.code, d.message]),
      [
        [
          "no_host_profile",
          "No host profile (rlmplan.host.json) found: capabilities, tools and providers are not checked",
        ],
        ["missing_field", 'missing field "op": "op" is required here'],
      ],
    );
    await connection.sendRequest(ShutdownRequest.type);
    await connection.sendNotification(ExitNotification.type);
    assert.equal(await exited, 0, stderr);
  } finally {
    connection.dispose();
    if (child.exitCode === null) child.kill();
  }
});

/** Each command's committed shim in the repository, and what it prints for --version. */
const SHIMS = [
  {
    name: "rlm-plan-language-server",
    file: join(ROOT, "server", "bin", "rlm-plan-language-server.js"),
    version: "0.1.0\n",
  },
  { name: "rlm-plan", file: join(ROOT, "cli", "bin", "rlm-plan.js"), version: "rlm-plan 0.1.0\n" },
];

for (const shimOf of SHIMS) {
  test(`in the repository, npm links the committed shim: npx ${shimOf.name} works`, async () => {
    const shell = process.platform === "win32";
    const shim = join(ROOT, "node_modules", ".bin", shell ? `${shimOf.name}.cmd` : shimOf.name);
    if (!shell) assert.equal(realpathSync(shim), shimOf.file);
    const { stdout } = await run(shim, ["--version"], { cwd: ROOT, shell });
    assert.equal(stdout, shimOf.version);
  });
}
