// The workspace boundary in the editor: a host profile whose text-file input lies outside the
// workspace gets the located refusal as its diagnostic, and the user's rlmPlan.allowPaths (sent
// by the client; VS Code's is application-scoped, so a workspace cannot set it) lets that folder
// through, the profile read again as the setting changes.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { hostProfile, LspClient, rangeOf, TempWorkspace } from "./support/lspClient";

const outside = mkdtempSync(join(tmpdir(), "rlm-plan-allow-"));
const notes = join(outside, "notes.txt");
writeFileSync(notes, "outside\n");
const workspace = new TempWorkspace({});
const clients: LspClient[] = [];
after(async () => {
  for (const client of clients) await client.stop();
  workspace.dispose();
  rmSync(outside, { recursive: true, force: true });
});

const PROFILE = hostProfile({ capabilities: [], inputs: { notes: { type: "text-file", path: notes } } });

describe("rlmPlan.allowPaths", () => {
  it("refuses an outside path at its string until the user's setting allows its folder", async () => {
    const client = await LspClient.start({ root: workspace.root, settings: {} });
    clients.push(client);
    const uri = await client.open(workspace.path("rlmplan.host.json"), PROFILE, "json");
    const refused = await client.waitForDiagnostics(uri, (list) => list.length > 0);
    assert.deepEqual(
      refused.map((d) => [d.range, d.message]),
      [
        [
          rangeOf(PROFILE, JSON.stringify(notes)),
          `${JSON.stringify(notes)} is outside the workspace (${workspace.root}): a path in a workspace file must stay in the folder of the host profile or of the repository; allow an outside folder with --allow-path DIR on the command line or rlmPlan.allowPaths in the user settings`,
        ],
      ],
    );

    await client.configure({ allowPaths: [outside] });
    assert.deepEqual(await client.waitForDiagnostics(uri, (list) => list.length === 0), []);

    await client.configure({ allowPaths: [] });
    const again = await client.waitForDiagnostics(uri, (list) => list.length > 0);
    assert.equal(again.length, 1);
  });
});
