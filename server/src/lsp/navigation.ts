// Navigation between workspace files: go to definition (a name in a plan to its host-profile
// entry, and a tool to the script it runs, an input to its file), references (in a plan, a
// variable's uses; on a host profile's tool or provider entry, every call of it in the
// workspace's plans, open or not) and document links (the paths written in test files, host
// profiles and, on input and tool names, plans). A path is linked only when it is a file inside
// the workspace boundary of the file that names it (the core's host/workspaceBoundary.ts).

import { statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { mcpRoute, workspacePath } from "@rlm-plan/core/host";
import { isTestFile } from "@rlm-plan/core/workspaceFiles";
import { getLocation } from "jsonc-parser";
import {
  DocumentLinkRequest,
  type DocumentLink,
  type DocumentLinkParams,
  type Location,
  type Position,
} from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { definition, entryLocation } from "../service/definition";
import { references } from "../service/references";
import { hostProfilePaths, planPathAt, planPaths, testFilePaths, type WrittenPath } from "../service/writtenPaths";
import type { Feature, FeatureContext } from "./feature";
import { hostProfileOf } from "./hostProfileFile";
import { uriToPath } from "./hostProfiles";
import { workspacePlansOf } from "./workspacePlans";

const FILE_START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export const definitions: Feature = (ctx) => {
  ctx.declare({ definitionProvider: true });
  ctx.connection.onDefinition(
    ctx.guard.request(
      "definition",
      (params) => {
        const plan = ctx.workspace.plan(params.textDocument.uri);
        if (!plan) return [];
        const host = hostProfileOf(ctx.workspace, plan);
        const found = definition(plan, params.position, host);
        // A tool's script, an input's file: after the entry that names it.
        const written = host && planPathAt(plan, host, params.position);
        const file = written && linkedFile(written);
        return file ? [...found, { uri: pathToFileURL(file).href, range: FILE_START }] : found;
      },
      [],
    ),
  );
};

export const referenceSearch: Feature = (ctx) => {
  ctx.declare({ referencesProvider: true });
  ctx.connection.onReferences(
    ctx.guard.request(
      "references",
      (params) => {
        const uri = params.textDocument.uri;
        const plan = ctx.workspace.plan(uri);
        if (plan) return references(plan, params.position, params.context.includeDeclaration);
        return hostEntryReferences(ctx, uri, params.position, params.context.includeDeclaration);
      },
      [],
    ),
  );
};

export const documentLinks: Feature = (ctx) => {
  ctx.declare({ documentLinkProvider: { resolveProvider: false } });
  ctx.connection.onRequest(
    DocumentLinkRequest.type,
    ctx.guard.request(
      "documentLink",
      (params: DocumentLinkParams): DocumentLink[] => {
        const document = ctx.documents.get(params.textDocument.uri);
        const file = uriToPath(params.textDocument.uri);
        if (!document || file === undefined) return [];
        return writtenPathsOf(ctx, document, file).flatMap((written) => {
          const target = linkedFile(written);
          return target ? [{ range: written.range, target: pathToFileURL(target).href }] : [];
        });
      },
      [],
    ),
  );
};

function writtenPathsOf(ctx: FeatureContext, document: TextDocument, file: string): WrittenPath[] {
  const plan = ctx.workspace.plan(document.uri);
  if (plan) return planPaths(plan, hostProfileOf(ctx.workspace, plan));
  if (isTestFile(file)) return testFilePaths(document, file);
  return ctx.workspace.isHostProfile(document) ? hostProfilePaths(document, file) : [];
}

/** The first candidate that is a file inside the workspace of the file that names it. */
function linkedFile(written: WrittenPath): string | undefined {
  for (const candidate of written.candidates) {
    const inside = workspacePath(written.from, candidate, written.base);
    if (inside.ok && statSync(inside.path, { throwIfNoEntry: false })?.isFile()) return inside.path;
  }
  return undefined;
}

/** On a host profile's tool, provider or MCP server entry: each call of it in the workspace's plans under this profile. */
function hostEntryReferences(
  ctx: FeatureContext,
  uri: string,
  position: Position,
  includeDeclaration: boolean,
): Location[] {
  const document = ctx.documents.get(uri);
  const file = uriToPath(uri);
  if (!document || file === undefined || !ctx.workspace.isHostProfile(document)) return [];
  const [section, name] = getLocation(document.getText(), document.offsetAt(position)).path;
  if (typeof name !== "string" || (section !== "tools" && section !== "providers" && section !== "mcpServers"))
    return [];
  const result = ctx.workspace.hosts.resultOf(file);
  const profile = result.ok ? result.profile : undefined;
  const locations: Location[] = [];
  if (includeDeclaration && profile) locations.push(entryLocation(profile, [section, name]));
  for (const plan of workspacePlansOf(ctx).plans()) {
    if (plan.hostFile !== file) continue;
    for (const call of plan.calls.calls) {
      const calls =
        section === "mcpServers"
          ? call.kind === "tool" &&
            profile !== undefined &&
            !profile.tools.has(call.name) &&
            mcpRoute(call.name, profile.mcpServers)?.server === name
          : call.kind === (section === "tools" ? "tool" : "provider") && call.name === name;
      if (calls) locations.push({ uri: plan.uri, range: call.range });
    }
  }
  return locations;
}
