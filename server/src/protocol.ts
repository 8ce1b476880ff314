// The custom protocol between the rlm-plan language server and its clients, in one place: the
// server and the VS Code client both import this module (the vscode-eslint convention of shared
// messages), so a message is written once. Each message is a namespace with its method, its type
// and a comment saying who sends it. Everything else is standard LSP. At run time this module
// needs only vscode-languageserver-protocol (the runtime's names are types), so the extension can
// bundle it without anything of the server (test/unit/architecture.client.test.ts holds that).
// Over 400 lines because it is the whole wire contract in one module by design (vscode-eslint's shared messages).

/* eslint-disable @typescript-eslint/no-namespace -- namespaces group each message's method and type */

import type { JsonValue, PlanError, RunEvent, WireGraph, WirePlanNode, WireStepNode } from "@rlm-plan/core";
import type { ApprovalRequestView, RunDiff, RunSummary } from "@rlm-plan/core/journal";
import type { RecordedScope, ScopedBinding } from "@rlm-plan/core/session";
import { NotificationType, RequestType, type Range, type WorkspaceEdit } from "vscode-languageserver-protocol";

/** Settings the server reads from the `rlmPlan` configuration section. */
export interface RlmPlanSettings {
  /** Path of the host profile; relative paths are resolved against the first workspace folder. */
  readonly hostProfile?: string;
  /** Report host-dependent problems (capabilities, registries, budgets) as errors, not warnings. */
  readonly hostProblemsAsErrors?: boolean;
  /** Milliseconds to wait after the last edit before re-validating a plan. */
  readonly validationDelay?: number;
  /**
   * Start the host profile's MCP servers to list their tools (for checking arguments, hover and
   * completion). Off unless the client turns it on: it runs programs of the workspace.
   */
  readonly listMcpTools?: boolean;
  /**
   * Bytes (UTF-8) past which a plan is not analysed: one diagnostic and one message say so, and
   * every feature answers empty. Default 8,000,000.
   */
  readonly maxAnalyzedSize?: number;
  /**
   * Bytes past which a plan's semantic tokens are given for a range only (a whole-document
   * request answers null, logged once). Default 2,000,000.
   */
  readonly largePlanSize?: number;
  /**
   * Folders outside the workspace that paths written in host profiles and test files may name
   * (docs/security.md). A client sends the user's own value only, never a workspace's: VS Code's
   * setting is application-scoped.
   */
  readonly allowPaths?: readonly string[];
  /**
   * Files (plans, host profiles, test files) a `workspace/diagnostic` report covers at most, in
   * the workspace's sorted order; the log says when files are left out. Default 2000.
   */
  readonly maxWorkspaceDiagnosticFiles?: number;
  /** Inlay hints: `bindingTypes` shows each binding's type after its `bind` (default off). */
  readonly inlayHints?: { readonly bindingTypes?: boolean };
  /**
   * The what-if lens and hover at the top of a plan: what the plan's change since a git base does
   * to the capabilities it needs, the tools it reaches and its worst case. `base` is a commit-ish
   * (default "HEAD"); "" turns it off. The server reads git objects only (nothing runs).
   */
  readonly whatIf?: { readonly base?: string };
}

/**
 * Process environment, set by a client that starts the bundled server through dist/serverStart.js:
 * the folder where V8's code cache of the bundle is kept (@rlm-plan/core's codeCache.ts).
 */
export namespace CodeCacheEnvironment {
  export const variable = "RLM_PLAN_CODE_CACHE";
}

/** `initialize`'s `initializationOptions`, all optional. */
export interface InitializationOptions {
  /** The settings, for clients that do not answer `workspace/configuration`. */
  readonly rlmPlan?: RlmPlanSettings;
  /**
   * The client implements RunPlanClientCommand (its own run UI): the "▶ Run plan" lens then
   * names that command instead of RunInEditorCommand. The VS Code extension sets it.
   */
  readonly clientRunsPlans?: boolean;
}

/** Identifies one run: the plan's URI and an id the server assigns when the run starts. */
export interface RunIdentity {
  readonly uri: string;
  readonly runId: string;
  /** Present (true) on every notification of a run whose tools or providers answer from mocks. */
  readonly mocked?: boolean;
  /** The run's entry in the run journal, when it is recorded (JournalRunsRequest lists it). */
  readonly journal?: JournalRunRef;
}

