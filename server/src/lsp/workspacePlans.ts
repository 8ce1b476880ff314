// The workspace's plans and test files as the cross-file features see them (call hierarchy,
// references from a host profile): each plan's calls (service/planCalls.ts) under the host
// profile in force for it, open plans from the editor's text and the others from disk (bounded
// by rlmPlan.maxAnalyzedSize, kept until the file, the host profiles or the settings change),
// and each test file with the plan it names. At most rlmPlan.maxWorkspaceDiagnosticFiles files
// of each kind, as the workspace diagnostics.

import { statSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { findTestFiles, findWorkspaceFiles, workspaceFileKind } from "@rlm-plan/core/workspaceFiles";
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import type { Range } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyzePlan } from "../service/analyzedPlan";
import { planCalls, type PlanCalls } from "../service/planCalls";
import type { FeatureContext } from "./feature";
import { readDiskText } from "./fileDiagnostics";
import { uriToPath } from "./hostProfiles";
import { testFileAt } from "./testFiles";
import { PLAN_LANGUAGE_ID } from "./workspace";

export interface PlanFile {
  readonly uri: string;
  readonly file: string;
  /** The host profile in force for it, if any. */
  readonly hostFile: string | undefined;
  readonly calls: PlanCalls;
}

export interface TestFileOfPlan {
  readonly uri: string;
  /** The plan file it tests (absolute). */
  readonly planFile: string;
  /** Its `plan` value's range. */
  readonly range: Range;
}

const shared = new WeakMap<FeatureContext, WorkspacePlans>();

/** The one index of a server's workspace plans, shared by the features that read it. */
export function workspacePlansOf(ctx: FeatureContext): WorkspacePlans {
  let plans = shared.get(ctx);
  if (!plans) {
    plans = new WorkspacePlans(ctx);
    shared.set(ctx, plans);
  }
  return plans;
}

export class WorkspacePlans {
  private readonly onDisk = new Map<string, { stamp: string; plan: PlanFile | undefined }>();

  constructor(private readonly ctx: FeatureContext) {
    // A change anywhere (a host profile, a setting, a watched file) may change what a plan calls.
    ctx.workspace.onWorkspaceChanged(() => this.onDisk.clear());
  }

  /** The plan at `uri`: the open document's analysis, else the file's on disk. */
  plan(uri: string): PlanFile | undefined {
    const file = uriToPath(uri);
    if (file === undefined) return undefined;
    const open = this.ctx.workspace.plan(uri);
    if (open) return { uri, file, hostFile: open.host?.file, calls: planCalls(open) };
    if (!uri.startsWith("file:") || workspaceFileKind(file) !== "plan") return undefined;
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size > this.ctx.workspace.settings.maxAnalyzedSize) return undefined;
    const stamp = `${stat.size}:${stat.mtimeMs}:${this.ctx.workspace.hosts.generation}`;
    const cached = this.onDisk.get(file);
    if (cached?.stamp === stamp) return cached.plan;
    let plan: PlanFile | undefined;
    try {
      const document = TextDocument.create(uri, PLAN_LANGUAGE_ID, 0, readDiskText(file, "plan"));
      const analyzed = analyzePlan(document, this.ctx.workspace.hosts.statusFor(file));
      plan = { uri, file, hostFile: analyzed.host?.file, calls: planCalls(analyzed) };
    } catch {
      plan = undefined;
    }
    this.onDisk.set(file, { stamp, plan });
    return plan;
  }

  /** Every plan of the workspace folder, then open plans outside it. */
  plans(): PlanFile[] {
    const uris = new Set<string>();
    const folder = this.ctx.workspace.folder;
    const cap = this.ctx.workspace.settings.maxWorkspaceDiagnosticFiles;
    if (folder !== undefined)
      for (const file of findWorkspaceFiles(folder, cap))
        if (workspaceFileKind(file) === "plan") uris.add(pathToFileURL(file).href);
    for (const open of this.ctx.workspace.openPlans()) uris.add(open.document.uri);
    return [...uris].flatMap((uri) => this.plan(uri) ?? []);
  }

  /** Every test file of the workspace folder whose `plan` names a plan file. */
  testFiles(): TestFileOfPlan[] {
    const folder = this.ctx.workspace.folder;
    if (folder === undefined) return [];
    const found: TestFileOfPlan[] = [];
    for (const file of findTestFiles(folder, this.ctx.workspace.settings.maxWorkspaceDiagnosticFiles)) {
      const uri = pathToFileURL(file).href;
      try {
        const test = testFileAt(this.ctx, uri);
        const planFile = test?.view.suite?.planFile;
        if (!test || planFile === undefined) continue;
        const text = test.document?.getText() ?? readDiskText(file, "test");
        const node = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true }) ?? emptyTree, ["plan"]);
        if (!node) continue;
        const document = TextDocument.create(uri, "json", 0, text);
        const range = { start: document.positionAt(node.offset), end: document.positionAt(node.offset + node.length) };
        found.push({ uri, planFile: resolve(planFile), range });
      } catch {
        // Unreadable or not a test file after all: it calls nothing.
      }
    }
    return found;
  }
}

const emptyTree = parseTree("{}") as NonNullable<ReturnType<typeof parseTree>>;
