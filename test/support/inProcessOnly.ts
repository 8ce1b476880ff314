// The in-process tiers' guard (test/unit, test/service, test/conformance): preloaded by their npm
// scripts (`node --require ./test/out/support/inProcessOnly.js --test ...`), it makes a test file
// of those folders fail the moment it, or product code it calls, starts a child process or opens
// a socket (listen, or connect to anything but a local pipe). The static half is
// test/unit/architecture.test-tiers.test.ts (no such import); this half catches what the code
// under test starts (a command tool, an MCP server, a provider call). Test files of the other
// tiers, and the test runner itself, are left alone: it acts only in a process whose main module
// is a test file of an in-process tier.

import childProcess from "node:child_process";
import net from "node:net";
import { sep } from "node:path";

/** The modules the guard patches, for its own test (which may not import them). */
export const guarded = { childProcess, net };

/** The folders of test/out whose files run in process only. */
export const IN_PROCESS_TIERS = ["unit", "service", "conformance"] as const;

const SPAWNERS = ["spawn", "spawnSync", "fork", "exec", "execSync", "execFile", "execFileSync"] as const;
type Spawner = (typeof SPAWNERS)[number];

/** The in-process tier a main module belongs to, or undefined for any other file. */
export function inProcessTier(mainModule: string | undefined): string | undefined {
  if (!mainModule) return undefined;
  const parts = mainModule.split(sep);
  const out = parts.lastIndexOf("out");
  if (out < 1 || parts[out - 1] !== "test") return undefined;
  const tier = parts[out + 1];
  return (IN_PROCESS_TIERS as readonly string[]).includes(tier ?? "") && parts.length > out + 2 ? tier : undefined;
}

function refusal(tier: string, what: string): Error {
  return new Error(
    `test/${tier} runs in process: this test ${what}. A test that starts processes or opens sockets ` +
      "belongs in test/cli (the CLI through test/support/cliWorkspace.ts) or test/integration (CONTRIBUTING.md, Tests).",
  );
}

/** Replaces the ways to start a process or open a socket with refusals; returns what puts them back. */
export function forbidProcessesAndSockets(tier: string): () => void {
  const spawners = childProcess as unknown as Record<Spawner, (...args: unknown[]) => unknown>;
  const saved = SPAWNERS.map((name) => [name, spawners[name]] as const);
  for (const name of SPAWNERS)
    spawners[name] = (...args: unknown[]) => {
      throw refusal(tier, `started a child process (${name} ${String(args[0])})`);
    };
  const { listen } = net.Server.prototype;
  const { connect } = net.Socket.prototype;
  net.Server.prototype.listen = function refusedListen(): never {
    throw refusal(tier, "listened on a socket");
  };
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    // net.connect passes its normalized arguments as one array. A local pipe (IPC path) is not
    // the network: only host/port connections are refused.
    const first: unknown = Array.isArray(args[0]) ? args[0][0] : args[0];
    const pipe = typeof first === "string" || (typeof first === "object" && first !== null && "path" in first);
    if (!pipe) throw refusal(tier, "connected to a socket");
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof connect;
  return () => {
    for (const [name, original] of saved) spawners[name] = original;
    net.Server.prototype.listen = listen;
    net.Socket.prototype.connect = connect;
  };
}

const tier = inProcessTier(process.argv[1]);
if (tier) forbidProcessesAndSockets(tier);
