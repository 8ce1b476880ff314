// Whether a `running` run's process is alive (journal/liveness.ts): the pid alone is not the
// process. A run records its process's identity (the boot's id and the start time); a live pid
// whose identity differs is another process that got the pid since (pids are reused, and start
// again from 1 in a container), so the run is interrupted and may be resumed. The zombie case
// (killed, not yet collected) is test/cli/journal.resume.test.ts's, which needs a child process.

import assert from "node:assert/strict";
import fs from "node:fs";
import { hostname } from "node:os";
import { test } from "node:test";
import { processAlive, processIdentity } from "@rlm-plan/core/journal/liveness";

const linux = process.platform === "linux";

test("this process's identity: the boot's id and its start time", { skip: !linux && "needs /proc" }, () => {
  assert.match(processIdentity() ?? "", /^[0-9a-f-]{36}:\d+$/);
  assert.equal(processIdentity(), processIdentity(process.pid));
});

test(
  "this process's identity is read from /proc once, not once per run recorded",
  { skip: !linux && "needs /proc" },
  () => {
    const first = processIdentity();
    const read = fs.readFileSync;
    const reads: string[] = [];
    fs.readFileSync = ((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
      if (String(file).startsWith("/proc/")) reads.push(String(file));
      return (read as (...args: unknown[]) => unknown)(file, ...rest);
    }) as typeof fs.readFileSync;
    try {
      for (let i = 0; i < 3; i++) assert.equal(processIdentity(), first);
    } finally {
      fs.readFileSync = read;
    }
    assert.deepEqual(reads, []);
  },
);

test("a live pid is the run's process only with the recorded identity", { skip: !linux && "needs /proc" }, () => {
  const me = processIdentity();
  assert.equal(processAlive(process.pid, hostname(), me), true);
  // The same pid, started at another time (or before a reboot): another process has the pid now.
  const [boot, start] = (me ?? ":").split(":");
  assert.equal(processAlive(process.pid, hostname(), `${boot}:${Number(start) + 1}`), false);
  assert.equal(processAlive(process.pid, hostname(), `00000000-0000-0000-0000-000000000000:${start}`), false);
  // A run recorded before identities were: the pid alone decides, as before.
  assert.equal(processAlive(process.pid, hostname(), null), true);
});

test("no pid, a pid no process has, another machine's run", () => {
  assert.equal(processAlive(null, hostname(), null), false);
  // Above the kernel's pid_max (2^22 at most on Linux): no process has it.
  assert.equal(processAlive(2 ** 22 + 17, hostname(), null), false);
  assert.equal(processAlive(2 ** 22 + 17, "another-machine", "x:1"), true);
});
