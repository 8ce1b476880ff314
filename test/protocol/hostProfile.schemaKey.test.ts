// Host-profile help over the protocol whatever the profile's own `"$schema"` says: a URL (never
// fetched) or the examples' relative path, hover on a budget key and completion inside the budget
// object answer from the host profile's schema.

import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { fixture, LspClient, TempWorkspace } from "@rlm-plan/lsp-harness";

const clients: LspClient[] = [];
const workspaces: TempWorkspace[] = [];

after(async () => {
  for (const client of clients) await client.stop();
  for (const workspace of workspaces) workspace.dispose();
});

// Sorted: max_cost is the host profile's own (money), beside the plan budget's fields.
const BUDGET_FIELDS = [
  "max_context_ops",
  "max_cost",
  "max_depth",
  "max_model_calls",
  "max_output_bytes",
  "max_parallel",
  "max_steps",
  "max_tool_calls",
  "time_limit",
];

describe('host profile help with a "$schema" key', () => {
  for (const [what, schema] of [
    ["none", undefined],
    ["a URL", "https://example.invalid/rlm-plan/host-profile.schema.json"],
    ["the examples' relative path", "../../shared-runtime/schemas/host-profile.schema.json"],
  ] as const) {
    it(`hover and completion answer with ${what}`, async () => {
      const workspace = new TempWorkspace({});
      workspaces.push(workspace);
      const client = await LspClient.start({ root: workspace.root });
      clients.push(client);
      const head = schema === undefined ? "" : `"$schema": ${JSON.stringify(schema)}, `;

      const hovered = fixture(`{ ${head}"bud|get": { "max_steps": 4 }, "capabilities": [] }`);
      const uri = await client.open(workspace.path("rlmplan.host.json"), hovered.text, "json");
      const hover = await client.hover(uri, hovered.position);
      const value =
        hover && typeof hover.contents === "object" && "value" in hover.contents ? hover.contents.value : "";
      assert.match(value, /^A partial budget over the defaults/);

      const completed = fixture(`{ ${head}"budget": { | }, "capabilities": [] }`);
      await client.change(uri, completed.text);
      const items = await client.completion(uri, completed.position);
      assert.deepEqual(items.map((item) => item.label).sort(), BUDGET_FIELDS);
    });
  }
});
