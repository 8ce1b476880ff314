// Holds "one event stream, one listener" (issue 35 item 2): a run's only listeners are its
// observers, so the listener options the runtime used to have (onTransition, onStepStart,
// onEvent) appear in no package's source; and the CLI prints a run's events in one module,
// cli/src/runEventPrinter.ts (run, run --queue, propose --run, runs show): no other CLI file names
// an event's kind or reads a transition's sequence, which is what a second printer does. The
// rules are shown the code they were written against first, so they can fail. (The editor's
// "RLM Plan Runs" channel, client/src/runOutput.ts, is the extension's own printer, outside the CLI.)

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { repositoryRoot, slashed, sourceFiles } from "../support/importGraph";

const PRINTER = "cli/src/runEventPrinter.ts";
const PACKAGES = ["shared-runtime", "cli", "server", "client", "debug-adapter"];

/** A listener option the runtime no longer has. */
const REMOVED_LISTENER = /\b(?:onTransition|onStepStart|onEvent)\b/;

/** What printing an event takes: its kind as a literal, or a transition's sequence number. */
const EVENT_FORMATTING =
  /["'`](?:transition|attempt_failed|step_started|step_finished|step_failed)["'`]|\.\s*sequence\b|\[\s*["']sequence["']\s*\]/;

function files(root: string): { path: string; file: string }[] {
  return sourceFiles(join(repositoryRoot, root)).map((path) => ({
    path,
    file: slashed(path.slice(repositoryRoot.length + 1)),
  }));
}

test("the rules catch the listeners and the printers the code had before", () => {
  for (const copy of [
    "onTransition: printer.onTransition,",
    "this.notify(() => this.options.onStepStart?.({ operation, bind, path, depth }));",
    "const own = options.onEvent;",
  ])
    assert.ok(REMOVED_LISTENER.test(copy), copy);
  // An event type's name and a client's own callback are not the removed options.
  for (const other of ["export interface TransitionEvent", "session.onStepStarted = report;"])
    assert.ok(!REMOVED_LISTENER.test(other), other);
  for (const copy of [
    // runs.ts's own transition lines
    'const transitions = run.events.filter((e) => e.segment === last && e.event["type"] === "transition");',
    // propose.ts's
    "this.io.stdout(`  ${transition.sequence} ${transition.operation}${bind} (${transition.duration_ms} ms)\\n`);",
    // runOutput.ts's failed attempts
    'if (event.type !== "attempt_failed") return;',
    '`${String(tr["sequence"]).padStart(3)}  ${lineText(String(tr["operation"]))}`',
  ])
    assert.ok(EVENT_FORMATTING.test(copy), copy);
  assert.ok(!EVENT_FORMATTING.test("const line = lines.line(e.event as unknown as RunEvent);"));
});

test("no package's source has a listener option but observers", () => {
  const found = PACKAGES.flatMap((root) => files(join(root, "src"))).filter(({ path }) =>
    REMOVED_LISTENER.test(readFileSync(path, "utf8")),
  );
  assert.deepEqual(
    found.map(({ file }) => file),
    [],
  );
});

test("no CLI file but the printer formats run events", () => {
  const all = files(join("cli", "src"));
  assert.ok(
    all.some(({ file }) => file === PRINTER),
    `${PRINTER} is scanned`,
  );
  assert.ok(
    all.some(({ file }) => file === "cli/src/queue/workerCommand.ts"),
    "the scan is recursive",
  );
  const found = all.filter(({ file, path }) => file !== PRINTER && EVENT_FORMATTING.test(readFileSync(path, "utf8")));
  assert.deepEqual(
    found.map(({ file }) => file),
    [],
  );
  assert.ok(EVENT_FORMATTING.test(readFileSync(join(repositoryRoot, PRINTER), "utf8")), "the printer itself matches");
});
