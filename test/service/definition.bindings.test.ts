// Go to definition, in process: a variable reference goes to the "bind" that binds it in
// scope (a sibling branch's binding of the same name is another variable); an input, tool or
// provider name goes to its entry in the host profile.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { definition as definitionOf } from "@rlm-plan/language-server/service/definition";
import type { Location } from "vscode-languageserver-protocol";
import { cursorIn, nthRange, SCOPED_HOST_TEXT, SCOPED_PLAN } from "../support/scopedPlan";
import { analyzedAt, HOST_URI, onTheWire, usableHostProfile } from "./support/analyzed";

describe("definition: bindings and host names", () => {
  const options = { host: SCOPED_HOST_TEXT, name: "scoped.rlmplan.json" };
  const planUri = analyzedAt("|{}", options).uri;
  const hostUri = HOST_URI;
  const host = usableHostProfile(SCOPED_HOST_TEXT);

  function definition(marked: string): Location[] {
    const { plan, position } = analyzedAt(marked, options);
    return onTheWire(definitionOf(plan, position, host));
  }

  it("from a variable reference to the binding in scope", () => {
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"hits"', 1)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"hits"', 0) },
    ]);
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"hits"', 4, 5)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"hits"', 0) },
    ]);
  });

  it("from a reference in a branch to that branch's binding, not the sibling's", () => {
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"n"', 1)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"n"', 0) },
    ]);
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"n"', 3)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"n"', 2) },
    ]);
  });

  it("from a binding to itself, and from a parallel step's result to its bind", () => {
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"counts"', 2)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"counts"', 0) },
    ]);
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"hits"', 0)), [
      { uri: planUri, range: nthRange(SCOPED_PLAN, '"hits"', 0) },
    ]);
  });

  it("from an input, a tool and a provider name to the host profile's entry", () => {
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"doc"', 0)), [
      { uri: hostUri, range: nthRange(SCOPED_HOST_TEXT, '"doc"', 0) },
    ]);
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"count_items"', 1, 6)), [
      { uri: hostUri, range: nthRange(SCOPED_HOST_TEXT, '"count_items"', 0) },
    ]);
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"local"', 0)), [
      { uri: hostUri, range: nthRange(SCOPED_HOST_TEXT, '"local"', 0) },
    ]);
  });

  it("an unregistered tool goes to the profile's tools section", () => {
    const plan = SCOPED_PLAN.replace('"name": "count_items", "args": [1, 2]', '"name": "nope", "args": [1, 2]');
    assert.deepEqual(definition(cursorIn(plan, '"nope"', 0)), [
      { uri: hostUri, range: nthRange(SCOPED_HOST_TEXT, '"tools"', 0) },
    ]);
  });

  it("nothing for a key, an unbound variable or a literal", () => {
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"steps"', 0)), []);
    assert.deepEqual(
      definition(cursorIn(SCOPED_PLAN.replace('"name": "answer"}', '"name": "answr"}'), '"answr"', 0)),
      [],
    );
    assert.deepEqual(definition(cursorIn(SCOPED_PLAN, '"Summarize"', 0)), []);
  });

  it("nothing for a plan without a host profile's names", () => {
    const { plan, position } = analyzedAt(cursorIn(SCOPED_PLAN, '"count_items"', 0));
    assert.deepEqual(definitionOf(plan, position, undefined), []);
  });
});