/** A run in a run journal: the journal's folder and the run's number and uid there. */
export interface JournalRunRef {
  readonly dir: string;
  readonly id: number;
  readonly uid: string;
}

/**
 * A command the client implements (the "▶ Run plan" code lens): it starts a run, usually by
 * sending RunCommand, and shows the transitions. Server commands live under `rlmPlan.server.`
 * so that clients which register every server command (vscode-languageclient) never collide
 * with their own `rlmPlan.*` commands.
 */
export namespace RunPlanClientCommand {
  export const command = "rlmPlan.run";
  /** The plan document's URI. */
  export type Arguments = [uri: string];
}

/** `workspace/executeCommand` with `command: RunCommand.command`, sent by the client. */
export namespace RunCommand {
  export const command = "rlmPlan.server.run";
  /** The plan document's URI (a bare URI string is accepted too). */
  /** `env`: variables for this run only, such as provider keys from the client's secret storage. */
  /**
   * `mocks`: a dry run. A mocks file (a path, relative to the host profile's folder, or a file
   * URI) or the mocks themselves (schemas/mocks.schema.json); every notification of the run
   * then says `mocked: true`.
   */
  /**
   * `step`: run only the step at `path` (a JSON Pointer, /steps/1), with `bindings` as the values
   * of the names it reads (`rlm-plan run PLAN --step PATH --bindings JSON`); refused, naming the
   * names in scope, when one it reads is missing or one given is not in scope there.
   */
  export type Arguments = [
    {
      readonly uri: string;
      readonly env?: Readonly<Record<string, string>>;
      readonly mocks?: string | Readonly<Record<string, unknown>>;
      readonly step?: { readonly path: string; readonly bindings: Readonly<Record<string, unknown>> };
    },
  ];
  /** Answered as soon as the run starts; progress and the outcome arrive as notifications. */
  export type Result = RunIdentity;
}

/**
 * A command the client implements (the "Test This Step" code lens above each step, offered to
 * clients that run plans themselves): it asks StepBindingsRequest, lets the user edit the
 * bindings, and runs the step with RunCommand's `step`.
 */
export namespace TestStepClientCommand {
  export const command = "rlmPlan.testStep";
  /** The plan document's URI and the step's JSON Pointer (/steps/1/plan/steps/0). */
  export type Arguments = [uri: string, step: string];
}

/**
 * Client → server: the bindings a step reads, to edit before running it alone: the values the
 * last run of that step recorded in the journal (`from: "journal"`, its run), else a template from
 * their types (`from: "types"`); with the names in scope there. Null when there is no such step.
 */
export namespace StepBindingsRequest {
  export const method = "rlmPlan/stepBindings";
  export interface Params {
    readonly uri: string;
    /** The step's JSON Pointer. */
    readonly step: string;
  }
  export interface Result {
    /** The step's path as `runs show` prints it (steps/1). */
    readonly shown: string;
    readonly inScope: readonly string[];
    /** The names the step reads from outside itself: each must be given. */
    readonly needed: readonly string[];
    readonly bindings: Readonly<Record<string, unknown>>;
    readonly from: "journal" | "types";
    /** The journal's run the values come from. */
    readonly run?: number;
  }
  export const type = new RequestType<Params, Result | null, void>(method);
}

/**
 * `workspace/executeCommand` with `command: RunInEditorCommand.command`, sent by any LSP client
 * (the "▶ Run plan" lens's command unless the client says it runs plans itself, see
 * InitializationOptions.clientRunsPlans). The server runs the plan and reports with standard LSP
 * only: work-done progress (`$/progress`, cancellable), each transition and each failed retry
 * attempt (with its masked reason) as `window/logMessage`,
 * and the outcome as `window/showMessage`. Answered when the run ends, with its result.
 */
export namespace RunInEditorCommand {
  export const command = "rlmPlan.server.runInEditor";
  /** The plan document's URI (or `{uri}`); provider keys come from the server's environment. */
  export type Arguments = [uri: string] | [{ readonly uri: string }];
  export type Result = RunResult;
}

/** `workspace/executeCommand` with `command: CancelRunCommand.command`, sent by the client. */
export namespace CancelRunCommand {
  export const command = "rlmPlan.server.cancel";
  /** The id RunCommand answered with (a bare id string is accepted too). */
  export type Arguments = [{ readonly runId: string }];
  /** True when a run with that id was still going and is now cancelled. */
  export type Result = boolean;
}

