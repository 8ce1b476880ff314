// Pull diagnostics (LSP 3.17): `textDocument/diagnostic` for a document, `workspace/diagnostic`
// for every plan, host profile and test file of the workspace, open or not, so a tool renamed in
// the host profile shows in the plans nobody opened. A client that pulls (its capabilities carry
// `textDocument.diagnostic`) gets no pushed diagnostics; one that does not keeps the push
// (features.ts). Result ids are digests of what a file reports, so an unchanged report is sent as
// `unchanged`. The workspace report is bounded: a cap on files (rlmPlan.maxWorkspaceDiagnosticFiles),
// partial results when the client asks for them, and cancellation between files.

import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { findTestFiles, findWorkspaceFiles, isTestFile } from "@rlm-plan/core/workspaceFiles";
import {
  DocumentDiagnosticReportKind,
  DocumentDiagnosticRequest,
  WorkspaceDiagnosticRequest,
  type CancellationToken,
  type Diagnostic,
  type DiagnosticServerCancellationData,
  type DocumentDiagnosticParams,
  type ResponseError,
  type WorkspaceDiagnosticParams,
  type DocumentDiagnosticReport,
  type ProgressToken,
  type WorkspaceDocumentDiagnosticReport,
  type WorkspaceDiagnosticReport,
} from "vscode-languageserver";
import { clientPulls } from "./diagnosticsPush";
import type { Feature, FeatureContext } from "./feature";
import { fileDiagnostics, type FileReport } from "./fileDiagnostics";
import { describeError } from "./guard";

/** Reports sent per partial result, and files checked between two looks at cancellation. */
const BATCH = 50;

/** The result id of a report: a digest of its diagnostics, so equal reports have equal ids. */
function resultIdOf(items: readonly Diagnostic[]): string {
  return createHash("sha256").update(JSON.stringify(items)).digest("base64url").slice(0, 22);
}

export const pullDiagnostics: Feature = (ctx) => {
  const { connection, guard, workspace } = ctx;
  ctx.declare({
    diagnosticProvider: { identifier: "rlm-plan", interFileDependencies: true, workspaceDiagnostics: true },
  });
  const disk = new DiskReports();
  // Anything a file not open is checked against changed: its cached report is stale, and a client
  // that can is asked to pull again (open plans too: their host profile may be what changed).
  let refreshing = false;
  workspace.onWorkspaceChanged(() => {
    disk.clear();
    if (refreshing || !clientPulls(ctx)) return;
    if (ctx.clientCapabilities()?.workspace?.diagnostics?.refreshSupport !== true) return;
    refreshing = true;
    setImmediate(() => {
      refreshing = false;
      void connection.languages.diagnostics.refresh().catch(() => undefined);
    });
  });
  // An edit to an open plan can change what a test file on disk reports about it.
  ctx.documents.onDidChangeContent(() => disk.edited());
  const changes = new Changes();
  workspace.onWorkspaceChanged(() => changes.happened());
  ctx.documents.onDidChangeContent(() => changes.happened());
  ctx.documents.onDidClose(() => changes.happened());

  // Through onRequest, not connection.languages: the masked connection masks what these answer.
  connection.onRequest(
    DocumentDiagnosticRequest.type,
    withoutCancelData(
      guard.request<DocumentDiagnosticParams, DocumentDiagnosticReport>(
        "textDocument/diagnostic",
        async (params) => {
          await workspace.settingsReady();
          const report = fileDiagnostics(ctx, params.textDocument.uri);
          const items = report?.items ?? [];
          const resultId = resultIdOf(items);
          return params.previousResultId === resultId
            ? { kind: DocumentDiagnosticReportKind.Unchanged, resultId }
            : { kind: DocumentDiagnosticReportKind.Full, resultId, items };
        },
        { kind: DocumentDiagnosticReportKind.Full, items: [] },
      ),
    ),
  );

  /** Every file's report, or undefined when cancelled; with a token, sent in batches as partial results. */
  const report = async (
    previous: ReadonlyMap<string, string>,
    partial: ProgressToken | undefined,
    token: CancellationToken,
  ): Promise<WorkspaceDocumentDiagnosticReport[] | undefined> => {
    const folder = workspace.folder;
    if (folder === undefined) return [];
    const cap = workspace.settings.maxWorkspaceDiagnosticFiles;
    const found = [...new Set([...findWorkspaceFiles(folder, cap + 1), ...findTestFiles(folder, cap + 1)])].sort();
    if (found.length > cap) {
      const message = `rlm-plan: workspace diagnostics cover the first ${cap} of the workspace's plans, host profiles and test files (setting rlmPlan.maxWorkspaceDiagnosticFiles): the rest are left out until they are opened.`;
      if (!warned.has(message)) connection.console.warn(message);
      warned.add(message);
    }
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    const flush = (): void => {
      if (partial === undefined || items.length === 0) return;
      void connection.sendProgress(WorkspaceDiagnosticRequest.partialResult, partial, { items: items.splice(0) });
    };
    const reported = new Set<string>();
    for (const [index, file] of found.slice(0, cap).entries()) {
      if (index > 0 && index % BATCH === 0) {
        flush();
        if (await cancelled(token)) return undefined;
      }
      const uri = pathToFileURL(file).href;
      let fileReport: FileReport | undefined;
      try {
        fileReport = ctx.documents.get(uri) ? fileDiagnostics(ctx, uri) : disk.report(ctx, uri, file);
      } catch (error) {
        connection.console.warn(`rlm-plan: ${file} was left out of workspace diagnostics: ${describeError(error)}`);
      }
      if (!fileReport) continue;
      reported.add(uri);
      const resultId = resultIdOf(fileReport.items);
      const { version } = fileReport;
      items.push(
        previous.get(uri) === resultId
          ? { kind: DocumentDiagnosticReportKind.Unchanged, uri, version, resultId }
          : { kind: DocumentDiagnosticReportKind.Full, uri, version, resultId, items: fileReport.items },
      );
    }
    // A file reported before that is gone (deleted, renamed, past the cap): its problems go too.
    for (const uri of previous.keys())
      if (!reported.has(uri) && !ctx.documents.get(uri))
        items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, items: [] });
    flush();
    return items;
  };

  const warned = new Set<string>();
  connection.onRequest(
    WorkspaceDiagnosticRequest.type,
    withoutCancelData(
      guard.request<WorkspaceDiagnosticParams, WorkspaceDiagnosticReport>(
        "workspace/diagnostic",
        async (params, token) => {
          await workspace.settingsReady();
          const previous = new Map(params.previousResultIds.map(({ uri, value }) => [uri, value]));
          // Held while nothing the client has changes (the protocol's long poll): a client such as
          // VS Code asks again as soon as it is answered, and would otherwise walk the workspace
          // every two seconds. A partial-results request is answered at once.
          const hold = previous.size > 0 && params.partialResultToken === undefined;
          for (;;) {
            // Waited on from before the report is made: a change while it is made is not missed.
            const changed = hold ? changes.next() : undefined;
            const items = await report(previous, params.partialResultToken, token);
            if (!items) return { items: [] };
            if (!changed || items.some((item) => item.kind === DocumentDiagnosticReportKind.Full)) return { items };
            if (!(await changed.orCancelled(token))) return { items: [] };
          }
        },
        { items: [] },
      ),
    ),
  );
};

