// The diagnostics of one workspace file, open in the editor or only on disk: a plan, a host
// profile, a mocks file or a test file, each checked by the service function its pushed
// diagnostics come from, so a pull reports what a push would. A file not open is read bounded
// (never blocking) and checked under the host profile in force for it.

import { statSync } from "node:fs";
import { MOCKS_FILE_SUFFIX } from "@rlm-plan/core/host";
import { MAX_HOST_PROFILE_BYTES, MAX_MOCKS_BYTES, MAX_PLAN_BYTES, readTextFileSync } from "@rlm-plan/core/text";
import { isTestFile, workspaceFileKind } from "@rlm-plan/core/workspaceFiles";
import type { Diagnostic } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyzePlan } from "../service/analyzedPlan";
import { planDiagnostics } from "../service/diagnostics";
import { profileDiagnostics } from "../service/lockDiagnostics";
import { mocksDiagnostics } from "../service/mocksDiagnostics";
import { notAnalyzedDiagnostic } from "../service/sizeLimits";
import { testFileDiagnostics } from "../service/testFileLanguage";
import type { FeatureContext } from "./feature";
import { uriToPath } from "./hostProfiles";
import { testFileAt } from "./testFiles";
import { PLAN_LANGUAGE_ID } from "./workspace";

/** What a file reports: the version of the open document it is of (null: the file on disk). */
export interface FileReport {
  readonly version: number | null;
  readonly items: Diagnostic[];
}

/** The kinds of file that have diagnostics. */
export type Kind = "plan" | "host" | "mocks" | "test";

/** The open document's diagnostics, else the file's on disk; undefined for a file with none to give. */
export function fileDiagnostics(ctx: FeatureContext, uri: string): FileReport | undefined {
  const { workspace } = ctx;
  const open = ctx.documents.get(uri);
  if (open) {
    const kind = openKind(ctx, open);
    return kind ? { version: open.version, items: checked(ctx, open, kind) } : undefined;
  }
  const file = uriToPath(uri);
  if (file === undefined || !uri.startsWith("file:")) return undefined;
  const kind = diskKind(ctx, file);
  if (!kind) return undefined;
  const size = statSync(file, { throwIfNoEntry: false });
  if (!size?.isFile()) return undefined;
  if (kind === "plan" && size.size > workspace.settings.maxAnalyzedSize) {
    return { version: null, items: [notAnalyzedDiagnostic(uri, size.size, workspace.settings.maxAnalyzedSize)] };
  }
  const text = readDiskText(file, kind);
  const document = TextDocument.create(uri, kind === "plan" ? PLAN_LANGUAGE_ID : "json", 0, text);
  return { version: null, items: checked(ctx, document, kind) };
}

/** A workspace file's text from disk, bounded by its kind's limit and never blocking (a FIFO named like a plan, or a file over the limit, throws). */
export function readDiskText(file: string, kind: Kind): string {
  const limit = kind === "host" ? MAX_HOST_PROFILE_BYTES : kind === "mocks" ? MAX_MOCKS_BYTES : MAX_PLAN_BYTES;
  return readTextFileSync(file, limit);
}

function openKind(ctx: FeatureContext, document: TextDocument): Kind | undefined {
  const { workspace } = ctx;
  if (workspace.isPlan(document)) return "plan";
  if (workspace.mocksFile(document) !== undefined) return "mocks";
  if (workspace.isHostProfile(document)) return "host";
  const file = uriToPath(document.uri);
  return file !== undefined && isTestFile(file) ? "test" : undefined;
}

function diskKind(ctx: FeatureContext, file: string): Kind | undefined {
  if (isTestFile(file)) return "test";
  if (workspaceFileKind(file) === "plan") return "plan";
  if (ctx.workspace.hosts.isProfile(file)) return "host";
  return file.endsWith(MOCKS_FILE_SUFFIX) ? "mocks" : undefined;
}

function checked(ctx: FeatureContext, document: TextDocument, kind: Kind): Diagnostic[] {
  const { workspace } = ctx;
  const file = uriToPath(document.uri);
  switch (kind) {
    case "plan": {
      const refused = workspace.refused(document.uri);
      if (refused) return [notAnalyzedDiagnostic(document.uri, refused.bytes, refused.limit)];
      const plan =
        ctx.documents.get(document.uri) === document
          ? workspace.plan(document.uri)
          : analyzePlan(document, workspace.hosts.statusFor(file));
      return plan ? planDiagnostics(plan, workspace.settings) : [];
    }
    case "host": {
      if (file === undefined) return [];
      const { hosts } = workspace;
      return profileDiagnostics(
        document,
        hosts.resultOf(file),
        file,
        hosts.toolListingFailures(file),
        hosts.lockStatus(file),
      );
    }
    case "mocks": {
      if (file === undefined) return [];
      const hostFile = workspace.hosts.locate(file);
      const host = hostFile === undefined ? undefined : workspace.hosts.resultOf(hostFile);
      return mocksDiagnostics(document, file, host?.ok ? host.profile : undefined);
    }
    case "test": {
      const found = testFileAt(ctx, document.uri);
      return found ? testFileDiagnostics(document, found.view) : [];
    }
  }
}
