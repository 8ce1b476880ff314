// The plan and host profile the host-diagnostics tests share (in process and over the protocol):
// a plan over its tool-call budget, calling an unregistered tool and an ungranted provider.

import type { Diagnostic } from "vscode-languageserver-protocol";

export const PLAN = `{
  "steps": [
    { "op": "tool", "name": "count_items", "args": [1, 2], "bind": "a" },
    { "op": "tool", "name": "nope", "args": [], "bind": "b" },
    { "op": "model", "provider": "local", "prompt": "hi", "bind": "c" },
    { "op": "final", "value": [{"ref": "var", "name": "a"}, {"ref": "var", "name": "b"}, {"ref": "var", "name": "c"}] }
  ]
}`;

export const HOST = {
  capabilities: ["tool(count_items)", "tool(nope)"],
  budget: { max_tool_calls: 1 },
  tools: { count_items: { type: "builtin", builtin: "count_items" } },
  providers: { local: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "tiny" } },
};

export function collapsed(range: { start: { line: number; character: number } }) {
  return { start: range.start, end: range.start };
}

export function messageOf(diagnostic: Diagnostic): string {
  return typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value;
}
