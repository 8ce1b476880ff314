// Call hierarchy: a plan, its sub-plans (`rlm`, `retry`, each `parallel` branch), then the tools,
// providers and MCP servers it calls (outgoing); and, across the workspace, which plans and test
// files call a tool, a provider or an MCP server's tools, and which test files run a plan
// (incoming). Prepared on a plan (anywhere in it, or in a sub-plan), on a tool or provider name
// in a plan, on a tool, provider or MCP server entry of a host profile, or in a test file. What a
// plan calls is service/planCalls.ts's; the plans of the workspace are workspacePlans.ts's.

import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { JsonPath } from "@rlm-plan/core";
import { mcpRoute, type HostProfile } from "@rlm-plan/core/host";
import { isTestFile } from "@rlm-plan/core/workspaceFiles";
import { getLocation } from "jsonc-parser";
import {
  CallHierarchyIncomingCallsRequest,
  CallHierarchyOutgoingCallsRequest,
  CallHierarchyPrepareRequest,
  SymbolKind,
  type CallHierarchyIncomingCall,
  type CallHierarchyItem,
  type CallHierarchyOutgoingCall,
  type Position,
  type Range,
} from "vscode-languageserver";
import { entryLocation, hostEntry, hostNameAt } from "../service/definition";
import type { CalledKind, CallSite } from "../service/planCalls";
import type { Feature, FeatureContext } from "./feature";
import { uriToPath } from "./hostProfiles";
import { testFileAt } from "./testFiles";
import { workspacePlansOf, type PlanFile, type WorkspacePlans } from "./workspacePlans";

/** What an item stands for, carried in its `data` between prepare and the calls requests. */
type ItemData =
  | { readonly t: "plan"; readonly uri: string; readonly path: JsonPath }
  | { readonly t: "called"; readonly kind: CalledKind; readonly name: string; readonly host: string | null }
  | { readonly t: "mcp"; readonly server: string; readonly host: string }
  | { readonly t: "test"; readonly uri: string };

const START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const SECTIONS: Readonly<Record<string, "tool" | "provider" | "mcp">> = {
  tools: "tool",
  providers: "provider",
  mcpServers: "mcp",
};

export const callHierarchy: Feature = (ctx) => {
  const plans = workspacePlansOf(ctx);
  const items = new Items(ctx, plans);
  ctx.declare({ callHierarchyProvider: true });
  ctx.connection.onRequest(
    CallHierarchyPrepareRequest.type,
    ctx.guard.request(
      "callHierarchy/prepare",
      (params) => items.prepare(params.textDocument.uri, params.position),
      null,
    ),
  );
  ctx.connection.onRequest(
    CallHierarchyOutgoingCallsRequest.type,
    ctx.guard.request("callHierarchy/outgoingCalls", (params) => items.outgoing(params.item), null),
  );
  ctx.connection.onRequest(
    CallHierarchyIncomingCallsRequest.type,
    ctx.guard.request("callHierarchy/incomingCalls", (params) => items.incoming(params.item), null),
  );
};

class Items {
  constructor(
    private readonly ctx: FeatureContext,
    private readonly plans: WorkspacePlans,
  ) {}

  prepare(uri: string, position: Position): CallHierarchyItem[] | null {
    const plan = this.ctx.workspace.plan(uri);
    if (plan) {
      const name = hostNameAt(plan, position);
      const file = this.plans.plan(uri);
      if (name && name.section !== "inputs") {
        const kind = name.section === "tools" ? "tool" : "provider";
        const site = file?.calls.calls.find((call) => call.kind === kind && contains(call.range, position));
        return [this.called(kind, name.name, plan.host?.file, { uri, range: site?.range ?? START })];
      }
      if (!file) return null;
      // The innermost sub-plan around the cursor (nested ones come after the ones holding them).
      const inner = file.calls.plans.filter((sub) => contains(sub.range, position)).pop();
      return [this.plan(file, inner?.path ?? [])];
    }
    const document = this.ctx.documents.get(uri);
    const path = uriToPath(uri);
    if (!document || path === undefined) return null;
    if (isTestFile(path)) return [testItem(uri)];
    if (!this.ctx.workspace.isHostProfile(document)) return null;
    const where = getLocation(document.getText(), document.offsetAt(position)).path;
    const section = SECTIONS[String(where[0])];
    const name = where[1];
    if (section === undefined || typeof name !== "string" || name === "") return null;
    return [section === "mcp" ? this.mcp(name, path) : this.called(section, name, path, { uri, range: START })];
  }

