// The workspace the server's run tests share: a host profile granting a search, a builtin count and
// a command tool that sleeps, a plan that finishes (with a checkpoint) and one that waits to be cancelled.

/** The host profile's content (give it to `hostProfile`): `extraTools` are added to its tools and grants. */
export function runHost(extraTools: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    capabilities: [
      "context(search)",
      "tool(count_items)",
      "tool(sleepy)",
      ...Object.keys(extraTools).map((name) => `tool(${name})`),
      "checkpoint",
    ],
    inputs: { doc: { type: "text", text: "needle one\nhay\nneedle two\nmore hay\n", description: "a haystack" } },
    tools: {
      count_items: { type: "builtin", builtin: "count_items" },
      sleepy: { type: "command", command: [process.execPath, "sleepy.js"], timeoutMs: 60000 },
      ...extraTools,
    },
  };
}

/** The sleepy tool's script (`sleepy.js` beside the profile): it answers after 30 s, so a run waits on it. */
export const SLEEPY_SCRIPT = "process.stdin.resume(); setTimeout(() => process.stdout.write('1'), 30000);\n";

/** Searches the input (two hits), passes a checkpoint, counts the hits: its value is 2. */
export const COUNT_PLAN = `{
  "steps": [
    {"op": "context", "handle": {"ref": "input", "name": "doc"}, "action": {"type": "search", "pattern": "needle"}, "bind": "hits"},
    {"op": "checkpoint", "label": "searched"},
    {"op": "tool", "name": "count_items", "args": {"ref": "var", "name": "hits"}, "bind": "count"},
    {"op": "final", "value": {"ref": "var", "name": "count"}}
  ]
}
`;

/** Calls the sleepy tool: the run stays in its step until it is cancelled. */
export const SLEEPY_PLAN = `{"steps": [
  {"op": "tool", "name": "sleepy", "args": {}, "bind": "nap"},
  {"op": "final", "value": {"ref": "var", "name": "nap"}}
]}`;
