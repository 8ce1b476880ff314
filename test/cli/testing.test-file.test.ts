// Test files that are wrong: every problem at file:line:col (schema, unknown keys with the
// nearest, mocks inline, duplicate names, steps the plan does not have, schemas that do not
// compile, dataset lines that are not objects) and nothing runs; the exit status is 2.

import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { ROOT, runCli } from "../support/cliWorkspace";

const FIXTURES = join(ROOT, "test", "fixtures", "plan-tests");

describe("rlm-plan test: bad test files", () => {
  test("schema problems, located, with the nearest key", () => {
    const run = runCli(FIXTURES, ["test", "bad/bad.rlmplan.test.json"]);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, "");
    assert.deepEqual(run.stderr.trimEnd().split("\n"), [
      `bad/bad.rlmplan.test.json:4:82: error: unknown key "equal" in item 1."expect"."value" in "cases": did you mean "equals"? (the keys are equals, contains, schema)`,
      `bad/bad.rlmplan.test.json:5:29: error: item 2."mocks" in "cases" must be text, got an object`,
      `bad/bad.rlmplan.test.json:5:29: error: item 2."mocks" in "cases" must match exactly one schema in oneOf`,
      `bad/bad.rlmplan.test.json:5:52: error: item 2."mocks"."tools"."fetch" item 1 in "cases" is missing "value"`,
      `bad/bad.rlmplan.test.json:5:52: error: item 2."mocks"."tools"."fetch" item 1 in "cases" is missing "error"`,
      `bad/bad.rlmplan.test.json:5:52: error: item 2."mocks"."tools"."fetch" item 1 in "cases" must match exactly one schema in oneOf`,
      `bad/bad.rlmplan.test.json:5:54: error: unknown key "valu" in item 2."mocks"."tools"."fetch" item 1 in "cases": did you mean "value"? (the keys are match, value, error, delayMs, repeat)`,
      `bad/bad.rlmplan.test.json:6:5: error: item 3 in "cases" is missing "name": the case's name, unique in the file.`,
      `bad/bad.rlmplan.test.json:6:7: error: unknown key "nam" in item 3 in "cases": did you mean "name"? (the keys are name, description, inputs, mocks, cassette, step, bindings, repeat, expect, approvals)`,
      "rlm-plan: 9 problems in the test files; nothing ran",
    ]);
  });

  test("what only the plan and the data can say: steps, names, schemas, dataset lines; its warnings too", () => {
    const run = runCli(FIXTURES, ["test", "bad/bad2.rlmplan.test.json"]);
    assert.equal(run.code, 2);
    assert.deepEqual(run.stderr.trimEnd().split("\n"), [
      // A file with errors still says its warnings, as the editor shows them.
      'bad/bad2.rlmplan.test.json:5:41: warning: the plan never reads input "extra"',
      "bad/bad2.rlmplan.test.json:4:92: error: the schema does not compile: schema is invalid: data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf",
      // Each missing step on its own entry of the list, not on the list's key.
      "bad/bad2.rlmplan.test.json:4:56: error: the plan has no step /steps/7",
      "bad/bad2.rlmplan.test.json:5:91: error: the plan has no step /steps/9",
      "bad/bad2.rlmplan.test.json:5:124: error: the plan has no step /steps/8",
      'bad/bad2.rlmplan.test.json:6:15: error: a case named "a" is already case 1',
      "bad/bad2.rlmplan.test.json:6:51: error: the plan has no step /steps/0/plan/steps/0",
      `bad/rows.jsonl:2:1: error: line 2 must be a JSON object of the case's inputs ({"name": value, ...})`,
      "bad/rows.jsonl:3:2: error: line 3 is not JSON: invalid JSON: invalid symbol",
      "rlm-plan: 8 problems in the test files; nothing ran",
    ]);
  });

  test("warnings, located, that do not stop the run: unread and missing inputs, mocks the plan never calls", () => {
    const run = runCli(FIXTURES, ["test", "warn", "--list"]);
    assert.equal(run.code, 0);
    assert.deepEqual(run.stderr.trimEnd().split("\n"), [
      'warn/label.rlmplan.test.json:4:84: warning: the mocks answer tool "search", which the plan never calls',
      'warn/label.rlmplan.test.json:5:75: warning: the mocks answer provider "other", which the plan never calls',
      'warn/label.rlmplan.test.json:7:95: warning: the plan never reads input "extra"',
      'warn/rows.jsonl:1:1: warning: the plan never reads input "lang"',
      'warn/topic.rlmplan.test.json:3:13: warning: the plan reads input "topic", which neither the case nor the host profile gives',
    ]);
    assert.match(run.stdout, /\n5 cases in 2 files;/);
  });

  test("a path that names nothing, and usage errors", () => {
    const missing = runCli(FIXTURES, ["test", "nowhere"]);
    assert.deepEqual([missing.code, missing.stderr], [2, "rlm-plan: nowhere: no such file or folder\n"]);
    // A pattern that matches nothing is a gate that tests nothing: exit 1 (cli.test-runner).
    const glob = runCli(FIXTURES, ["test", "plans/*.rlmplan.test.json", "--list"]);
    assert.equal(glob.code, 1);
    assert.match(glob.stderr, /^rlm-plan: plans\/\*\.rlmplan\.test\.json: no test file matches this pattern\n/);
    const shard = runCli(FIXTURES, ["test", "--shard", "4/3"]);
    assert.equal(shard.code, 2);
    assert.match(shard.stderr, /^rlm-plan: --shard needs I\/N with 1 <= I <= N, for example 2\/3\n/);
    const both = runCli(FIXTURES, ["test", "--record", "--replay"]);
    assert.match(both.stderr, /^rlm-plan: --record and --replay cannot both be given\n/);
  });
});
