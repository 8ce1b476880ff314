// The sandbox's escape suite: a hostile command tool (test/fixtures/tools/sandbox-attacker.js),
// run by `rlm-plan run` as a user would, tries every escape of issue 37 in one plan. With the
// profile's `"sandbox": "required"` every attempt must fail, checked from the host's side as well
// (the file is not there, the listener heard nothing, no process is left); with `"sandbox": "off"`
// the same plan shows each escape working, so the suite can see one. The results are printed as
// one JSON report (a test diagnostic, in CI's log).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cgroupRoot } from "@rlm-plan/core/host/toolCgroup";
import { sandboxAvailability } from "@rlm-plan/core/host";
import { childOutput } from "../support/childOutput";
import { CLI, cliWorkspace, ROOT } from "../support/cliWorkspace";

const ATTACKER = join(ROOT, "test", "fixtures", "tools", "sandbox-attacker.js");
const FORK_COUNT = 600;
const available = sandboxAvailability();
// CI installs bubblewrap (scripts/install-e2e.sh): there the suite may not skip.
const skip = available.available ? false : process.env.CI === "true" ? false : `no sandbox here: ${available.reason}`;

interface Listeners {
  tcpPort: number;
  tcpConnections: number;
  unixPath: string;
  unixConnections: number;
  abstractName: string;
  abstractConnections: number;
  dnsPort: number;
  dnsQueries: number;
  close(): Promise<void>;
}

/** What a tool might reach on the host: a TCP and a unix listener (by path and abstract), a DNS server. */
async function listen(): Promise<Listeners> {
  const state = { tcpConnections: 0, unixConnections: 0, abstractConnections: 0, dnsQueries: 0 };
  const serve = (count: keyof typeof state, where: { port: number } | { path: string }) =>
    new Promise<Server>((resolve) => {
      const server = createServer((socket) => {
        state[count]++;
        socket.destroy();
      });
      server.listen({ ...where, host: "port" in where ? "127.0.0.1" : undefined }, () => resolve(server));
    });
  const tcp = await serve("tcpConnections", { port: 0 });
  // /run is where sockets of other programs live (a Docker socket among them).
  const unixPath = join(existsSync("/run") ? "/run" : "/tmp", `rlm-plan-escape-${process.pid}.sock`);
  rmSync(unixPath, { force: true });
  const unix = await serve("unixConnections", { path: unixPath });
  const abstractName = `\0rlm-plan-escape-${process.pid}`;
  const abstract = await serve("abstractConnections", { path: abstractName });
  const dns: UdpSocket = createSocket("udp4");
  dns.on("message", (query, from) => {
    state.dnsQueries++;
    dns.send(dnsAnswer(query), from.port, from.address);
  });
  await new Promise<void>((resolve) => dns.bind(0, "127.0.0.1", resolve));
  return {
    get tcpConnections() {
      return state.tcpConnections;
    },
    get unixConnections() {
      return state.unixConnections;
    },
    get abstractConnections() {
      return state.abstractConnections;
    },
    get dnsQueries() {
      return state.dnsQueries;
    },
    tcpPort: (tcp.address() as { port: number }).port,
    unixPath,
    abstractName,
    dnsPort: dns.address().port,
    async close() {
      await Promise.all([tcp, unix, abstract].map((server) => new Promise((r) => server.close(r))));
      dns.close();
      rmSync(unixPath, { force: true });
    },
  } as Listeners;
}

/** A DNS answer to `query`'s one question: the address 10.9.8.7. */
function dnsAnswer(query: Buffer): Buffer {
  const header = Buffer.from(query.subarray(0, 12));
  header.writeUInt16BE(0x8180, 2); // a response, recursion available, no error
  header.writeUInt16BE(1, 6); // one answer
  const question = query.subarray(12);
  const answer = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 9, 8, 7]);
  return Buffer.concat([header, question, answer]);
}

interface Attempt {
  readonly escaped: boolean;
  readonly detail: string;
}

const ws = cliWorkspace("sandbox-escapes");
const home = join(ws.dir, "home");
const KEY_SECRET = `ssh-key-${process.pid}-secret`;
const RUNNER_SECRET = `runner-secret-${process.pid}-value`;
let listeners: Listeners;
/** The host's /proc/1/environ by hash, where this process may read it (not in every container). */
const HOST_INIT_HASH = (() => {
  try {
    return createHash("sha256").update(readFileSync("/proc/1/environ")).digest("hex");
  } catch {
    return undefined;
  }
})();

before(async () => {
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_ed25519"), `-----BEGIN KEY-----\n${KEY_SECRET}\n`);
  listeners = await listen();
});
after(async () => listeners?.close());

