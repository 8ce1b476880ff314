// The file paths written in workspace files, where they are written, for document links and
// go to definition: a test file's `plan`, `host`, `cassette`s and `dataset.file`; a host
// profile's input files and the files its command tools and MCP servers run; in a plan, each
// input's file (on the input's name) and each tool's script (on the tool's name). Pure: each
// path comes with the folder it is relative to, and the shell (lsp/navigation.ts) keeps the
// first candidate that is a file inside the workspace boundary.

import { dirname, resolve } from "node:path";
import type { JsonPath } from "@rlm-plan/core";
import { mcpRoute, type HostProfile } from "@rlm-plan/core/host";
import { findNodeAtLocation, parseTree, type Node } from "jsonc-parser";
import type { Range } from "vscode-languageserver-protocol";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { AnalyzedPlan } from "./analyzedPlan";
import { hostNameAt } from "./definition";
import { modelOf } from "./planNames";
import { nodeAt, nodeAtOffset } from "./planTree";

export interface WrittenPath {
  /** The string's contents (no quotes). */
  readonly range: Range;
  /** Paths to try, in order: the first that is a file wins (a command's program may be a name on PATH). */
  readonly candidates: readonly string[];
  /** The folder they are relative to. */
  readonly base: string;
  /** The workspace file that names them (whose workspace bounds them). */
  readonly from: string;
}

/** A test file's paths: `plan`, `host`, the file's and each case's `cassette`, `dataset.file`. */
export function testFilePaths(document: TextDocument, file: string): WrittenPath[] {
  const tree = parseTree(document.getText(), [], { allowTrailingComma: true });
  const base = dirname(resolve(file));
  const at = (node: Node | undefined) => stringAt(document, node, base, file);
  const paths = [["plan"], ["host"], ["cassette"], ["dataset", "file"]].map((path) =>
    at(tree && findNodeAtLocation(tree, path)),
  );
  const cases = tree && findNodeAtLocation(tree, ["cases"]);
  for (const each of cases?.type === "array" ? (cases.children ?? []) : [])
    paths.push(at(findNodeAtLocation(each, ["cassette"])));
  return paths.filter((path): path is WrittenPath => path !== undefined);
}

/** A host profile's paths: each input's `path`, each command tool's argv, each MCP server's command and args. */
export function hostProfilePaths(document: TextDocument, file: string): WrittenPath[] {
  const tree = parseTree(document.getText(), [], { allowTrailingComma: true });
  if (!tree) return [];
  const dir = dirname(resolve(file));
  const paths: (WrittenPath | undefined)[] = [];
  for (const [, entry] of entries(tree, "inputs"))
    paths.push(stringAt(document, findNodeAtLocation(entry, ["path"]), dir, file));
  for (const [, entry] of [...entries(tree, "tools"), ...entries(tree, "mcpServers")]) {
    const cwd = findNodeAtLocation(entry, ["cwd"])?.value;
    const base = typeof cwd === "string" ? resolve(dir, cwd) : dir;
    const command = findNodeAtLocation(entry, ["command"]);
    const args = findNodeAtLocation(entry, ["args"]);
    const argv = [...(command?.type === "array" ? (command.children ?? []) : [command]), ...(args?.children ?? [])];
    for (const node of argv) paths.push(stringAt(document, node, base, file));
  }
  return paths.filter((path): path is WrittenPath => path !== undefined);
}

/** In a plan: each input's file on the input's name, each tool's script on the tool's name (the model's one walk). */
export function planPaths(plan: AnalyzedPlan, host: HostProfile | undefined): WrittenPath[] {
  const model = modelOf(plan);
  if (!host || !model || !plan.tree) return [];
  const paths: WrittenPath[] = [];
  const add = (path: JsonPath) => {
    const node = nodeAt(plan.tree, path);
    const found = node && planPathAt(plan, host, plan.document.positionAt(node.offset + 1));
    if (found) paths.push(found);
  };
  for (const { step, path } of model.steps()) {
    for (const input of model.inputsOf(step)) add(input.path);
    if (step.op === "tool") add([...path, "name"]);
  }
  return paths;
}

/** The file of the input, or the script of the tool, named at `position` in a plan. */
export function planPathAt(
  plan: AnalyzedPlan,
  host: HostProfile,
  position: { line: number; character: number },
): WrittenPath | undefined {
  const name = hostNameAt(plan, position);
  const node = nodeAtOffset(plan.tree, plan.document.offsetAt(position))?.node;
  if (!name || !node) return undefined;
  const range = contents(plan.document, node);
  if (name.section === "inputs") {
    const spec = host.inputs.get(name.name);
    return spec && "path" in spec ? { range, candidates: [spec.path], base: host.dir, from: host.file } : undefined;
  }
  if (name.section !== "tools") return undefined;
  const run = toolProgram(host, name.name);
  return run && { range, candidates: run.argv, base: run.base, from: host.file };
}

/** What a tool runs: a command tool's argv, or its MCP server's command and args, with their folder. */
export function toolProgram(
  host: HostProfile,
  name: string,
): { argv: readonly string[]; base: string; server?: string } | undefined {
  const tool = host.tools.get(name);
  if (tool?.type === "command") return { argv: tool.command, base: resolve(host.dir, tool.cwd ?? ".") };
  if (tool) return undefined;
  const route = mcpRoute(name, host.mcpServers);
  const server = route && host.mcpServers.get(route.server);
  if (!route || !server) return undefined;
  return {
    argv: [...(server.command === undefined ? [] : [server.command]), ...(server.args ?? [])],
    base: resolve(host.dir, server.cwd ?? "."),
    server: route.server,
  };
}

function entries(tree: Node, section: string): [string, Node][] {
  const object = findNodeAtLocation(tree, [section]);
  if (object?.type !== "object") return [];
  return (object.children ?? []).flatMap((property) => {
    const [key, value] = property.children ?? [];
    return typeof key?.value === "string" && value?.type === "object" ? [[key.value, value] as [string, Node]] : [];
  });
}

function stringAt(document: TextDocument, node: Node | undefined, base: string, from: string): WrittenPath | undefined {
  if (node?.type !== "string" || typeof node.value !== "string" || node.value === "") return undefined;
  return { range: contents(document, node), candidates: [node.value], base, from };
}

/** A string node's range without its quotes. */
function contents(document: TextDocument, node: Node): Range {
  return {
    start: document.positionAt(node.offset + 1),
    end: document.positionAt(node.offset + Math.max(1, node.length - 1)),
  };
}
