// OpenTelemetry is loaded only for a run that exports a trace (issue 35 item 9): the session
// requires the run trace, and with it the four @opentelemetry packages, when the profile's
// `telemetry.otlp` (or the user's URL) asks for one. A run without telemetry, recorded in the
// journal like every run, leaves no @opentelemetry module in require.cache.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openPlanSession } from "@rlm-plan/core/session";

const dir = mkdtempSync(join(tmpdir(), "rlm-lazy-otel-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const loaded = (part: string) => Object.keys(require.cache).filter((file) => file.includes(part));

test("a recorded run without telemetry loads no OpenTelemetry module", async () => {
  writeFileSync(join(dir, "rlmplan.host.json"), JSON.stringify({ capabilities: [] }));
  writeFileSync(join(dir, "one.rlmplan.json"), JSON.stringify({ steps: [{ op: "final", value: 1 }] }));
  const opened = await openPlanSession({ file: join(dir, "one.rlmplan.json") });
  assert.ok(opened.ok);
  const run = opened.session.run({ life: { origin: "cli" } });
  const report = await run.done;
  await run.settled();
  assert.deepEqual(report.outcome.ok && report.outcome.value, 1);
  assert.equal(run.recorded?.id, 1, "recorded in the journal beside the profile");
  assert.deepEqual(loaded(`${join("node_modules", "@opentelemetry")}`), []);
  assert.deepEqual(loaded(join("telemetry", "runTrace")), []);
});