/**
 * The guard's answers typed as the diagnostic requests declare them: its cancellation error has
 * no data, which the protocol reads as `retriggerRequest: true` (the client asks again).
 */
function withoutCancelData<P, R>(
  handler: (params: P, token: CancellationToken) => Promise<R | ResponseError<void>>,
): (params: P, token: CancellationToken) => Promise<R | ResponseError<DiagnosticServerCancellationData>> {
  return handler as (
    params: P,
    token: CancellationToken,
  ) => Promise<R | ResponseError<DiagnosticServerCancellationData>>;
}

/** Longest a workspace request is held: files changed on disk that no watcher reports are read then. */
const HOLD_MS = 60_000;

/** The next change of anything a workspace report depends on, for a held request to wait on. */
class Changes {
  private waiting: (() => void)[] = [];

  happened(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** A wait that starts now: `orCancelled` is true after a change (or HOLD_MS), false on cancellation. */
  next(): { orCancelled(token: CancellationToken): Promise<boolean> } {
    const changed = new Promise<void>((resolve) => this.waiting.push(resolve));
    return {
      orCancelled: async (token) => {
        let stop: { dispose(): void } | undefined;
        let timer: NodeJS.Timeout | undefined;
        const cancelled = new Promise<void>((resolve) => (stop = token.onCancellationRequested(() => resolve())));
        const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, HOLD_MS).unref()));
        try {
          await Promise.race([changed, cancelled, late]);
        } finally {
          stop?.dispose();
          clearTimeout(timer);
        }
        return !token.isCancellationRequested;
      },
    };
  }
}

/** Lets queued messages (a cancellation) in, then says whether the request was cancelled. */
async function cancelled(token: CancellationToken): Promise<boolean> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  return token.isCancellationRequested;
}

/** Reports of files not open, kept until the file's size or time changes or the workspace does. */
class DiskReports {
  private readonly reports = new Map<string, { stamp: string; report: FileReport | undefined }>();
  /** Edits of open documents so far: a test file reads the open text of its plan. */
  private edits = 0;

  clear(): void {
    this.reports.clear();
  }

  edited(): void {
    this.edits++;
  }

  report(ctx: FeatureContext, uri: string, file: string): FileReport | undefined {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return undefined;
    const stamp = `${stat.size}:${stat.mtimeMs}:${ctx.workspace.hosts.generation}:${isTestFile(file) ? this.edits : 0}`;
    const cached = this.reports.get(uri);
    if (cached?.stamp === stamp) return cached.report;
    const report = fileDiagnostics(ctx, uri);
    this.reports.set(uri, { stamp, report });
    return report;
  }
}