/**
 * `workspace/executeCommand` with `command: UpdateLockCommand.command`: "Update Lock", the quick
 * fix of a host profile's drift from rlmplan.lock.json (`rlm-plan lock --update`). It starts the
 * profile's MCP servers to ask them what they are, so VS Code sends it only from its own command
 * (UpdateLockClientCommand), in a trusted workspace, after the user confirmed; other editors run
 * it as the user's explicit act.
 */
export namespace UpdateLockCommand {
  export const command = "rlmPlan.server.updateLock";
  /** The host profile's URI. */
  export type Arguments = [{ readonly uri: string }];
  /** What was done: the lock's outcome, its file, and each change accepted or problem met, as text. */
  export interface Result {
    readonly outcome: "written" | "unchanged" | "updated" | "failed" | "not_a_profile";
    readonly file?: string;
    readonly lines: readonly string[];
  }
}

/** VS Code's own "Update Lock" (asks for trust and confirmation, then sends UpdateLockCommand). */
export namespace UpdateLockClientCommand {
  export const command = "rlmPlan.updateLock";
}

/**
 * `workspace/executeCommand` with `command: ShowHostProfileCommand.command`: the "unknown tool"
 * quick fix. The server answers by asking the client (`window/showDocument`) to open the host
 * profile with the section selected.
 */
export namespace ShowHostProfileCommand {
  export const command = "rlmPlan.server.showHostProfile";
  /** The host profile's URI and the range to select (its "tools" key, say). */
  export type Arguments = [{ readonly uri: string; readonly selection?: Range }];
  /** True when the client showed the document. */
  export type Result = boolean;
}

/**
 * `workspace/executeCommand` with `command: ShowWhatIfCommand.command`: the what-if lens's
 * command. The server answers with `window/showMessage`: the plan's change since its base, set
 * by set (capabilities, tools, providers, MCP servers) and figure by figure.
 */
export namespace ShowWhatIfCommand {
  export const command = "rlmPlan.server.showWhatIf";
  /** The plan's URI. */
  export type Arguments = [string];
  /** True when a comparison was shown. */
  export type Result = boolean;
}

export interface RunEventParams extends RunIdentity {
  /**
   * One event of the runtime's stream, as the runtime emitted it (shared-runtime run/events.ts):
   * step_started, transition, step_finished, step_failed, attempt_failed, each naming its step
   * by JSON path (and source range). A failure's error carries its message, secrets masked; a
   * transition carries only what transitions carry (counters, never content).
   */
  readonly event: RunEvent;
}

/**
 * Server → client: the run's events, one notification per event, in the order the runtime
 * emitted them. A client reads a step's state from them (started, finished, failed, a retry's
 * failed attempts) and never infers it.
 */
export namespace RunEventNotification {
  export const method = "rlmPlan/runEvent";
  export const type = new NotificationType<RunEventParams>(method);
}

export type RunResult =
  | {
      readonly ok: true;
      readonly value: JsonValue;
      readonly checkpoints: readonly string[];
      readonly budgetRemaining: Readonly<Record<string, number>>;
    }
  | {
      readonly ok: false;
      /** The structured error: phase, kind, details and a message that says what to do. */
      readonly error: PlanError;
      readonly checkpoints: readonly string[];
      readonly budgetRemaining?: Readonly<Record<string, number>>;
      /** Where the error is in the plan's text (1-based): the failing step, or the static problem. */
      readonly location?: { readonly line: number; readonly column: number };
    };

export interface RunFinishedParams extends RunIdentity {
  readonly result: RunResult;
  /** Milliseconds from the start of the run to its end. */
  readonly elapsedMs: number;
  /** How many transitions the run sent (each one as a `transition` RunEventNotification). */
  readonly transitionCount: number;
}

/** Server → client: a run ended, with its value or its structured error (also when cancelled). */
export namespace RunFinishedNotification {
  export const method = "rlmPlan/runFinished";
  export const type = new NotificationType<RunFinishedParams>(method);
}

export interface HostProfileStatusParams {
  /** The plan document's URI. */
  readonly uri: string;
  /** The host profile file in force for that plan, or null when none was found. */
  readonly hostProfile: string | null;
}

