#!/usr/bin/env bash
# `npm test`'s node --test part, tier by tier (CONTRIBUTING.md, Tests), each tier's wall time
# printed after it: the in-process tiers (unit, language features, conformance) under the guard
# that fails a test starting a process or opening a socket (test/support/inProcessOnly.ts); the
# process tiers (CLI, integration, protocol, debug adapter, Neovim), two files at a time; then the
# end-to-end suite alone (it drives one code-server and one Chromium and must not share the
# machine with other test files; it runs in the newest VS Code, code-server 4.139.1). Build first
# (`npm run build`; `npm test` does). CI runs the Node 22 and 24 tiers after it (scripts/test-node.sh).
#
#   bash scripts/test-tiers.sh                  every tier
#   bash scripts/test-tiers.sh in-process e2e   the named parts only (in-process, process, e2e)
#
# RLM_PLAN_HOSTILE=1 (CI sets it) adds the minutes-long hostile cases; TEST_CONCURRENCY sets how
# many files of the process tiers run at once (2 by default).
set -euo pipefail
cd "$(dirname "$0")/.."
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(in-process process e2e)
concurrency=${TEST_CONCURRENCY:-2}
times=()
for part in "${parts[@]}"; do
  start=$SECONDS
  case $part in
    in-process)
      node --require ./test/out/support/inProcessOnly.js --test --test-reporter=spec --test-concurrency="$concurrency" \
        test/out/unit/ test/out/service/ test/out/conformance/
      ;;
    process)
      node --test --test-reporter=spec --test-concurrency="$concurrency" \
        test/out/cli/ test/out/integration/ test/out/protocol/ test/out/debug/ test/out/neovim/ test/out/emacs/
      ;;
    e2e)
      node --test --test-reporter=spec test/e2e/e2e.test.mjs
      ;;
    *)
      echo "test-tiers: no part named $part (in-process, process, e2e)" >&2
      exit 2
      ;;
  esac
  times+=("$part $((SECONDS - start)) s")
done
echo "test-tiers: $(IFS=,; echo "${times[*]}" | sed 's/,/, /g') (RLM_PLAN_HOSTILE=${RLM_PLAN_HOSTILE:-unset}, load $(cut -d' ' -f1-3 /proc/loadavg))"
