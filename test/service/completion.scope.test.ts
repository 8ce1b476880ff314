// Completion of variables past the limit, in process: with 250 names in scope, the nearest 200
// that match what is typed, marked incomplete so the client asks again as the user types. (Which
// names are in scope at each place is completion/'s golden files, scope-*.)

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { completion } from "@rlm-plan/language-server/service/completion";
import type { CompletionList } from "vscode-languageserver-protocol";
import { analyzedAt, onTheWire } from "./support/analyzed";

describe("completion: variables in scope, a bound", () => {
  it("past 200 names in scope: the nearest 200 that match what is typed, marked incomplete", () => {
    const steps = Array.from({ length: 250 }, (_, i) => `{"op": "tool", "name": "t", "args": [], "bind": "v${i}"}`);
    const raw = (typed: string): CompletionList => {
      const { plan, position } = analyzedAt(
        `{"steps": [${steps.join(",\n")},\n{"op": "final", "value": {"ref": "var", "name": "${typed}|"}}]}`,
      );
      const result = onTheWire(completion(plan, position));
      assert.ok(!Array.isArray(result), "a completion list");
      return result;
    };
    const all = raw("");
    assert.equal(all.isIncomplete, true);
    assert.deepEqual(
      all.items.map((item) => item.label),
      Array.from({ length: 200 }, (_, i) => `v${i + 50}`),
    );
    const narrowed = raw("v1");
    assert.equal(narrowed.isIncomplete, true);
    assert.deepEqual(
      narrowed.items.map((item) => item.label),
      [
        "v1",
        ...Array.from({ length: 10 }, (_, i) => `v${10 + i}`),
        ...Array.from({ length: 100 }, (_, i) => `v${100 + i}`),
      ],
    );
  });
});