/** Client → server: which host profile applies to a plan (for a status bar item). */
export namespace HostProfileRequest {
  export const method = "rlmPlan/hostProfile";
  export const type = new RequestType<{ readonly uri: string }, HostProfileStatusParams, void>(method);
}

/**
 * `rlmPlan/hostProviders`, sent by the client: the model providers of the host profile that
 * applies to a document (or a folder's URI), with the environment variable each reads its key
 * from. Never a key.
 */
export namespace HostProvidersRequest {
  export const method = "rlmPlan/hostProviders";
  export interface Params {
    /** A document (saved, or unsaved with a path) or a folder: its own host profile counts. */
    readonly uri: string;
    /**
     * A host profile file (a path) to read instead of finding one from `uri`: a debug launch
     * configuration's `hostProfile`, or one of the workspace's profiles.
     */
    readonly hostProfile?: string;
  }
  export interface Provider {
    readonly name: string;
    readonly description: string;
    readonly keyVariable: string | null;
  }
  export interface Result {
    /** The host profile's path; null when none applies. */
    readonly hostProfile: string | null;
    /** Empty when there is no profile or it has problems. */
    readonly providers: readonly Provider[];
  }
  export const type = new RequestType<Params, Result, void>(method);
}

/**
 * `workspace/executeCommand` with `command: ProposePlanCommand.command`, sent by any client: asks
 * a provider of the host profile for a plan for `goal` and answers with the proposed plan's
 * text (pretty-printed) and its problems against the host. Nothing runs. `env` carries the
 * provider's key for this call only (else the server's environment is used).
 */
export namespace ProposePlanCommand {
  export const command = "rlmPlan.server.proposePlan";
  export type Arguments = [
    {
      /** A document or folder whose host profile is used. */
      readonly uri: string;
      readonly goal: string;
      /** Needed when the profile has more than one provider. */
      readonly provider?: string;
      readonly env?: Readonly<Record<string, string>>;
    },
  ];
  export type Result =
    | {
        readonly ok: true;
        readonly provider: string;
        /** The plan, pretty-printed; present when a JSON object was found in the reply. */
        readonly planText: string | null;
        /** The model's reply, when no plan could be read from it. */
        readonly reply: string | null;
        /** Problems against the host, placed in `planText` (or in `reply`); empty when valid. */
        readonly problems: readonly { line: number; column: number; code: string; message: string }[];
      }
    | { readonly ok: false; readonly provider: string | null; readonly error: string };
}

/**
 * A step node as sent: the runtime's graph node in its wire form (a count beyond 2^53 as its
 * decimal string), with LSP ranges instead of offsets.
 */
export interface PlanGraphStep extends Omit<WireStepNode, "range"> {
  /** The step's object in the document; null when it has no place (it always has one today). */
  readonly range: Range | null;
  /** The step's `"op"` value: where a client asks for the step's hover and puts the cursor. */
  readonly opRange: Range | null;
}

export interface PlanGraphParams {
  /** The plan document's URI. */
  readonly uri: string;
  /** Expand nested plans down to this depth (the root plan is 1); deeper ones stay collapsed. */
  readonly collapseDepth?: number;
  /**
   * With `collapseDepth`: fold only when the plan has more steps than this (Show Plan Graph's
   * rule for large plans, in one round trip); without it, `collapseDepth` always applies.
   */
  readonly collapseAbove?: number;
}

export interface PlanGraphResult {
  readonly uri: string;
  /** The document version the graph is of (null when the document is not open). */
  readonly version: number | null;
  /** Counts (steps, calls) are numbers, or decimal strings beyond 2^53, so they stay exact. */
  readonly graph: Omit<WireGraph, "nodes"> & { readonly nodes: readonly (WirePlanNode | PlanGraphStep)[] };
  /** Whether host-dependent problems count as errors (the `hostProblemsAsErrors` setting). */
  readonly hostProblemsAsErrors: boolean;
}

/**
 * Client → server: the plan's graph (steps, nested plans, order and data edges, worst cases
 * against the budget in force, capability grants, problems), from the runtime's graph model;
 * null when the document is not an open plan; an error (RequestFailed, its message naming the
 * size and the setting) for a plan over `maxAnalyzedSize`.
 */
export namespace PlanGraphRequest {
  export const method = "rlmPlan/planGraph";
  export const type = new RequestType<PlanGraphParams, PlanGraphResult | null, void>(method);
}

