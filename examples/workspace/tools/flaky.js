#!/usr/bin/env node
// A command tool that fails on its first call and succeeds on the next one, to show retry.
// Its state is a file in the workspace's state/ folder (the one path it declares it writes: in the
// sandbox the rest of the workspace is read-only and /tmp is private to each call), keyed by
// FLAKY_KEY when the host passes it. The file is removed when the call succeeds, so each run
// starts with a failure.
"use strict";

const fs = require("node:fs");
const path = require("node:path");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const args = JSON.parse(input || "null");
  const key = (process.env.FLAKY_KEY || "default").replace(/[^A-Za-z0-9_-]/g, "_");
  const state = path.join(__dirname, "..", "state", `flaky-${key}`);
  if (!fs.existsSync(state)) {
    fs.writeFileSync(state, "failed once\n");
    process.stderr.write("flaky_fetch: simulated transient failure, try again\n");
    process.exit(1);
  }
  fs.rmSync(state, { force: true });
  const url = args && typeof args.url === "string" ? args.url : "(no url)";
  process.stdout.write(JSON.stringify({ url, status: 200, body: `the page at ${url}, fetched on the second try` }));
});
