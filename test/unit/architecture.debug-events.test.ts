// Holds the debug adapter's wire contract (ARCHITECTURE.md, issue 35 item 3): its custom events
// (`rlmPlan.started`, `rlmPlan.runEvent`, ...) are named and typed once, in the shared protocol
// module server/src/protocol.ts, and both the adapter and the client use its constants. A name
// written as a literal anywhere else in debug-adapter/src or client/src is a second copy that
// can drift (an event renamed on one side only reaches nobody), so the scan fails on it.

import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { sourceFiles } from "../support/importGraph";

const root = join(__dirname, "..", "..", "..");
const PROTOCOL = join(root, "server", "src", "protocol.ts");

/** The debug events the protocol module names: each `Debug*` namespace's `event`. */
function protocolDebugEvents(text: string): string[] {
  return [...text.matchAll(/export namespace Debug\w+ \{\s*export const event = "([^"]+)";/g)].map(
    (m) => m[1] as string,
  );
}

/**
 * Literal event names in one source file. The adapter names no `rlmPlan.` string of its own (it
 * has no commands or settings), so every such literal there is an event name; the client also
 * has commands and views under `rlmPlan.`, so there a literal counts when it is a protocol event
 * name or is compared with an event's name (`case`, `event ===`, `waitForEvent`).
 */
function literalEvents(file: string, text: string, events: readonly string[]): string[] {
  const anyLiteral = file.startsWith("debug-adapter/");
  const found = [...text.matchAll(/(case\s+|event\s*[!=]==?\s*|waitForEvent\(\s*)?(["'`])(rlmPlan\.[A-Za-z.]+)\2/g)]
    .filter((m) => anyLiteral || m[1] !== undefined || events.includes(m[3] as string))
    .map((m) => `${file}: ${m[3] as string}`);
  return found;
}

function offenders(events: readonly string[]): string[] {
  return ["debug-adapter/src", "client/src"].flatMap((dir) =>
    sourceFiles(join(root, dir)).flatMap((path) =>
      literalEvents(relative(root, path).split("\\").join("/"), readFileSync(path, "utf8"), events),
    ),
  );
}

const EVENTS = protocolDebugEvents(readFileSync(PROTOCOL, "utf8"));

test("the protocol module names the adapter's four custom events", () => {
  assert.deepEqual(EVENTS, ["rlmPlan.started", "rlmPlan.journal", "rlmPlan.runEvent", "rlmPlan.result"]);
});

test("the scan fails on a planted literal event name, and not on the client's commands", () => {
  assert.deepEqual(literalEvents("debug-adapter/src/x.ts", 's.sendEvent(new Event("rlmPlan.progress", {}));', EVENTS), [
    "debug-adapter/src/x.ts: rlmPlan.progress",
  ]);
  assert.deepEqual(
    literalEvents(
      "client/src/x.ts",
      'switch (e.event) { case "rlmPlan.started": break; }\nif (e.event === "rlmPlan.other") {}\n' +
        'const c = "rlmPlan.debug"; const r = "rlmPlan.result";',
      EVENTS,
    ),
    ["client/src/x.ts: rlmPlan.started", "client/src/x.ts: rlmPlan.other", "client/src/x.ts: rlmPlan.result"],
  );
});

test("no literal debug event name outside the protocol module, in the adapter or the client", () => {
  assert.deepEqual(offenders(EVENTS), []);
});

test("the debug adapter imports of the language server only its wire contract", () => {
  const offenders = sourceFiles(join(root, "debug-adapter", "src")).flatMap((path) =>
    [...readFileSync(path, "utf8").matchAll(/from\s+["'](@rlm-plan\/language-server[^"']*)["']/g)]
      .filter((m) => m[1] !== "@rlm-plan/language-server/protocol")
      .map((m) => `${relative(root, path)}: ${m[1] as string}`),
  );
  assert.deepEqual(offenders, []);
});
