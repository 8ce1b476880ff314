// The six trusted tools the reference's conformance vectors were produced with, and the
// counters that show which host effects really happened in a case.

import type { JsonValue } from "@rlm-plan/core/json";
import type { ToolHandler } from "@rlm-plan/core/run/host";

export const TEST_TOOL_NAMES = ["count_items", "echo", "mark", "large_payload", "flaky", "fail"] as const;

/** Fresh handlers for one case: `flaky` fails its first call within the case only. */
export function testTools(calls: Map<string, number>): Map<string, ToolHandler> {
  let flakyCalls = 0;
  const counted =
    (name: string, handler: (args: JsonValue) => JsonValue): ToolHandler =>
    (args) => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return handler(args);
    };
  return new Map<string, ToolHandler>([
    [
      "count_items",
      counted("count_items", (args) => {
        if (!Array.isArray(args)) throw new Error("count_items expects a list");
        return args.length;
      }),
    ],
    ["echo", counted("echo", (args) => args)],
    ["mark", counted("mark", (args) => args)],
    ["large_payload", counted("large_payload", () => "0123456789012345678901234567890123456789")],
    [
      "flaky",
      counted("flaky", (args) => {
        flakyCalls++;
        if (flakyCalls === 1) throw new Error("transient test failure");
        return args;
      }),
    ],
    [
      "fail",
      counted("fail", () => {
        throw new Error("this tool always fails");
      }),
    ],
  ]);
}
