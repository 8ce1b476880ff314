// The plan graph's guard against a blank view (client/src/graph/loadWatch.ts), in process with
// mocked timers: a page not ready in time while visible is set again, at most three times in
// all, then the user is told; a hidden view waits until it shows; a ready page is left alone,
// and so is one that said it is loading (only slow).

import { strict as assert } from "node:assert";
import { beforeEach, afterEach, mock, test } from "node:test";
import { LoadWatch } from "rlm-plan-client/graph/loadWatch";

let visible: boolean;
let loads: number;
let said: string[];
let watch: LoadWatch;

beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout"] });
  visible = true;
  loads = 0;
  said = [];
  watch = new LoadWatch({
    timeoutMs: 8000,
    attempts: 3,
    visible: () => visible,
    load: () => loads++,
    say: (message) => said.push(message),
  });
});

afterEach(() => {
  watch.dispose();
  mock.timers.reset();
});

test("a page ready in time is loaded once and nothing is said", () => {
  watch.load();
  mock.timers.tick(7999);
  watch.loaded();
  mock.timers.tick(60_000);
  assert.equal(loads, 1);
  assert.deepEqual(said, []);
  assert.equal(watch.isReady, true);
});

test("a page that never says ready is set again twice, then the user is told", () => {
  watch.load();
  mock.timers.tick(7999);
  assert.equal(loads, 1);
  mock.timers.tick(1);
  assert.equal(loads, 2);
  mock.timers.tick(8000);
  assert.equal(loads, 3);
  mock.timers.tick(60_000);
  assert.equal(loads, 3);
  assert.deepEqual(said, [
    "the view did not load within 8 s; loading it again",
    "the view did not load within 8 s; loading it again",
    "the view did not load after 3 tries; close it and show the graph again",
  ]);
  assert.equal(watch.isReady, false);
});

test("a reload that works ends the watch", () => {
  watch.load();
  mock.timers.tick(8000);
  watch.loaded();
  mock.timers.tick(60_000);
  assert.equal(loads, 2);
  assert.deepEqual(said, ["the view did not load within 8 s; loading it again"]);
});

test("a hidden view is not reloaded; once shown it gets its full time again", () => {
  visible = false;
  watch.load();
  mock.timers.tick(30_000);
  assert.equal(loads, 1);
  visible = true;
  watch.shown();
  mock.timers.tick(7999);
  assert.equal(loads, 1);
  mock.timers.tick(1);
  assert.equal(loads, 2);
});

test("nothing happens after the view is closed", () => {
  watch.load();
  watch.dispose();
  watch.shown();
  mock.timers.tick(60_000);
  assert.equal(loads, 1);
  assert.deepEqual(said, []);
});

test("a page that said it is loading is only slow: it is not set again, however long its script takes", () => {
  watch.load();
  mock.timers.tick(3000);
  watch.started();
  mock.timers.tick(60_000);
  watch.shown();
  mock.timers.tick(60_000);
  assert.equal(loads, 1);
  assert.deepEqual(said, []);
  watch.loaded();
  assert.equal(watch.isReady, true);
});

test("a page set again after a stall gets its own wait: its predecessor's loading message does not count", () => {
  watch.load();
  watch.started();
  // A stuck page's replacement (as after a stall) starts its wait afresh.
  watch.load();
  mock.timers.tick(8000);
  assert.equal(loads, 3);
});