  outgoing(item: CallHierarchyItem): CallHierarchyOutgoingCall[] {
    const data = item.data as ItemData | undefined;
    if (data?.t === "test") {
      const planFile = testFileAt(this.ctx, data.uri)?.view.suite?.planFile;
      const plan = planFile === undefined ? undefined : this.plans.plan(pathToFileURL(planFile).href);
      const test = this.plans.testFiles().find((each) => each.uri === data.uri);
      return plan && test ? [{ to: this.plan(plan, []), fromRanges: [test.range] }] : [];
    }
    if (data?.t === "called") {
      const route = data.kind === "tool" && data.host !== null ? this.mcpRouteOf(data.name, data.host) : undefined;
      return route && data.host !== null ? [{ to: this.mcp(route, data.host), fromRanges: [item.selectionRange] }] : [];
    }
    if (data?.t !== "plan") return [];
    const file = this.plans.plan(data.uri);
    if (!file) return [];
    const calls: CallHierarchyOutgoingCall[] = [];
    const grouped = new Map<string, CallSite[]>();
    for (const call of file.calls.calls) {
      if (!samePath(call.planPath, data.path)) continue;
      const key = `${call.kind}\u0000${call.name}`;
      grouped.set(key, [...(grouped.get(key) ?? []), call]);
    }
    for (const sites of grouped.values()) {
      const first = sites[0] as CallSite;
      const to = this.called(first.kind, first.name, file.hostFile, { uri: file.uri, range: first.range });
      calls.push({ to, fromRanges: sites.map((site) => site.range) });
    }
    for (const sub of file.calls.plans)
      if (samePath(sub.parentPath, data.path))
        calls.push({ to: this.plan(file, sub.path), fromRanges: [sub.selectionRange] });
    return calls.sort((a, b) => before(a.fromRanges[0], b.fromRanges[0]));
  }

  incoming(item: CallHierarchyItem): CallHierarchyIncomingCall[] {
    const data = item.data as ItemData | undefined;
    if (data?.t === "plan") {
      if (data.path.length > 0) {
        const file = this.plans.plan(data.uri);
        const sub = file?.calls.plans.find((each) => samePath(each.path, data.path));
        return file && sub ? [{ from: this.plan(file, sub.parentPath), fromRanges: [sub.selectionRange] }] : [];
      }
      const planFile = uriToPath(data.uri);
      return this.plans
        .testFiles()
        .filter((test) => test.planFile === planFile)
        .map((test) => ({ from: testItem(test.uri), fromRanges: [test.range] }));
    }
    let calls: (call: CallSite) => boolean;
    let host: string | undefined;
    if (data?.t === "called") {
      host = data.host ?? undefined;
      calls = (call) => call.kind === data.kind && call.name === data.name;
    } else if (data?.t === "mcp") {
      host = data.host;
      calls = (call) => call.kind === "tool" && this.mcpRouteOf(call.name, data.host) === data.server;
    } else return [];
    const incoming: CallHierarchyIncomingCall[] = [];
    const callers = new Set<string>();
    for (const file of this.plans.plans()) {
      if (file.hostFile !== host) continue;
      const byPlan = new Map<string, { path: JsonPath; ranges: Range[] }>();
      for (const call of file.calls.calls.filter(calls)) {
        const key = JSON.stringify(call.planPath);
        const entry = byPlan.get(key) ?? { path: call.planPath, ranges: [] };
        entry.ranges.push(call.range);
        byPlan.set(key, entry);
      }
      if (byPlan.size > 0) callers.add(file.file);
      for (const { path, ranges } of byPlan.values())
        incoming.push({ from: this.plan(file, path), fromRanges: ranges });
    }
    for (const test of this.plans.testFiles())
      if (callers.has(test.planFile)) incoming.push({ from: testItem(test.uri), fromRanges: [test.range] });
    // By file, then place: the same answer whatever order the files were met in.
    return incoming.sort((a, b) =>
      a.from.uri < b.from.uri ? -1 : a.from.uri > b.from.uri ? 1 : before(a.fromRanges[0], b.fromRanges[0]),
    );
  }

