// Hover on names, in process: a variable reference (where and by what it is bound), an
// input (the host's description), a tool and a provider (what the host registered, never a key).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hover as hoverOf } from "@rlm-plan/language-server/service/hover";
import { rangeOf } from "../protocol/support/lspClient";
import { at, HOST, PLAN } from "../support/sampleWorkspace";
import { analyzedAt, hoverValue, onTheWire, type PlanOptions } from "./support/analyzed";

describe("hover: names", () => {
  function hover(marked: string, options: PlanOptions = { host: HOST }) {
    const { plan, position, text } = analyzedAt(marked, options);
    const result = onTheWire(hoverOf(plan, position));
    return { value: hoverValue(result), range: result?.range, text };
  }

  it("on a variable reference: the line and the step that binds it", () => {
    const { value, range, text } = hover(at(PLAN, '"name": "h|its"'));
    assert.equal(
      value,
      "**variable** `hits`\n\n**Type:** `array<{index: integer, value: string}>` (the result of the context search)\n\n" +
        "Bound on line 3 by **context** `search` → `hits`",
    );
    assert.deepEqual(range, rangeOf(text, '"hits"', '"args"'));
    const inner = hover(at(PLAN, '"name": "n|"}}'));
    assert.equal(inner.value, "**variable** `n`\n\nBound on line 6 by **tool** `count_items` → `n`");
  });

  it("on a variable that is not in scope here", () => {
    const plan = PLAN.replace('"prompt": {"ref": "var", "name": "count"}', '"prompt": {"ref": "var", "name": "n"}');
    const { value } = hover(at(plan, '"name": "n|"}, "bind": "answer"'));
    assert.equal(
      value,
      "**variable** `n`\n\nNot bound here: bind it in an earlier step of this plan or an enclosing one.",
    );
  });

  it("on an input: the host's summary and description", () => {
    const { value } = hover(at(PLAN, '"name": "d|oc"'));
    assert.equal(
      value,
      "**input** `doc`\n\ncontext: inline text (5 characters)\n\nThe document to search\n\nDefined in `rlmplan.host.json`.",
    );
  });

  it("on a tool name: built-in or the command's program, never its arguments", () => {
    const builtin = hover(at(PLAN, '"name": "count_i|tems"'));
    assert.equal(
      builtin.value,
      "**tool** `count_items`\n\nbuilt-in tool `count_items`\n\nCounts the items of a list\n\nDefined in `rlmplan.host.json`.",
    );
    const command = hover(at(PLAN.replace('"name": "count_items"', '"name": "fetch"'), '"name": "fe|tch"'));
    assert.equal(
      command.value,
      "**tool** `fetch`\n\ncommand `python3` (run without a shell, JSON on stdin and stdout)\n\nFetches a page\n\nDefined in `rlmplan.host.json`.",
    );
    assert.doesNotMatch(command.value ?? "", /secret/);
    const unknown = hover(at(PLAN.replace('"name": "count_items"', '"name": "nope"'), '"name": "no|pe"'));
    assert.equal(unknown.value, '**tool** `nope`\n\nNot defined in `rlmplan.host.json`: add it under "tools".');
  });

  it("on a provider: the endpoint's origin and the model, never the key or its variable", () => {
    const { value } = hover(at(PLAN, '"provider": "lo|cal"'));
    assert.equal(
      value,
      "**provider** `local`\n\nOpenAI-compatible chat endpoint `http://127.0.0.1:8080`, model `tiny`\n\nA small local model\n\nDefined in `rlmplan.host.json`.",
    );
    assert.doesNotMatch(value ?? "", /SECRET|KEY|\/v1/);
  });

  it("without a host profile, says where inputs and tools come from", () => {
    const tool = hover(at(PLAN, '"name": "count_i|tems"'), {});
    assert.equal(
      tool.value,
      "**tool** `count_items`\n\nNo host profile (rlmplan.host.json) found: the host defines tools.",
    );
    const input = hover(at(PLAN, '"name": "d|oc"'), {});
    assert.equal(input.value, "**input** `doc`\n\nNo host profile (rlmplan.host.json) found: the host defines inputs.");
  });
});
