// The registry of language features. Each entry is a registration: it declares the server
// capabilities it provides and wires its requests to a feature module's function (which takes
// the analysed document and the request and returns plain data), under the guard. To add a
// feature, write its module and append one registration to FEATURES.
// Over 400 lines because it is the one table of every feature's registration: the capabilities the server declares are read in one place.

import {
  CodeActionKind,
  CodeActionTriggerKind,
  CodeLensRefreshRequest,
  InlayHintRefreshRequest,
  InlayHintRequest,
  LSPErrorCodes,
  MessageType,
  ShowMessageNotification,
  ResponseError,
  TextDocumentSyncKind,
  type InlayHintParams,
  type PrepareRenameParams,
  type PrepareRenameResult,
  type RenameParams,
  type WorkspaceEdit,
} from "vscode-languageserver";
import type { AnalyzedPlan } from "../service/analyzedPlan";
import { codeActions, RUN_PLAN_ACTION_KIND, showHostProfile } from "../service/codeActions";
import { graphEdit } from "../service/graphEdits/graphEdit";
import { SUB_PLAN_ACTION_KINDS } from "../service/subPlans/subPlanActions";
import { codeLenses } from "../service/codeLens";
import { showWhatIf, whatIfLensesFor, withWhatIfHover } from "./whatIfFeature";
import { stepLenses } from "../service/stepLenses";
import { foldingRanges } from "../service/folding";
import { formatPlan } from "../service/formatting";
import { hostProfileFile } from "./hostProfileFile";
import { inlayHints } from "../service/inlayHints";
import { prepareRename, rename } from "../service/rename";
import { createPlanRunner } from "./runPlan";
import { capabilitiesUsedBy, completion } from "../service/completion";
import { planDiagnostics } from "../service/diagnostics";
import { mocksDiagnostics } from "../service/mocksDiagnostics";
import { notAnalyzedDiagnostic, notAnalyzedMessage, notGraphedMessage } from "../service/sizeLimits";
import { uriToPath } from "./hostProfiles";
import { hover } from "../service/hover";
import { planGraph } from "../service/planGraph";
import { hostProfileCompletions, hostProfileHover } from "../service/hostProfileLanguage";
import {
  CancelRunCommand,
  HostProfileRequest,
  GraphEditRequest,
  PlanGraphRequest,
  ResumeRunCommand,
  VoteApprovalCommand,
  ForkRunCommand,
  RunCommand,
  RunInEditorCommand,
  RunPlanClientCommand,
  RunEventNotification,
  RunFinishedNotification,
  ShowHostProfileCommand,
} from "../protocol";
import { voteApproval } from "./voteApproval";
import { outline, selections, workspaceSymbols } from "./structureFeatures";
import { editorRuns } from "./editorRun";
import { proposals } from "./proposeFeature";
import { clientQueries } from "./clientQueries";
import { journalRuns } from "./journalRuns";
import { recordedScopes } from "./recordedScopes";
import { stepBindings } from "./stepBindings";
import { documentHighlight, semanticTokens } from "./nameFeatures";
import type { Feature, FeatureContext } from "./feature";
import { testFileAt, testFiles } from "./testFiles";
import { hostProfileCodeActions, lockUpdates } from "./lockFeature";
import { profileDiagnostics } from "../service/lockDiagnostics";
import { pullDiagnostics } from "./pullDiagnostics";
import { pushDiagnostics } from "./diagnosticsPush";
import { callHierarchy } from "./callHierarchy";
import { definitions, documentLinks, referenceSearch } from "./navigation";
import { testFileCompletion, testFileHover, testFileLenses } from "../service/testFileLanguage";

const documentSync: Feature = (ctx) => {
  ctx.declare({ textDocumentSync: TextDocumentSyncKind.Incremental });
};