  /** A plan (path `[]`) or one of its sub-plans. */
  private plan(file: PlanFile, path: JsonPath): CallHierarchyItem {
    const sub = path.length > 0 ? file.calls.plans.find((each) => samePath(each.path, path)) : undefined;
    const data: ItemData = { t: "plan", uri: file.uri, path };
    if (!sub)
      return {
        name: basename(file.file),
        kind: SymbolKind.File,
        detail: "plan",
        uri: file.uri,
        range: START,
        selectionRange: START,
        data,
      };
    return {
      name: sub.name,
      kind: SymbolKind.Namespace,
      detail: basename(file.file),
      uri: file.uri,
      range: sub.range,
      selectionRange: sub.selectionRange,
      data,
    };
  }

  /** A tool or provider: at its host-profile entry (an MCP tool: at its server's), else where it was met. */
  private called(
    kind: CalledKind,
    name: string,
    hostFile: string | undefined,
    fallback: { uri: string; range: Range },
  ): CallHierarchyItem {
    const profile = this.profile(hostFile);
    const entry = profile && hostEntry(profile, { section: kind === "tool" ? "tools" : "providers", name });
    const route = entry?.[0] === "mcpServers" ? entry[1] : undefined;
    const where = entry && profile ? entryLocation(profile, entry) : fallback;
    return {
      name,
      kind: kind === "tool" ? SymbolKind.Function : SymbolKind.Interface,
      detail: `${kind}${route ? ` of MCP server ${route}` : ""}${profile ? ` · ${basename(profile.file)}` : ""}`,
      uri: where.uri,
      range: where.range,
      selectionRange: where.range,
      data: { t: "called", kind, name, host: hostFile ?? null } satisfies ItemData,
    };
  }

  private mcp(server: string, hostFile: string): CallHierarchyItem {
    const profile = this.profile(hostFile);
    const where = profile
      ? entryLocation(profile, ["mcpServers", server])
      : { uri: pathToFileURL(hostFile).href, range: START };
    return {
      name: server,
      kind: SymbolKind.Module,
      detail: `MCP server · ${basename(hostFile)}`,
      uri: where.uri,
      range: where.range,
      selectionRange: where.range,
      data: { t: "mcp", server, host: hostFile } satisfies ItemData,
    };
  }

  private profile(hostFile: string | undefined): HostProfile | undefined {
    if (hostFile === undefined) return undefined;
    const result = this.ctx.workspace.hosts.resultOf(hostFile);
    return result.ok ? result.profile : undefined;
  }

  /** The MCP server a plan's tool name leads to under a profile (the core's rule), if any. */
  private mcpRouteOf(name: string, hostFile: string): string | undefined {
    const profile = this.profile(hostFile);
    return profile && !profile.tools.has(name) ? mcpRoute(name, profile.mcpServers)?.server : undefined;
  }
}

function testItem(uri: string): CallHierarchyItem {
  const name = decodeURIComponent(uri.slice(uri.lastIndexOf("/") + 1));
  return {
    name,
    kind: SymbolKind.File,
    detail: "test file",
    uri,
    range: START,
    selectionRange: START,
    data: { t: "test", uri } satisfies ItemData,
  };
}

function samePath(a: JsonPath, b: JsonPath): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

function contains(range: Range, position: Position): boolean {
  return before(range.start, position) <= 0 && before(position, range.end) <= 0;
}

/** Negative when `a` comes first (positions, or ranges by their start). */
function before(a: Position | Range | undefined, b: Position | Range | undefined): number {
  const p = a && "start" in a ? a.start : a;
  const q = b && "start" in b ? b.start : b;
  if (!p || !q) return 0;
  return p.line - q.line || p.character - q.character;
}
