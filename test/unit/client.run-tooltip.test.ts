// A run's tooltip in Plan Runs (client/src/runTooltip.ts, what runsView.ts shows on hover), in
// process. A test case's run (as `rlm-plan test` or the Testing view records it) arrives in Plan
// Runs as the journal's summary, without its host profile; its tooltip said "Host profile: none"
// though the case ran under the workspace's profile (issue 41, item 4). On hover the run is now
// read whole from the journal first (as JournalRuns.load does through rlmPlan/journalRun), and
// the tooltip names the profile. A run the editor started names its profile without a read.

import { strict as assert } from "node:assert";
import { test } from "node:test";
import type { RunRecord } from "rlm-plan-client/runLog";
import { resolvedRunTooltip, type TooltipPart } from "rlm-plan-client/runTooltip";

const WORDS = {
  show: (uriOrPath: string) => uriOrPath.replace(/^(file:\/\/)?\/w\//, ""),
  ms: (value: number) => `${value} ms`,
};
const STARTED = "2026-12-05T14:00:00.000Z";

/** A test case's run as the journal lists it (journalRuns.ts listedRecord): no host profile yet. */
function listedCase(): RunRecord {
  return {
    id: "journal:5f0c",
    number: 3,
    plan: "file:///w/mocks/triage.rlmplan.json",
    hostProfile: null,
    startedAt: STARTED,
    serverRunId: "",
    status: "succeeded",
    durationMs: 168,
    transitions: [],
    journal: {
      dir: "/w/.rlm-plan",
      id: 3,
      uid: "5f0c",
      origin: "test",
      label: "tests/triage.rlmplan.test.json#labels a news page",
      loaded: false,
    },
  };
}

/** What reading the run whole fills in (JournalRuns.load): the journal's host_file among the rest. */
async function readWhole(record: RunRecord): Promise<RunRecord> {
  Object.assign(record, { hostProfile: "file:///w/rlmplan.host.json", value: { label: "news" } });
  if (record.journal) Object.assign(record.journal, { loaded: true });
  return record;
}

const text = (parts: readonly TooltipPart[]) => parts.map((p) => ("markdown" in p ? p.markdown : p.text)).join("");

test("a test case's run listed from the journal names the workspace's host profile on hover, not none", async () => {
  const record = listedCase();
  let reads = 0;
  const parts = await resolvedRunTooltip(record, (r) => (reads++, readWhole(r)), WORDS);
  assert.equal(
    text(parts),
    `**Run 3** of \`mocks/triage.rlmplan.json\`: succeeded\n\n` +
      `Started ${new Date(STARTED).toLocaleString()} · 168 ms\n\n` +
      "Host profile: `rlmplan.host.json`\n\n" +
      "Run 3 in the run journal `/w/.rlm-plan`\n\n",
  );
  assert.equal(reads, 1);
  // Read once: a second hover describes the record as read.
  await resolvedRunTooltip(record, (r) => (reads++, readWhole(r)), WORDS);
  assert.equal(reads, 1);
});

test("a run the editor started is described as it is: its profile, or none when it had none; an error as text", async () => {
  const editor: RunRecord = {
    id: "r9",
    number: 9,
    plan: "file:///w/plans/a.rlmplan.json",
    hostProfile: null,
    startedAt: STARTED,
    serverRunId: "s1",
    status: "failed",
    transitions: [],
    error: { phase: "execute", kind: "tool_failed", message: "the tool *said* no" },
  };
  const parts = await resolvedRunTooltip(
    editor,
    () => assert.fail("an editor run is not read from the journal"),
    WORDS,
  );
  assert.deepEqual(parts.slice(2), [
    { markdown: "Host profile: `none`\n\n" },
    { markdown: "Error (execute/tool_failed): " },
    { text: "the tool *said* no" },
  ]);
});
