// A workspace whose one tool call waits for approval (docs/approvals.md): the plan reads an address
// from to.txt (a resume reads it again, so a changed file is a changed argument) and calls `send`,
// a command tool that appends its arguments, one line a call, to marks.txt; the host profile's
// rule holds every call of it for alice and bob. For the CLI's and the debugger's approval tests.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliWorkspace, type CliWorkspace } from "./cliWorkspace";

const MARK_TOOL = `
let input = "";
process.stdin.on("data", (c) => (input += c));
process.stdin.on("end", () => {
  require("fs").appendFileSync(${JSON.stringify("MARKS")}, JSON.stringify(JSON.parse(input)) + "\\n");
  process.stdout.write(JSON.stringify({ sent: true }));
});
`;

const PLAN = {
  steps: [
    {
      op: "context",
      handle: { ref: "input", name: "to" },
      action: { type: "peek", selector: { type: "head", count: 100 } },
      bind: "to",
    },
    { op: "tool", name: "send", args: { to: { ref: "var", name: "to" } }, bind: "r" },
    { op: "final", value: { ref: "var", name: "r" } },
  ],
};

export interface Rule {
  readonly approvers?: string[];
  readonly quorum?: number;
  readonly timeout?: number;
  readonly on_timeout?: "deny" | "fail";
  readonly requester_may_approve?: boolean;
}

/** The marks of one call to ada@example.com. */
export const SENT = '{"to":"ada@example.com"}';

/** The workspace, with the rule's terms over approvers alice and bob and a timeout of 600 s; `to`: the address. */
export function approvalWorkspace(
  name: string,
  rule: Rule = {},
  to = "ada@example.com",
): CliWorkspace & { marks(): string[] } {
  const ws = cliWorkspace(`approvals-${name}`);
  ws.write("mark.js", MARK_TOOL.replace('"MARKS"', JSON.stringify(join(ws.dir, "marks.txt"))));
  ws.write("to.txt", to);
  ws.write(
    "rlmplan.host.json",
    JSON.stringify({
      capabilities: ["tool(send)", "context(peek)"],
      inputs: { to: { type: "text-file", path: "to.txt" } },
      tools: { send: { type: "command", command: [process.execPath, "mark.js"], writes: ["."] } },
      approvals: [{ tool: "send", approvers: ["alice", "bob"], timeout: 600, ...rule }],
    }),
  );
  ws.write("plan.rlmplan.json", JSON.stringify(PLAN, null, 2));
  const marks = join(ws.dir, "marks.txt");
  return { ...ws, marks: () => (existsSync(marks) ? readFileSync(marks, "utf8").trim().split("\n") : []) };
}