const diagnostics: Feature = (ctx) => {
  const { connection, workspace } = ctx;
  workspace.onPlanAnalyzed((plan) => {
    pushDiagnostics(ctx, {
      uri: plan.document.uri,
      version: plan.document.version,
      diagnostics: planDiagnostics(plan, workspace.settings),
    });
    // Diagnostics need no source tree; hover, completion and the rest do. Parse it (or edit the
    // previous version's into it) once the diagnostics are out, unless the document changed
    // again meanwhile, so the first hover after an edit finds it ready. A step's worst case is
    // not computed here: a hover asks it for that step alone (plan/estimate.ts).
    setImmediate(() => {
      if (ctx.documents.get(plan.document.uri)?.version !== plan.document.version) return;
      try {
        void plan.tree;
      } catch {
        // A request that needs the tree will parse it again and report what went wrong.
      }
    });
  });
  // A plan too big to analyse: one diagnostic says why, and a message the first time (per open).
  const told = new Set<string>();
  workspace.onPlanRefused(({ document, bytes, limit }) => {
    // The message first: a client that waits for the diagnostics has it by then.
    if (!told.has(document.uri)) {
      told.add(document.uri);
      void connection.sendNotification(ShowMessageNotification.type, {
        type: MessageType.Warning,
        message: notAnalyzedMessage(document.uri, bytes, limit),
      });
    }
    pushDiagnostics(ctx, {
      uri: document.uri,
      version: document.version,
      diagnostics: [notAnalyzedDiagnostic(document.uri, bytes, limit)],
    });
  });
  workspace.onHostProfileChecked(({ document, file, result, toolListingFailures, lock }) => {
    pushDiagnostics(ctx, {
      uri: document.uri,
      version: document.version,
      diagnostics: profileDiagnostics(document, result, file, toolListingFailures, lock),
    });
  });
  workspace.onMocksFileChecked(({ document, file, profile }) => {
    pushDiagnostics(ctx, {
      uri: document.uri,
      version: document.version,
      diagnostics: mocksDiagnostics(document, file, profile),
    });
  });
  workspace.onDocumentClosed((uri) => {
    told.delete(uri);
    pushDiagnostics(ctx, { uri, diagnostics: [] });
  });
};

const hovers: Feature = (ctx) => {
  ctx.declare({ hoverProvider: true });
  ctx.connection.onHover(
    ctx.guard.request(
      "hover",
      async (params) => {
        const plan = ctx.workspace.plan(params.textDocument.uri);
        if (plan) return withWhatIfHover(ctx, plan, params.position.line, hover(plan, params.position));
        const test = testFileAt(ctx, params.textDocument.uri);
        if (test?.document) return testFileHover(test.document, test.view, params.position);
        const document = ctx.documents.get(params.textDocument.uri);
        return document && ctx.workspace.isHostProfile(document) ? hostProfileHover(document, params.position) : null;
      },
      null,
    ),
  );
};

const completions: Feature = (ctx) => {
  ctx.declare({ completionProvider: { triggerCharacters: ['"', ":"] } });
  ctx.connection.onCompletion(
    ctx.guard.request(
      "completion",
      (params) => {
        const uri = params.textDocument.uri;
        const plan = ctx.workspace.plan(uri);
        if (plan) return completion(plan, params.position);
        const test = testFileAt(ctx, uri);
        if (test?.document) return testFileCompletion(test.document, test.view, params.position);
        const document = ctx.documents.get(uri);
        if (!document || !ctx.workspace.isHostProfile(document)) return [];
        const file = uriToPath(uri);
        const used = ctx.workspace
          .openPlans()
          .filter((open) => ctx.workspace.hostProfileFileFor(open.document.uri) === file)
          .flatMap(capabilitiesUsedBy);
        return hostProfileCompletions(document, params.position, used);
      },
      [],
    ),
  );
};

const hostProfileStatus: Feature = (ctx) => {
  ctx.connection.onRequest(
    HostProfileRequest.type,
    ctx.guard.request(
      "hostProfile",
      ({ uri }) => ({ uri, hostProfile: ctx.workspace.hostProfileFileFor(uri) ?? null }),
      {
        uri: "",
        hostProfile: null,
      },
    ),
  );
};

const renames: Feature = (ctx) => {
  ctx.declare({ renameProvider: { prepareProvider: true } });
  ctx.connection.onPrepareRename(
    ctx.guard.request<PrepareRenameParams, PrepareRenameResult | null | ResponseError<void>>(
      "prepareRename",
      (params) => {
        const plan = ctx.workspace.plan(params.textDocument.uri);
        const outcome = plan ? prepareRename(plan, params.position) : null;
        return outcome && "refused" in outcome
          ? new ResponseError(LSPErrorCodes.RequestFailed, outcome.refused)
          : outcome;
      },
      null,
    ),
  );
  ctx.connection.onRenameRequest(
    ctx.guard.request<RenameParams, WorkspaceEdit | null | ResponseError<void>>(
      "rename",
      (params) => {
        const plan = ctx.workspace.plan(params.textDocument.uri);
        const outcome = plan ? rename(plan, params.position, params.newName) : null;
        return outcome && "refused" in outcome
          ? new ResponseError(LSPErrorCodes.RequestFailed, outcome.refused)
          : (outcome?.edit ?? null);
      },
      null,
    ),
  );
};