/**
 * One edit made in the graph view, on steps named by their JSON paths (the graph's `path`).
 * insert: a step of `op` after `step` (before it when it is the plan's final step); move: one
 * place up or down in its plan; wrap: steps `step`..`last` of one plan into a retry or a
 * one-branch parallel; rename: the step's binding, everywhere it is read.
 */
export type GraphEdit =
  | { readonly kind: "insert"; readonly step: readonly (string | number)[]; readonly op: string }
  | { readonly kind: "delete"; readonly step: readonly (string | number)[] }
  | { readonly kind: "move"; readonly step: readonly (string | number)[]; readonly direction: "up" | "down" }
  | {
      readonly kind: "wrap";
      readonly step: readonly (string | number)[];
      readonly last?: readonly (string | number)[];
      readonly wrapper: "retry" | "parallel";
    }
  | { readonly kind: "rename"; readonly step: readonly (string | number)[]; readonly newName: string };

export interface GraphEditParams {
  readonly uri: string;
  /** The document version the graph showed: an edit of an older version is refused. */
  readonly version: number;
  readonly edit: GraphEdit;
}

/** The text edit to apply (through the editor, so it is undoable), or why the edit is refused. */
export type GraphEditResult = { readonly edit: WorkspaceEdit } | { readonly refused: string };

/**
 * Client → server: the text edit that makes one graph-view edit, computed by the code behind the
 * code actions and rename (comments and layout kept); the client applies it and the graph
 * follows the text. Null when the document is not an open plan.
 */
export namespace GraphEditRequest {
  export const method = "rlmPlan/graphEdit";
  export const type = new RequestType<GraphEditParams, GraphEditResult | null, void>(method);
}

/** An exact count as sent: a number, or its decimal string beyond 2^53 (JSON has no bigint). */
export type WireCount = number | string;

/** One figure of a plan's worst case against the budget in force (the code lens's figures). */
export interface WorstCaseFigure {
  /** The lens's short label: "steps", "models", "tools", "context ops", "width", "depth". */
  readonly label: string;
  /** The estimate's field: steps, model_calls, tool_calls, context_ops, parallel_width, depth. */
  readonly figure: string;
  readonly estimate: WireCount;
  /** The budget's limit; null when no budget is in force (a host profile with problems). */
  readonly limit: number | null;
  readonly over: boolean;
}

/** One row of the worst case against the budget (every limited figure, the runtime's cost rows). */
export interface WorstCaseRow {
  /** The budget field: max_steps, max_depth, max_model_calls, ... */
  readonly field: string;
  /** "steps", "parallel width", "context operations", ... */
  readonly label: string;
  readonly estimate: WireCount;
  readonly limit: number;
  readonly over: boolean;
}

/**
 * Client → server: a plan's worst case as figures and budget rows (what the code lens shows,
 * structured); null for a document that is not an open plan or a plan not read completely (a
 * partial plan's estimate would understate it).
 */
export namespace WorstCaseRequest {
  export const method = "rlmPlan/worstCase";
  export interface Params {
    readonly uri: string;
  }
  export interface Result {
    readonly uri: string;
    /** The code lens's text: "steps 3/64 · tools 1/8 · depth 1/4". */
    readonly title: string;
    /** Some figure goes over its limit. */
    readonly over: boolean;
    /** The figures the lens shows, in its order (unused counters left out). */
    readonly figures: readonly WorstCaseFigure[];
    /** Every limited figure against the budget in force; empty when no budget is in force. */
    readonly rows: readonly WorstCaseRow[];
    /** Where the budget comes from: the host profile, the runtime's default, or none (a broken profile). */
    readonly budget: "host" | "default" | "none";
    /** The host profile in force, or null. */
    readonly hostProfile: string | null;
  }
  export const type = new RequestType<Params, Result | null, void>(method);
}

/**
 * Client → server: the text of a new host profile (JSON with comments) granting what a plan uses
 * (capabilities, tools, providers, inputs, budget above the defaults). The plan's text travels
 * with the request, so a plan not yet open in the server works too.
 */
export namespace HostProfileTemplateRequest {
  export const method = "rlmPlan/hostProfileTemplate";
  export interface Params {
    /** The plan's URI: its file name goes in the profile's description. */
    readonly uri: string;
    readonly text: string;
  }
  export type Result =
    | { readonly ok: true; readonly text: string; readonly capabilities: readonly string[] }
    | { readonly ok: false; readonly message: string };
  export const type = new RequestType<Params, Result, void>(method);
}

