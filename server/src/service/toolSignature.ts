// What hover and completion show of a tool's signature: its input schema (from the profile or
// the MCP server that listed it) and its argument keys. The runtime owns the schemas and the key
// list (plan/toolArgumentChecks.ts); this module only renders them.

import { argumentKeys } from "@rlm-plan/core/plan";
import { type JsonPath } from "@rlm-plan/core";
import type { Node } from "jsonc-parser";
import { CompletionItemKind, type CompletionItem, type Range } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import type { HostView } from "./hostView";
import { isStepPath, nodeAt, stringProperty } from "./planTree";

const MAX_SCHEMA_CHARS = 2000;

/** Hover paragraphs for a tool: its input schema as a JSON block, cut when long. */
export function toolSchemaParagraphs(host: HostView, name: string): string[] {
  const schema = host.toolKnowledge.signature(name)?.inputSchema;
  if (schema === undefined) return [];
  const text = JSON.stringify(schema, null, 2);
  const shown = text.length > MAX_SCHEMA_CHARS ? `${text.slice(0, MAX_SCHEMA_CHARS)}\n…` : text;
  return ["Input schema:", `\`\`\`json\n${shown.replace(/```/g, "`\u200b``")}\n\`\`\``];
}

/** Hover text for a tool name an MCP server may offer but has not listed (yet). */
export function unlistedToolText(host: HostView, name: string): string | undefined {
  if (!host.toolKnowledge.has(name)) return undefined;
  const unavailable = host.toolKnowledge.unavailable(name);
  if (unavailable !== undefined) return `${unavailable}.`;
  return `Offered by an MCP server of \`${host.fileName}\`, whose tools have not been listed (yet, or the rlmPlan.listMcpTools setting is off).`;
}

/** Completion items for the argument keys of a tool, replacing `range`. */
export function argumentKeyItems(
  host: HostView | undefined,
  tool: string,
  range: Range,
  given: ReadonlySet<string>,
): CompletionItem[] {
  const schema = host?.toolKnowledge.signature(tool)?.inputSchema;
  return argumentKeys(schema)
    .filter((key) => !given.has(key.name))
    .map((key) => ({
      label: key.name,
      kind: CompletionItemKind.Property,
      detail: key.required ? "required argument" : "argument",
      ...(key.description !== undefined ? { documentation: key.description } : {}),
      textEdit: { range, newText: `${JSON.stringify(key.name)}: ` },
      filterText: JSON.stringify(key.name),
      sortText: `${key.required ? "0" : "1"}${key.name}`,
    }));
}

/**
 * At a key inside a tool step's "args" object: the tool's argument keys not written yet;
 * undefined anywhere else. `path` is the cursor's path (its last segment the key being typed),
 * `key` the key token being typed over, if any.
 */
export function argumentKeyCompletion(
  plan: AnalyzedPlan,
  tree: Node,
  path: JsonPath,
  offset: number,
  key: { readonly offset: number; readonly length: number } | undefined,
): CompletionItem[] | undefined {
  const argsPath = path.slice(0, -1);
  const stepPath = argsPath.slice(0, -1);
  if (argsPath[argsPath.length - 1] !== "args" || !isStepPath(stepPath)) return undefined;
  const step = nodeAt(tree, stepPath);
  const tool = stringProperty(step, "name");
  if (stringProperty(step, "op") !== "tool" || tool === undefined) return undefined;
  const start = key ? key.offset : offset;
  const end = key ? key.offset + key.length : offset;
  const range = { start: plan.document.positionAt(start), end: plan.document.positionAt(end) };
  const args = nodeAt(tree, argsPath);
  const given = new Set(
    (args?.children ?? []).flatMap((property) => {
      const key = property.children?.[0];
      return key && typeof key.value === "string" && key.offset !== start ? [key.value] : [];
    }),
  );
  return argumentKeyItems(plan.host, tool, range, given);
}