const folding: Feature = (ctx) => {
  ctx.declare({ foldingRangeProvider: true });
  ctx.connection.onFoldingRanges(
    ctx.guard.request("foldingRange", (params) => withPlan(ctx, params.textDocument.uri, foldingRanges, []), []),
  );
};

const formatting: Feature = (ctx) => {
  ctx.declare({ documentFormattingProvider: true, documentRangeFormattingProvider: true });
  // A notification, not a request: nothing waits for the user to dismiss it.
  const refused = (message: string) =>
    void ctx.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
  ctx.connection.onDocumentFormatting(
    ctx.guard.request(
      "formatting",
      (params) => withPlan(ctx, params.textDocument.uri, (plan) => formatPlan(plan, params, refused), []),
      [],
    ),
  );
  ctx.connection.onDocumentRangeFormatting(
    ctx.guard.request(
      "rangeFormatting",
      (params) => withPlan(ctx, params.textDocument.uri, (plan) => formatPlan(plan, params, refused), []),
      [],
    ),
  );
};

const quickFixes: Feature = (ctx) => {
  const codeActionKinds = [CodeActionKind.QuickFix, RUN_PLAN_ACTION_KIND, ...SUB_PLAN_ACTION_KINDS];
  ctx.declare({ codeActionProvider: { codeActionKinds } });
  ctx.connection.onCodeAction(
    ctx.guard.request(
      "codeAction",
      (params) => {
        const plan = ctx.workspace.plan(params.textDocument.uri);
        if (!plan)
          return hostProfileCodeActions(ctx, params.textDocument.uri, params.context.diagnostics, params.context.only);
        return codeActions(plan, {
          diagnostics: params.context.diagnostics,
          ...(params.context.only ? { only: params.context.only } : {}),
          hostProfile: () => hostProfileFile(ctx.workspace, plan),
          runCommand: ctx.workspace.clientRunsPlans ? RunPlanClientCommand.command : RunInEditorCommand.command,
          range: params.range,
          invoked: params.context.triggerKind !== CodeActionTriggerKind.Automatic,
          snippetEdits: ctx.clientCapabilities()?.workspace?.workspaceEdit?.snippetEditSupport === true,
          disabledActions: ctx.clientCapabilities()?.textDocument?.codeAction?.disabledSupport === true,
        });
      },
      [],
    ),
  );
  ctx.command(ShowHostProfileCommand.command, (args) =>
    showHostProfile(args, (params) => ctx.connection.window.showDocument(params)),
  );
};

const lenses: Feature = (ctx) => {
  ctx.declare({ codeLensProvider: { resolveProvider: false } });
  ctx.connection.onCodeLens(
    ctx.guard.request(
      "codeLens",
      async (params) => {
        const test = testFileAt(ctx, params.textDocument.uri);
        if (test?.document) return testFileLenses(test.document, test.view);
        const plan = ctx.workspace.plan(params.textDocument.uri);
        if (!plan) return [];
        return [
          ...codeLenses(plan, ctx.workspace.clientRunsPlans),
          ...stepLenses(plan, ctx.workspace.clientRunsPlans),
          ...(await whatIfLensesFor(ctx, plan)),
        ];
      },
      [],
    ),
  );
  showWhatIf(ctx);
  // The worst-case lens also depends on the host's budget: when a plan's lens text changes
  // without an edit (the host profile changed), clients that can are asked to ask again.
  const shown = new Map<string, string>();
  ctx.workspace.onPlanAnalyzed((plan) => {
    const titles = codeLenses(plan, ctx.workspace.clientRunsPlans)
      .map((lens) => lens.command?.title ?? "")
      .join("\n");
    const before = shown.get(plan.document.uri);
    shown.set(plan.document.uri, titles);
    if (before === undefined || before === titles) return;
    if (ctx.clientCapabilities()?.workspace?.codeLens?.refreshSupport !== true) return;
    void ctx.connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
  });
  ctx.workspace.onDocumentClosed((uri) => shown.delete(uri));
};

