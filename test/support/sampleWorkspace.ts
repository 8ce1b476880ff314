// The workspace the hover and completion tests share: a host profile with an input, a built-in
// tool, a command tool and a provider (with a key variable that must never show), and a plan.

export const HOST = {
  capabilities: ["tool(count_items)", "context(search)", "retry", "checkpoint", "model(local)"],
  budget: { max_tool_calls: 4 },
  inputs: {
    doc: { type: "text", text: "hello", description: "The document to search" },
    limit: { type: "value", value: 3 },
  },
  tools: {
    count_items: { type: "builtin", builtin: "count_items", description: "Counts the items of a list" },
    fetch: {
      type: "command",
      command: ["python3", "fetch.py", "--token-file", "secret.txt"],
      description: "Fetches a page",
    },
  },
  providers: {
    local: {
      type: "openai-chat",
      baseUrl: "http://127.0.0.1:8080/v1/chat",
      model: "tiny",
      apiKeyEnv: "LOCAL_SECRET_KEY",
      description: "A small local model",
    },
  },
};

/** A plan with the cursor to be placed by the tests (see `at`). */
export const PLAN = `{
  "steps": [
    {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "x"}, "bind": "hits"},
    {"op": "retry", "attempts": 3, "plan": {"steps": [
      {"op": "checkpoint", "label": "try"},
      {"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "n"},
      {"op": "final", "value": {"ref": "var", "name": "n"}}
    ]}, "bind": "count"},
    {"op": "model", "provider": "local", "prompt": {"ref": "var", "name": "count"}, "bind": "answer"},
    {"op": "final", "value": {"ref": "var", "name": "answer"}}
  ]
}`;

/** `text` with a cursor `|` inserted where `marked` (a snippet of it, with `|`) says. */
export function at(text: string, marked: string): string {
  const bare = marked.replace("|", "");
  const start = text.indexOf(bare);
  if (start < 0 || text.indexOf(bare, start + 1) >= 0) throw new Error(`${JSON.stringify(bare)} must occur once`);
  const offset = start + marked.indexOf("|");
  return `${text.slice(0, offset)}|${text.slice(offset)}`;
}