/** A run as the journal lists it (the core's `RunSummary`: its fields the editor shows) with its journal's folder. */
export interface JournalRunSummary extends Pick<
  RunSummary,
  | "id"
  | "uid"
  | "origin"
  | "label"
  | "plan"
  | "planFile"
  | "status"
  | "errorKind"
  | "startedAt"
  | "elapsedMs"
  | "mocked"
  | "forkOf"
> {
  readonly dir: string;
}

/**
 * Client → server: the runs of the run journal seen from a folder (the nearest `.rlm-plan/` at or
 * above it, or beside its host profile), newest first: CLI, editor and debugger runs alike.
 * `journal` is null where there is none; `notice` says why a journal could not be read.
 */
export namespace JournalRunsRequest {
  export const method = "rlmPlan/journalRuns";
  export interface Params {
    /** A folder (or file) URI. */
    readonly uri: string;
    /** At most this many (default 200). */
    readonly limit?: number;
  }
  export interface Result {
    readonly journal: string | null;
    readonly runs: readonly JournalRunSummary[];
    readonly notice?: string;
  }
  export const type = new RequestType<Params, Result, void>(method);
}

/**
 * Client → server: one recorded run whole, for the editor's run log (Open Run as Graph replays
 * its events): the events as the runtime emitted them, masked when recorded; null when the
 * journal has no such run.
 */
export namespace JournalRunRequest {
  export const method = "rlmPlan/journalRun";
  export type Params = Pick<JournalRunRef, "dir" | "id">;
  export interface Result extends JournalRunSummary {
    readonly hostFile: string | null;
    readonly events: readonly RunEvent[];
    readonly value?: unknown;
    readonly error?: PlanError;
    readonly checkpoints: readonly string[];
    readonly budgetRemaining?: Readonly<Record<string, number>>;
    /**
     * Every request for approval of the run (docs/approvals.md), oldest first: the call and step,
     * the arguments masked as recorded, the action's hash, the rule, its state (`pending` while
     * the run waits for it) and each vote (who, decision, reason, when).
     */
    readonly approvals: readonly ApprovalRequestView[];
  }
  export const type = new RequestType<Params, Result | null, void>(method);
}

/**
 * `workspace/executeCommand`: a vote on the step a waiting run waits at, as `rlm-plan runs
 * approve|deny RUN [--step PATH] --as NAME --reason TEXT` casts it (the core's voteOnRun: the
 * same refusals, word for word). Once the votes decide, the run goes on as after `runs approve`:
 * resumed by the server like ResumeRunCommand (`resumed`: its identity; events and outcome arrive
 * as notifications) unless its own `run --wait` process or a worker of its queue takes it up.
 * A refused vote fails the request with the core's reason.
 */
export namespace VoteApprovalCommand {
  export const command = "rlmPlan.server.voteApproval";
  export type Arguments = [
    {
      readonly dir: string;
      readonly id: number;
      /** The step as `runs show` prints it (steps/1), needed when several wait. */
      readonly step?: string;
      readonly vote: "approve" | "deny";
      /** Who votes: one of the rule's approvers. */
      readonly as: string;
      readonly reason: string;
      readonly env?: Readonly<Record<string, string>>;
    },
  ];
  export interface Result {
    readonly step: string;
    readonly call: string;
    readonly hash: string;
    /** `pending` while more approvals are needed. */
    readonly state: "approved" | "denied" | "pending";
    /** Who goes on: the server resumed it, the run's own process, a worker, or nobody yet. */
    readonly next: "resume" | "own-process" | "worker" | "waits";
    readonly resumed?: RunIdentity;
  }
}

/**
 * `workspace/executeCommand`: resume an interrupted (or cancelled) recorded run, as `rlm-plan run
 * --resume` does: its completed steps answered from the journal, the rest run, the same journal
 * entry continued. Answers at once like RunCommand (its events and outcome arrive the same way),
 * or fails with the reason a resume is refused (the plan or host profile changed since).
 */
export namespace ResumeRunCommand {
  export const command = "rlmPlan.server.resume";
  export type Arguments = [
    { readonly dir: string; readonly id: number; readonly env?: Readonly<Record<string, string>> },
  ];
  export type Result = RunIdentity;
}

