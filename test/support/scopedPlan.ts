// The workspace the navigation tests (definition, references, rename) share: a host profile
// with an input, a tool and a provider, and a plan whose two parallel branches both bind "n"
// (two different variables) inside the scope of "hits".

import type { Range } from "vscode-languageserver-protocol/node";
import { hostProfile, positionAt } from "../protocol/support/lspClient";

export const SCOPED_HOST = {
  capabilities: ["context(search)", "parallel", "tool(count_items)", "model(local)"],
  inputs: { doc: { type: "text", text: "x\ny\nx" } },
  tools: { count_items: { type: "builtin", builtin: "count_items" } },
  providers: { local: { type: "openai-chat", baseUrl: "http://127.0.0.1:9/v1", model: "tiny" } },
};

export const SCOPED_HOST_TEXT = hostProfile(SCOPED_HOST);

export const SCOPED_PLAN = `{
  "steps": [
    {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "x"}, "bind": "hits"},
    {"op": "parallel", "plans": [
      {"steps": [
        {"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "n"},
        {"op": "final", "value": {"ref": "var", "name": "n"}}
      ]},
      {"steps": [
        {"op": "tool", "name": "count_items", "args": [1, 2], "bind": "n"},
        {"op": "final", "value": [{"ref": "var", "name": "n"}, {"ref": "var", "name": "hits"}]}
      ]}
    ], "bind": "counts"},
    {"op": "model", "provider": "local", "prompt": "Summarize", "bind": "answer"},
    {"op": "final", "value": {"hits": {"ref": "var", "name": "hits"}, "counts": {"ref": "var", "name": "counts"}, "answer": {"ref": "var", "name": "answer"}}}
  ]
}
`;

/** The range of the `n`-th (0-based) occurrence of `needle` in `text`. */
export function nthRange(text: string, needle: string, n: number): Range {
  let offset = -1;
  for (let i = 0; i <= n; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${n + 1} times`);
  }
  return { start: positionAt(text, offset), end: positionAt(text, offset + needle.length) };
}

/** `text` with the cursor `|` inside the `n`-th occurrence of `needle`, `at` characters in. */
export function cursorIn(text: string, needle: string, n: number, at = 1): string {
  let offset = -1;
  for (let i = 0; i <= n; i++) {
    offset = text.indexOf(needle, offset + 1);
    if (offset < 0) throw new Error(`${JSON.stringify(needle)} occurs fewer than ${n + 1} times`);
  }
  return `${text.slice(0, offset + at)}|${text.slice(offset + at)}`;
}
