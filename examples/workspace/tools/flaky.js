#!/usr/bin/env node
// A command tool that fails on its first call and succeeds on the next one, to show retry.
// Its state is a file under the system's temporary folder, keyed by FLAKY_KEY when the host
// passes it, else by the id of the rlm-plan process that started the tool (one run; the tool's
// parent is the supervisor rlm-plan runs every tool under, so that is its grandparent), so every
// run starts with a failure. The file is removed when the call succeeds.
"use strict";

const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const args = JSON.parse(input || "null");
  const key = (process.env.FLAKY_KEY || String(runtimePid())).replace(/[^A-Za-z0-9_-]/g, "_");
  const state = path.join(os.tmpdir(), `rlm-plan-flaky-${key}`);
  if (!fs.existsSync(state)) {
    fs.writeFileSync(state, "failed once\n");
    process.stderr.write("flaky_fetch: simulated transient failure, try again\n");
    process.exit(1);
  }
  fs.rmSync(state, { force: true });
  const url = args && typeof args.url === "string" ? args.url : "(no url)";
  process.stdout.write(JSON.stringify({ url, status: 200, body: `the page at ${url}, fetched on the second try` }));
});

/** The supervisor's parent where /proc tells it, else the parent. */
function runtimePid() {
  try {
    const stat = fs.readFileSync(`/proc/${process.ppid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return process.ppid;
  }
}