const hints: Feature = (ctx) => {
  ctx.declare({ inlayHintProvider: true });
  // Through onRequest, not connection.languages: the masked connection masks what it answers.
  ctx.connection.onRequest(
    InlayHintRequest.type,
    ctx.guard.request(
      "inlayHint",
      (params: InlayHintParams) =>
        withPlan(
          ctx,
          params.textDocument.uri,
          (plan) => inlayHints(plan, params.range, { bindingTypes: ctx.workspace.settings.bindingTypeHints }),
          [],
        ),
      [],
    ),
  );
  // Turning binding types on or off changes every plan's hints: clients that can ask again.
  let bindingTypes = ctx.workspace.settings.bindingTypeHints;
  ctx.workspace.onWorkspaceChanged(() => {
    if (ctx.workspace.settings.bindingTypeHints === bindingTypes) return;
    bindingTypes = ctx.workspace.settings.bindingTypeHints;
    if (ctx.clientCapabilities()?.workspace?.inlayHint?.refreshSupport !== true) return;
    void ctx.connection.sendRequest(InlayHintRefreshRequest.type).catch(() => undefined);
  });
};

const planRuns: Feature = (ctx) => {
  const runner = createPlanRunner({
    plan: (uri) => ctx.workspace.plan(uri),
    hostProfileFileFor: (uri) => ctx.workspace.hostProfileFileFor(uri),
    hostProfile: (file) => ctx.workspace.hosts.resultOf(file),
    event: (params) => void ctx.connection.sendNotification(RunEventNotification.type, params),
    finished: (params) => void ctx.connection.sendNotification(RunFinishedNotification.type, params),
    sessionStarted: (session) => ctx.secretsLearned(session.secretValues()),
    notice: (message) => ctx.connection.console.warn(message),
  });
  ctx.command(RunCommand.command, (args) => runner.run(args));
  ctx.command(ResumeRunCommand.command, (args) => runner.resume(args));
  ctx.command(VoteApprovalCommand.command, (args) => voteApproval(args, runner));
  ctx.command(ForkRunCommand.command, (args) => runner.fork(args));
  ctx.command(CancelRunCommand.command, (args) => runner.cancel(args));
};

const graphs: Feature = (ctx) => {
  ctx.connection.onRequest(
    PlanGraphRequest.type,
    ctx.guard.request(
      "planGraph",
      (params) => {
        // A plan over maxAnalyzedSize: an error the graph view shows, not an empty panel.
        const refused = ctx.workspace.refused(params.uri);
        if (refused)
          return new ResponseError(
            LSPErrorCodes.RequestFailed,
            notGraphedMessage(params.uri, refused.bytes, refused.limit),
          );
        const plan = ctx.workspace.plan(params.uri);
        return plan ? planGraph(plan, params, ctx.workspace.settings) : null;
      },
      null,
    ),
  );
  ctx.connection.onRequest(
    GraphEditRequest.type,
    ctx.guard.request(
      "graphEdit",
      (params) => withPlan(ctx, params.uri, (plan) => graphEdit(plan, params.version, params.edit), null),
      null,
    ),
  );
};

/** The feature's answer for an open plan, `none` for any other document. */
function withPlan<T>(ctx: FeatureContext, uri: string, answer: (plan: AnalyzedPlan) => T, none: T): T {
  const plan = ctx.workspace.plan(uri);
  return plan ? answer(plan) : none;
}

/** Every feature the server provides, in registration order. */
export const FEATURES: readonly Feature[] = [
  documentSync,
  diagnostics,
  pullDiagnostics,
  hovers,
  completions,
  hostProfileStatus,
  definitions,
  referenceSearch,
  renames,
  outline,
  folding,
  formatting,
  quickFixes,
  lenses,
  hints,
  planRuns,
  selections,
  workspaceSymbols,
  editorRuns,
  proposals,
  clientQueries,
  journalRuns,
  recordedScopes,
  stepBindings,
  graphs,
  semanticTokens,
  documentHighlight,
  testFiles,
  lockUpdates,
  callHierarchy,
  documentLinks,
];
