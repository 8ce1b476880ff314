// The end-to-end test: the packaged extension in a real VS Code, driven through Debian's
// Chromium, one subtest per scenario (see run.mjs). It runs in the newest VS Code that installs
// here, code-server 4.139.1 (VS Code 1.139) on Node 24 from the npm registry: what users run, and
// what `npm test` and CI run. e2e.oldest.test.mjs runs the same scenarios in code-server 4.96.4
// (VS Code 1.96, the oldest engines.vscode allows; E2E_VSCODE=oldest), an optional tier. It runs
// whenever Chromium and code-server are installed (bash scripts/install-e2e.sh) and says plainly
// when it skips.
// It builds rlm-plan.vsix with `npm run package` when the file is missing or stale.
//
//   node --test --test-reporter=spec test/e2e/e2e.test.mjs
//
// E2E_ONLY=ij runs only the scenarios tagged (i) and (j); E2E_KEEP=1 keeps the working folder (code-server logs, workspace copies); screenshots of each
// scenario go to test/e2e/screenshots/ (E2E_SCREENSHOTS); E2E_SKIP=1 skips. E2E_FLOOR=1 adds VS Code's
// floor to scenario (a)'s first-diagnostic timing (a second window; firstDiagnostic.mjs), E2E_PROFILE=FILE a
// CPU profile of the page.

import assert from "node:assert/strict";
import { test } from "node:test";
import { VARIANT } from "./harness.mjs";
import { Session, checkManifest, ensureVsix, missingPrerequisite, scenarios } from "./run.mjs";

/** The scenarios' letters, by session (every scenario is in one; a new one goes in the second). */
const SESSIONS = ["abcdefgh", "ijklmnopqrstuvwxyz"];

test(
  `e2e: the extension in a real VS Code (code-server ${VARIANT.version} + Chromium)`,
  { timeout: Number(process.env.E2E_TOTAL_TIMEOUT ?? 900000 * VARIANT.slower) },
  async (t) => {
    const missing = missingPrerequisite();
    if (missing) {
      console.log(`e2e: SKIPPED: ${missing}`);
      t.skip(`e2e: SKIPPED: ${missing}`);
      return;
    }
    checkManifest();
    await ensureVsix();
    // E2E_ONLY=dh runs scenarios (d) and (h) only, for working on them.
    const only = process.env.E2E_ONLY;
    const letter = (scenario) => /^\((\w)\)/.exec(scenario.name)?.[1] ?? "";
    // Two sessions, one after the other (a code-server and a browser each): in VS Code 1.139 the
    // window's first webview, (i)'s graph, got no page frame within 120 s after (a)-(h) had run in
    // the same window, in three full runs out of three (the view created at once, loaded again by
    // the panel, nothing in either console), while (g)+(i) and (h)+(i) alone passed; (j) already
    // opens a window of its own for the same reason. The cause is not found (bench/README.md).
    for (const group of SESSIONS) {
      const chosen = scenarios.filter((s) => group.includes(letter(s)) && (!only || only.includes(letter(s))));
      if (chosen.length === 0) continue;
      const session = await Session.start();
      try {
        for (const scenario of chosen) {
          await t.test(scenario.name, { timeout: (scenario.timeout ?? 120000) * VARIANT.slower }, async () => {
            try {
              await scenario.run(session, assert);
            } catch (error) {
              await session.failureShot(scenario.name);
              throw error;
            }
          });
        }
      } finally {
        await session.close();
      }
    }
  },
);
