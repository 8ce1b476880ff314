// What a launch request carries (a plan file, a recorded run or a test file's case) and what a
// prepared launch hands the session: the shapes the three kinds of launch share.

import type { DebugProtocol } from "@vscode/debugprotocol";
import type { StepLine } from "@rlm-plan/core/debug";
import type { PlanSession, RecordedRun } from "@rlm-plan/core/session";

export interface LaunchArguments extends DebugProtocol.LaunchRequestArguments {
  /** The plan file to debug. */
  readonly program: string;
  /** The host profile; default: the nearest rlmplan.host.json in the plan's folder or above. */
  readonly hostProfile?: string;
  /** Input name -> text file, replacing the profile's input (like `rlm-plan run --input`). */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Stop before the first step. */
  readonly stopOnEntry?: boolean;
  /** Folder that relative paths are resolved against; default the adapter's working folder. */
  readonly cwd?: string;
  /** Count time spent paused against the plan's time limit (default false). */
  readonly countPausedTime?: boolean;
  /** Variables added to the environment tools inherit and providers read keys from. */
  readonly env?: Readonly<Record<string, string>>;
  /** A mocks file (`*.mocks.json`): the tools and providers it names answer from it (a dry run). */
  readonly mocks?: string;
  /**
   * A recorded run to step through without executing anything ("Debug Recorded Run"): the run
   * journal's folder and the run's number. `program` is then the run's plan (it may be omitted).
   */
  readonly replay?: { readonly journal: string; readonly run: number };
  /**
   * A case of a test file to debug instead of `program` alone: its plan, host profile, inputs,
   * and its mocks or cassette (testing/runCase.ts' host, as `rlm-plan test` runs it).
   */
  readonly testCase?: { readonly file: string; readonly name: string; readonly kind?: "case" | "dataset" };
}

export interface Prepared {
  readonly file: string;
  readonly hostProfile: string;
  /**
   * The session the run starts from. It builds what the plan names and every input of the
   * profile besides: the Variables view and the debug console show the host's inputs. Text
   * files among them are only indexed when something reads them, so an unused one costs nothing.
   */
  readonly session: PlanSession;
  readonly steps: readonly StepLine[];
  /** The mocks file, as named, when the run is a dry run. */
  readonly mocks?: string;
  /** A recorded run replayed (the session's `replay`): its calls answered from the journal, nothing executed. */
  readonly replay?: { readonly run: number; readonly recorded: RecordedRun };
}
