// The in-process tiers (test/unit, test/service, test/conformance) start no process and open no
// socket: no test file there imports child_process, net, http(s), a browser, or a test helper
// that runs the CLI, a chat server, redis or a child (directly or through the test/support
// modules it imports). Those tests belong in test/cli or test/integration (CONTRIBUTING.md,
// Tests). The static half of the rule; test/support/inProcessOnly.ts, preloaded by the tiers'
// scripts, refuses what the code under test starts at run time. Both shown failing first.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { repositoryRoot, sourceFiles, specifiersOf } from "../support/importGraph";
import { forbidProcessesAndSockets, guarded, inProcessTier, IN_PROCESS_TIERS } from "../support/inProcessOnly";

const TEST = join(repositoryRoot, "test");

/** Node's modules for processes and sockets, and a browser driver. */
const FORBIDDEN_MODULES = /^(?:node:)?(?:child_process|cluster|net|http|https|http2|dgram|tls)$|^playwright(?:-core)?$/;
/** The test/support helpers that start processes or servers (the process tiers' harnesses). */
const PROCESS_HELPERS = new Set(
  ["cliWorkspace", "childOutput", "chatServer", "redisServer", "workerProcess", "debugClient", "leftovers"]
    .concat(["mcpLeftovers", "bundleScript"])
    .map((name) => join(TEST, "support", `${name}.ts`)),
);

/** The guard imports what it refuses. */
const GUARD = join(TEST, "support", "inProcessOnly.ts");

interface Sources {
  read(path: string): string;
  exists(path: string): boolean;
}
const DISK: Sources = { read: (path) => readFileSync(path, "utf8"), exists: existsSync };

/** The .ts file a relative specifier of `from` names, if it is one of the repository's test sources. */
function resolveRelative(from: string, specifier: string, sources: Sources): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, "index.ts")].find((candidate) => sources.exists(candidate));
}

/** Why `file` (a test source) may not run in process: each offending import, with the support modules it came through. */
function offences(file: string, sources: Sources = DISK): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const visit = (path: string, chain: string[]): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const via = chain.length ? ` (through ${chain.map((c) => relative(TEST, c)).join(" -> ")})` : "";
    for (const specifier of specifiersOf(sources.read(path))) {
      if (FORBIDDEN_MODULES.test(specifier)) found.push(`imports ${specifier}${via}`);
      const target = resolveRelative(path, specifier, sources);
      if (!target || target === GUARD) continue;
      if (PROCESS_HELPERS.has(target)) found.push(`imports ${relative(TEST, target)}${via}`);
      else if (target.startsWith(TEST)) visit(target, [...chain, target]);
    }
  };
  visit(file, []);
  return found;
}

function tierFiles(tier: string): string[] {
  return sourceFiles(join(TEST, tier)).filter((file) => file.endsWith(".ts"));
}

test("the scan finds a process, a socket and the CLI harness, directly and through a support module", () => {
  // Written through a helper, so that this file's own scan does not read them as its imports.
  const line = (what: string, specifier: string) => `import ${what} from "${specifier}";\n`;
  const planted = new Map([
    [
      join(TEST, "unit", "planted.test.ts"),
      line("{ spawn }", "node:child_process") +
        line("{ cliWorkspace }", "../support/cliWorkspace") +
        line("{ helper }", "../support/plantedHelper") +
        line("{ keyForms }", "../support/keyForms") +
        `// ${line("net", "node:net")}`,
    ],
    [join(TEST, "support", "plantedHelper.ts"), line("leftovers", "./leftovers") + line("https", "node:https")],
  ]);
  const sources: Sources = {
    read: (path) => planted.get(path) ?? readFileSync(path, "utf8"),
    exists: (path) => planted.has(path) || existsSync(path),
  };
  assert.deepEqual(offences(join(TEST, "unit", "planted.test.ts"), sources), [
    "imports node:child_process",
    "imports support/cliWorkspace.ts",
    "imports support/leftovers.ts (through support/plantedHelper.ts)",
    "imports node:https (through support/plantedHelper.ts)",
  ]);
});

test("a file of the process tiers would fail here: the CLI tier's files import the harness", () => {
  const moved = tierFiles("cli");
  assert.ok(moved.length > 20, `${moved.length} CLI test files`);
  const clean = moved.filter((file) => offences(file).length === 0).map((file) => relative(TEST, file));
  assert.deepEqual(clean, [], "a CLI test that starts nothing belongs in test/unit");
});

for (const tier of IN_PROCESS_TIERS) {
  test(`test/${tier} imports nothing that starts a process or opens a socket`, () => {
    const files = tierFiles(tier);
    assert.ok(files.length > 0, `test/${tier} has sources`);
    const found = files.flatMap((file) => offences(file).map((offence) => `${relative(TEST, file)} ${offence}`));
    assert.deepEqual(found, []);
  });
}

test("the run-time guard acts only in a test file of an in-process tier", () => {
  const out = join(TEST, "out");
  assert.equal(inProcessTier(join(out, "unit", "model.steps.test.js")), "unit");
  assert.equal(inProcessTier(join(out, "service", "hover.plan.test.js")), "service");
  assert.equal(inProcessTier(join(out, "conformance", "conformance.test.js")), "conformance");
  assert.equal(inProcessTier(join(out, "cli", "cli.help.test.js")), undefined);
  assert.equal(inProcessTier(join(out, "protocol", "robustness.test.js")), undefined);
  assert.equal(inProcessTier(join(repositoryRoot, "node_modules", "x", "out", "unit", "a.js")), undefined);
  assert.equal(inProcessTier(undefined), undefined);
});

test("the run-time guard refuses a child process, a listening socket and a connection, then puts them back", () => {
  const { childProcess, net } = guarded;
  const before = [
    childProcess.spawnSync,
    childProcess.execFile,
    net.Server.prototype.listen,
    net.Socket.prototype.connect,
  ];
  const restore = forbidProcessesAndSockets("unit");
  try {
    assert.throws(
      () => childProcess.spawnSync(process.execPath, ["-e", "0"]),
      /^Error: test\/unit runs in process: this test started a child process \(spawnSync /,
    );
    assert.throws(() => childProcess.execFile("true"), /started a child process \(execFile true\)/);
    assert.throws(
      () => net.createServer().listen(0, "127.0.0.1"),
      /test\/unit runs in process: this test listened on a socket/,
    );
    assert.throws(() => net.connect(9, "127.0.0.1"), /connected to a socket/);
  } finally {
    restore();
  }
  const after = [
    childProcess.spawnSync,
    childProcess.execFile,
    net.Server.prototype.listen,
    net.Socket.prototype.connect,
  ];
  assert.deepEqual(after, before);
});
