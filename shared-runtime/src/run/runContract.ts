// The run pipeline's contract: what a caller gives startRun (a plan source, a policy, a host or a
// factory told what the plan names, observers) and what it gets back (a handle, and a report with
// the stage a run stopped at, placed in the plan's file).

import type { Plan } from "../plan/ast";
import type { Budget } from "../plan/budget";
import type { PlanSource } from "../plan/parse";
import type { PlanNeeds } from "../plan/needs";
import type { ToolSignature } from "../plan/toolKnowledge";
import type { ValidatedPlan } from "../plan/validate";
import type { PlanError } from "./errors";
import type { ParallelMode } from "./events";
import type { RunHost } from "./host";
import type { ExecuteOptions } from "./interpreter";
import type { PolicyOptions } from "./pipeline";
import type { RunOutcome } from "./transitions";

export type { PlanNeeds } from "../plan/needs";

/** Where a node of the profile is: 1-based line and column, plus the range for editors. */
export interface SourceLocation {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly length: number;
}

/**
 * A located problem of a host's configuration. Declared with the run's contract (a host factory
 * fails with these) so that the run needs no host profile; host/profile.ts re-exports it.
 */
export interface HostProfileError extends SourceLocation {
  /** The file the problem is in: the profile, or a data file an input reads. */
  readonly file: string;
  /** JSON Pointer of the offending node in the profile, e.g. /tools/flaky_fetch/timeoutMs ("" for the whole file). */
  readonly jsonPath: string;
  readonly message: string;
}

/** What a host's own preflight found: refusals, and the MCP servers it started to list their tools. */
export interface HostPreflight {
  readonly errors: readonly PlanError[];
  /** MCP servers started (and asked for their tools) by this preflight, in the order asked. */
  readonly mcpServers: readonly string[];
  /** What those servers listed: `check --preflight` types the plan's calls by it, starting no server again. */
  readonly listed?: McpListing;
}

/** MCP tools as servers listed them: each by its plan name, and each server that could not be asked (host/mcp/discovery's shape). */
export interface McpListing {
  readonly tools: ReadonlyMap<string, ToolSignature>;
  readonly failures: ReadonlyMap<string, string>;
}

/** A host built for one run. */
export interface BuiltHost {
  readonly host: RunHost;
  /** The host's own preflight: programs that do not resolve, provider keys that are unset. */
  readonly problems?: readonly PlanError[];
  /**
   * The host's asynchronous preflight, asked once the synchronous checks pass and before the
   * first step: MCP servers the plan names are started, their tool lists read, and the plan's
   * calls checked against them (names, literal arguments against input schemas).
   */
  preflight?(plan: Plan, signal: AbortSignal): Promise<HostPreflight>;
  /** Whether tools or providers answer from a mocks file: every output of the run says so. */
  readonly mocked?: boolean;
  /** The host's setting for parallel branches; a run's own option wins. */
  readonly parallel?: ParallelMode;
  /** The host's budget.max_cost (in its currency); a run's own option wins. */
  readonly maxCost?: number;
  /** Stops what the run left behind (tool processes) and waits until it is gone. */
  close?(): Promise<void>;
  /** SIGKILL to every tool process still running, without waiting (a process about to exit). */
  kill?(): void;
}

export type HostSetup =
  | { readonly ok: true; readonly built: BuiltHost }
  /** Located problems of the host's configuration (file:line:col), all of them. */
  | { readonly ok: false; readonly errors: readonly HostProfileError[] };

export type HostFactory = (needs: PlanNeeds) => Promise<HostSetup>;

export interface StartRunOptions extends ExecuteOptions {
  readonly source: PlanSource;
  readonly policy: PolicyOptions;
  /** A ready host, or a factory that builds what the plan needs. */
  readonly host: RunHost | HostFactory;
}

/** Where a run stopped: the plan was invalid, the host could not be built, preflight, or it ran. */
export type RunStage = "check" | "host" | "preflight" | "execute";

export interface FileLocation {
  /** 1-based, as editors and compilers print them. */
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly length: number;
}

export interface RunReport {
  readonly outcome: RunOutcome;
  readonly stage: RunStage;
  readonly mocked: boolean;
  /** MCP servers the preflight started to list their tools (stopped when the run ends). */
  readonly mcpServers?: readonly string[];
  /** The host's located setup problems (stage "host"). */
  readonly hostErrors?: readonly HostProfileError[];
  /** The checked plan, when it was valid. */
  readonly validated?: ValidatedPlan;
  /** The budget in force, when it resolved. */
  readonly budget?: Budget;
  /** Where the error is in the plan's file, when the plan came from a document. */
  readonly location?: FileLocation;
}

export interface RunHandle {
  readonly done: Promise<RunReport>;
  /** Cancels the run (as `signal` does): the runtime stops, tool processes are killed. */
  cancel(): void;
  /** Kills tool processes now, without waiting (the second Ctrl-C). */
  kill(): void;
}

/** What `check --preflight` reports: the refusal a run would give before its first step, or none. */
export interface PreflightReport {
  /** Whether a run would get past its preflight (nothing of the plan has run). */
  readonly ok: boolean;
  /** The run's report when it would be refused (stage check, host or preflight). */
  readonly refusal?: RunReport;
  /** MCP servers started to list their tools, all stopped again. */
  readonly mcpServers: readonly string[];
  /**
   * What they listed (whether or not the preflight passed): the static check's MCP tool
   * knowledge, no server started twice.
   */
  readonly mcpListing?: McpListing;
  /**
   * Every problem the preflight found (a run stops at the first, `refusal`): all unknown names,
   * all of the host's own problems, every MCP listing's refusals, each with its place.
   */
  readonly problems?: readonly PreflightProblem[];
}

/** One problem of a preflight that went on past the first (`check --preflight`). */
export interface PreflightProblem {
  readonly error: PlanError;
  readonly location?: FileLocation;
}