/** Runs the attack plan in a workspace whose profile sets `sandbox`; the attempts' answers by name. */
async function attack(sandbox: "required" | "off"): Promise<Record<string, Attempt>> {
  const folder = join(ws.dir, sandbox);
  mkdirSync(join(folder, "out"), { recursive: true });
  const attempts: Record<string, Record<string, unknown>> = {
    "write-undeclared": { path: join(folder, "escaped.txt") },
    "write-declared": { path: join(folder, "out", "allowed.txt") },
    "read-ssh-key": { home, secret: KEY_SECRET },
    "read-runner-environ": { secret: RUNNER_SECRET },
    "read-init-environ": { hostInitHash: HOST_INIT_HASH ?? "unreadable here" },
    "tcp-connect": { port: listeners.tcpPort },
    "unix-connect": { path: listeners.unixPath },
    "unix-abstract": { path: listeners.abstractName },
    dns: { port: listeners.dnsPort },
    "signal-runner": { pid: process.pid },
    "fork-bomb": { count: FORK_COUNT },
    "leave-behind": { marker: `rlm-plan-escape-marker-${sandbox}-${process.pid}` },
  };
  writeFileSync(
    join(folder, "rlmplan.host.json"),
    JSON.stringify({
      capabilities: ["tool(attack)"],
      budget: { time_limit: 300, max_steps: 64, max_tool_calls: 32 },
      sandbox,
      tools: {
        attack: { type: "command", command: [process.execPath, ATTACKER], writes: ["out"], timeoutMs: 120_000 },
      },
    }),
  );
  const names = Object.keys(attempts);
  const steps = names.map((name, i) => ({
    op: "tool",
    name: "attack",
    args: { attempt: name === "unix-abstract" ? "unix-connect" : name, ...attempts[name] },
    bind: `a${i}`,
  }));
  const value = Object.fromEntries(names.map((name, i) => [name, { ref: "var", name: `a${i}` }]));
  writeFileSync(join(folder, "attack.rlmplan.json"), JSON.stringify({ steps: [...steps, { op: "final", value }] }));
  const child = spawn(process.execPath, [CLI, "run", "attack.rlmplan.json", "--json", "--no-journal"], {
    cwd: folder,
    env: { ...process.env, HOME: home, RLM_ESCAPE_RUNNER_SECRET: RUNNER_SECRET, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const result = await childOutput(child);
  assert.equal(result.code, 0, result.stderr);
  // `run --json` writes one JSON line per transition, then the result.
  const lines = result.stdout.trim().split("\n");
  const outcome = JSON.parse(lines[lines.length - 1]!) as { type: string; value: Record<string, Attempt> };
  assert.equal(outcome.type, "result");
  return outcome.value;
}

/** Processes (zombies aside) whose command line holds `marker`. */
function processesNaming(marker: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const status = readFileSync(`/proc/${pid}/stat`, "utf8");
        return !/\) Z /.test(status) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function leftAfterRun(marker: string): Promise<number[]> {
  // The supervisor and bubblewrap end what is left as the run ends; give SIGKILL a moment.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return processesNaming(marker);
}

const report: Record<string, Record<string, unknown>> = {};

describe("the sandbox's escape suite", { skip }, () => {
  test('"sandbox": "required": every escape fails, seen from the tool and from the host', async (t) => {
    const answers = await attack("required");
    const folder = join(ws.dir, "required");
    const left = await leftAfterRun(`rlm-plan-escape-marker-required-${process.pid}`);
    report.required = { ...answers, hostSide: { left, tcp: listeners.tcpConnections } };
    assert.equal(existsSync(join(folder, "escaped.txt")), false, "an undeclared write reached the workspace");
    assert.match(answers["write-undeclared"]!.detail, /refused: EROFS/);
    assert.equal(readFileSync(join(folder, "out", "allowed.txt"), "utf8"), "allowed");
    assert.match(answers["read-ssh-key"]!.detail, /refused: ENOENT/);
    assert.equal(answers["read-runner-environ"]!.escaped, false, answers["read-runner-environ"]!.detail);
    assert.equal(answers["read-init-environ"]!.escaped, false);
    assert.equal(answers["tcp-connect"]!.escaped, false, answers["tcp-connect"]!.detail);
    assert.equal(answers["unix-connect"]!.escaped, false, answers["unix-connect"]!.detail);
    assert.equal(answers["unix-abstract"]!.escaped, false, answers["unix-abstract"]!.detail);
    assert.equal(answers.dns!.escaped, false, answers.dns!.detail);
    assert.match(answers["signal-runner"]!.detail, /refused: ESRCH/);
    assert.equal(answers["fork-bomb"]!.escaped, false, answers["fork-bomb"]!.detail);
    assert.match(answers["fork-bomb"]!.detail, /^started \d+ of 600 \(EAGAIN\)$/);
    assert.deepEqual(left, [], "a process outlived the run");
    assert.deepEqual(
      [listeners.tcpConnections, listeners.unixConnections, listeners.abstractConnections, listeners.dnsQueries],
      [0, 0, 0, 0],
      "a listener on the host heard from the tool",
    );
    t.diagnostic(`sandbox escape report (required): ${JSON.stringify(report.required)}`);
  });

  test('"sandbox": "off": the same attempts escape, so the suite can see one', async (t) => {
    const answers = await attack("off");
    const folder = join(ws.dir, "off");
    const marker = `rlm-plan-escape-marker-off-${process.pid}`;
    const left = await leftAfterRun(marker);
    for (const pid of left) process.kill(pid, "SIGKILL");
    report.off = { ...answers, hostSide: { left } };
    assert.equal(readFileSync(join(folder, "escaped.txt"), "utf8"), "escaped");
    // Where the host itself may not read /proc/1/environ, neither may an unsandboxed tool.
    assert.equal(answers["read-init-environ"]!.escaped, HOST_INIT_HASH !== undefined);
    for (const name of [
      "read-ssh-key",
      "read-runner-environ",
      "tcp-connect",
      "unix-connect",
      "unix-abstract",
      "dns",
      "signal-runner",
      "fork-bomb",
    ])
      assert.equal(answers[name]!.escaped, true, `${name}: ${answers[name]!.detail}`);
    assert.deepEqual(
      [listeners.tcpConnections, listeners.unixConnections, listeners.abstractConnections, listeners.dnsQueries],
      [1, 1, 1, 1],
    );
    // Without the sandbox a process left behind is still ended by the supervisor's cgroup where
    // there is one (host/toolCgroup.ts); only where there is none does it outlive the run.
    assert.equal(left.length, cgroupRoot() === undefined ? 1 : 0);
    t.diagnostic(`sandbox escape report (off): ${JSON.stringify(report.off)}`);
  });
});