/**
 * Client → server: the bindings in scope at a step of a recorded run, with the values the run had
 * there (found by replaying it, executing nothing, up to the step): what "Rerun From Here" lets
 * the user edit before ForkRunCommand. `reached` is false when the run never started the step (no
 * values then). Refused (`ok: false`) with `kind` `changed` when the plan or host profile changed
 * since the run (the names alone given: a fork then needs `allowChanged`), `usage` when this plan
 * has no such step, `refused` when the run cannot be found or replayed; `refusal` says why.
 */
export namespace RecordedScopeRequest {
  export const method = "rlmPlan/recordedScope";
  export interface Params extends Pick<JournalRunRef, "dir" | "id"> {
    /** The step as `rlm-plan run --step` takes it: "steps/2/plan/steps/0". */
    readonly step: string;
  }
  /** A binding in scope there; its `value` absent when the run never reached the step. */
  export type Binding = ScopedBinding;
  /** The core's answer (session.scopeAt), or `refused` when the run cannot be found or replayed. */
  export type Result =
    | RecordedScope
    | { readonly ok: false; readonly kind: "refused"; readonly refusal: string; readonly bindings: readonly [] };
  export const type = new RequestType<Params, Result, void>(method);
}

/**
 * `workspace/executeCommand`: fork a recorded run at a step, as `rlm-plan run --from RUN --step
 * PATH --set NAME=JSON [--allow-changed]` does: the steps before it answered from the journal
 * (nothing called again), that step and what follows run live with `set`'s bindings, recorded as
 * a child of the run. Answers at once like RunCommand (its events and outcome arrive the same
 * way), or fails with why the fork is refused (a changed plan without `allowChanged`, a binding
 * not in scope there).
 */
export namespace ForkRunCommand {
  export const command = "rlmPlan.server.fork";
  export type Arguments = [
    {
      readonly dir: string;
      readonly id: number;
      readonly step: string;
      readonly set?: Readonly<Record<string, JsonValue>>;
      readonly allowChanged?: boolean;
      readonly env?: Readonly<Record<string, string>>;
    },
  ];
  /** The new run, and what it forked from: the run's number and the step as `runs list` shows it. */
  export type Result = RunIdentity & { readonly forkOf: { readonly run: number; readonly step: string } };
}

/**
 * Client → server: two runs of a journal lined up step by step, as `rlm-plan runs diff A B --json`
 * prints them (the core's diffRuns): per step what differs, and the first divergent step.
 */
export namespace RunDiffRequest {
  export const method = "rlmPlan/runDiff";
  export interface Params {
    /** The journal's folder (JournalRunSummary.dir). */
    readonly dir: string;
    readonly a: number;
    readonly b: number;
  }
  export type Result = { readonly ok: true; readonly diff: RunDiff } | { readonly ok: false; readonly message: string };
  export const type = new RequestType<Params, Result, void>(method);
}

/** A case of a test file as written: an entry of "cases", or the dataset (all its lines). */
export interface TestFileCase {
  readonly name: string;
  readonly kind: "case" | "dataset";
  /** The case's object in the test file. */
  readonly range: Range;
}

/**
 * Client → server: the cases of a test file (`*.rlmplan.test.json`), from the open document or
 * the disk (the Testing view lists every test file of the workspace). Nothing runs.
 */
export namespace TestFileRequest {
  export const method = "rlmPlan/testFile";
  export interface Params {
    readonly uri: string;
  }
  export interface Result {
    readonly uri: string;
    readonly cases: readonly TestFileCase[];
    /** How many errors stop the file from running (its diagnostics say which). */
    readonly errors: number;
    /** The plan file the tests run, when the file names one that loads. */
    readonly plan: string | null;
  }
  export const type = new RequestType<Params, Result, void>(method);
}

/** One run of a case: a failing one with each failed expectation, its expected and actual values. */
export interface TestCaseRunResult {
  /** The written case (RunTestCasesRequest's `cases` names it). */
  readonly name: string;
  readonly kind: "case" | "dataset";
  /** The run's id: FILE#NAME, with " [i/N]" for repeats and NAME:LINE for a dataset's lines. */
  readonly id: string;
  readonly ok: boolean;
  readonly failures: readonly {
    readonly assertion: string;
    readonly message: string;
    readonly expected?: JsonValue;
    readonly actual?: JsonValue;
  }[];
  /** Where the case is written: the test file's case, or the dataset's line (0-based, LSP). */
  readonly location: { readonly uri: string; readonly line: number; readonly character: number };
  readonly durationMs: number;
  /** How its tools and providers answered: mocks, cassette, live. */
  readonly answered: string;
}

