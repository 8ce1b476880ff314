// Go to definition: from a variable reference (or a binding itself) to the `"bind"` value that
// binds it in scope; from an input, tool or provider name to its entry in the host profile (a
// tool an MCP server offers: to the server's entry). The files they name are the shell's to add
// (lsp/navigation.ts: the disk and the workspace boundary).

import { mcpRoute, pointer, type HostProfile } from "@rlm-plan/core/host";
import { pathToFileURL } from "node:url";
import type { Location, Position } from "vscode-languageserver-protocol";
import type { AnalyzedPlan } from "./analyzedPlan";
import { lspRange } from "./diagnostics";
import { bindingToken, nameAtCursor } from "./planNames";
import { isStepPath, nodeAtOffset, stringProperty } from "./planTree";

/** The registry section of the host profile a name at the cursor belongs to, and the name. */
export interface HostName {
  readonly section: "inputs" | "tools" | "providers";
  readonly name: string;
}

export function definition(plan: AnalyzedPlan, position: Position, host: HostProfile | undefined): Location[] {
  const at = nodeAtOffset(plan.tree, plan.document.offsetAt(position));
  if (!at || at.isKey) return [];
  const binding = nameAtCursor(plan, at)?.binding;
  const token = binding && bindingToken(plan, binding);
  if (token) return [{ uri: plan.document.uri, range: lspRange(plan.document, token) }];
  const hostName = hostNameAt(plan, position);
  if (!hostName || !host) return [];
  return [entryLocation(host, hostEntry(host, hostName))];
}

/**
 * The host-profile entry a name stands for: its own entry, or for a tool an MCP server offers
 * (the core's routing rule), that server's. A name the profile does not register leads to its
 * section (the profile's locator finds the nearest key there), where it would be added.
 */
export function hostEntry(host: HostProfile, name: HostName): [string, string] {
  const registry = name.section === "inputs" ? host.inputs : name.section === "tools" ? host.tools : host.providers;
  const route = name.section === "tools" && !registry.has(name.name) ? mcpRoute(name.name, host.mcpServers) : undefined;
  return route ? ["mcpServers", route.server] : [name.section, name.name];
}

/** Where an entry's key is in the profile. */
export function entryLocation(host: HostProfile, entry: readonly string[]): Location {
  const where = host.locate(pointer(entry), "key");
  const start = { line: where.line - 1, character: where.column - 1 };
  return {
    uri: pathToFileURL(host.file).href,
    // A key is one token on one line.
    range: { start, end: { line: start.line, character: start.character + where.length } },
  };
}

/** An input, tool or provider name under the cursor: `{"ref": "input", "name": …}`, a tool step's `name`, a model step's `provider`. */
export function hostNameAt(plan: AnalyzedPlan, position: Position): HostName | undefined {
  const at = nodeAtOffset(plan.tree, plan.document.offsetAt(position));
  const node = at?.node;
  if (!at || at.isKey || node?.type !== "string" || typeof node.value !== "string") return undefined;
  const property = node.parent;
  const key = property?.type === "property" ? property.children?.[0]?.value : undefined;
  const owner = property?.parent;
  if (!owner) return undefined;
  if (key === "name" && stringProperty(owner, "ref") === "input") return { section: "inputs", name: node.value };
  if (!isStepPath(at.path.slice(0, -1))) return undefined;
  const op = stringProperty(owner, "op");
  if (key === "name" && op === "tool") return { section: "tools", name: node.value };
  if (key === "provider" && op === "model") return { section: "providers", name: node.value };
  return undefined;
}