/**
 * Client → server: run cases of a test file through the core's test runner (the same as
 * `rlm-plan test`), only when a user asks; answers when they all ended. Cancelling the request
 * cancels the runs.
 */
export namespace RunTestCasesRequest {
  export const method = "rlmPlan/runTestCases";
  export interface Params {
    readonly uri: string;
    /** The written cases to run; all of the file's when absent. */
    readonly cases?: readonly { readonly name: string; readonly kind: "case" | "dataset" }[];
    /** Provider keys from the client's secret storage, for cases that run live. */
    readonly env?: Readonly<Record<string, string>>;
  }
  export type Result =
    | { readonly ok: true; readonly results: readonly TestCaseRunResult[] }
    | { readonly ok: false; readonly message: string };
  export const type = new RequestType<Params, Result, void>(method);
}

/** The client command a test case's "Run" lens names; arguments: the test file's URI, the case's name and kind. */
export namespace RunTestCaseClientCommand {
  export const command = "rlmPlan.runTestCase";
}

/** The client command a test case's "Debug" lens names; arguments as RunTestCaseClientCommand's. */
export namespace DebugTestCaseClientCommand {
  export const command = "rlmPlan.debugTestCase";
}

/**
 * A custom event of the debug adapter (DAP `event` with its `body`), typed: the adapter sends
 * `type.event` with a `Body`, the client reads the body through the same type (`debugEventBody`).
 * The debug adapter and the client both import these, so no event name is written twice.
 */
export class DebugEventType<Body> {
  /** Never set: it carries the body's type from the sender to the reader. */
  declare readonly body?: Body;
  constructor(readonly event: string) {}
}

/** The body of a custom event of `type`, or undefined when the event is another one. */
export function debugEventBody<Body>(
  event: { readonly event: string; readonly body?: unknown },
  type: DebugEventType<Body>,
): Body | undefined {
  // The one place a debug event's body is read as its type: the adapter sent it as `Body`.
  return event.event === type.event ? (event.body as Body) : undefined;
}

/** Debug adapter → client: a debug run started (not sent for a replay's run). */
export namespace DebugRunStartedEvent {
  export const event = "rlmPlan.started";
  export interface Body {
    /** The plan file's path. */
    readonly plan: string;
    /** The host profile file the run uses. */
    readonly hostProfile: string;
    /** A dry run's mocks file (its path): its tools and providers answer from it. */
    readonly mocks?: string;
  }
  export const type = new DebugEventType<Body>(event);
}

/** Debug adapter → client: the debug run's entry in the workspace's run journal, when recorded. */
export namespace DebugRunJournalEvent {
  export const event = "rlmPlan.journal";
  export type Body = JournalRunRef;
  export const type = new DebugEventType<Body>(event);
}

/**
 * Debug adapter → client: one event of the run's stream, as the runtime emitted it and in its
 * order (step_started, transition, step_finished, step_failed, attempt_failed): what
 * RunEventNotification carries for a run the language server runs, so a debug run's log is a
 * normal run's. Masked by the adapter's session.
 */
export namespace DebugRunEvent {
  export const event = "rlmPlan.runEvent";
  export interface Body {
    readonly event: RunEvent;
  }
  export const type = new DebugEventType<Body>(event);
}

/**
 * Debug adapter → client: the debug run ended, with what `rlm-plan run --json` reports: its value
 * or structured error, checkpoints, the budget left and its time (a cancelled run too).
 */
export namespace DebugRunResultEvent {
  export const event = "rlmPlan.result";
  export type Body = {
    /** Present (true) when the run's tools and providers answered from mocks. */
    readonly mocked?: true;
    readonly checkpoints: readonly string[];
    readonly budget_remaining: Readonly<Record<string, number>>;
    /** Milliseconds from the start of the run to its end, the debugger's pauses included. */
    readonly elapsed_ms: number;
  } & ({ readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: PlanError });
  export const type = new DebugEventType<Body>(event);
}
