// The shapes of a loaded test file: a suite and its cases with their expectations. Apart from the
// loader (testFile.ts, which re-exports them) so a dataset's compact case (datasetCase.ts) can
// name them without an import cycle.

import type { MoneyEstimate } from "../plan/estimate";
import type { JsonObject, JsonPath, JsonValue } from "../json";
import type { Estimate } from "../plan/estimate";
import type { Mocks } from "../host/mocks";
import type { HostProfile, HostProfileError } from "../host/profile";

export interface ValueExpectation {
  readonly equals?: JsonValue;
  readonly contains?: JsonValue;
  readonly schema?: JsonObject | boolean;
}

export interface ErrorExpectation {
  readonly kind?: string;
  readonly phase?: string;
  readonly step?: string;
  readonly message?: string;
}

export interface StepsExpectation {
  readonly transitions?: readonly string[];
  readonly paths?: readonly string[];
  readonly ran?: readonly string[];
  readonly neverRan?: readonly string[];
}

export interface CostsExpectation {
  readonly withinEstimate?: boolean;
  readonly maxModelCalls?: number;
  readonly maxToolCalls?: number;
  readonly maxSteps?: number;
  readonly maxOutputBytes?: number;
}

/** A step that must ask for approval (and how many times: 0, that it never asks). */
export interface ApprovalsExpectation {
  /** The step, as a JSON Pointer. */
  readonly step: string;
  readonly requests: number;
}

export interface Expectations {
  readonly value?: ValueExpectation;
  readonly error?: ErrorExpectation;
  readonly steps?: StepsExpectation;
  readonly costs?: CostsExpectation;
  readonly approvals?: readonly ApprovalsExpectation[];
}

/**
 * A case's answer to a call an approval rule holds, when its run waits there (caseApprovals.ts): a
 * vote, or the request left to time out (its rule's on_timeout applies, no real time waited).
 */
export type ApprovalAnswer = {
  /** The held step, as a JSON Pointer; none: any held call. */
  readonly step?: string;
  /** Where the entry is written in the case's test file: a refused vote is said there. */
  readonly at: { readonly line: number; readonly column: number };
} & (
  | {
      readonly vote: "approve" | "deny";
      /** The approver. */
      readonly as: string;
      readonly reason: string;
    }
  | { readonly vote: "timeout" }
);

export interface CaseLocation {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
}

/** One run of a case: a case with `repeat: 3` is three of these. */
export interface TestCase {
  /** Unique in a test run: the test file (as given), "#", the name, and " [i/N]" for repeats. */
  readonly id: string;
  /** The case's name as written (a dataset's: NAME:LINE). */
  readonly name: string;
  /** Which repetition this is, when the case repeats. */
  readonly repeat?: { readonly index: number; readonly of: number };
  readonly suite: TestSuite;
  /** Where the case is written: its object in the test file, or its line of the dataset. */
  readonly location: CaseLocation;
  readonly inputs: JsonObject;
  readonly mocks?: Mocks;
  /** Absolute path of its cassette. */
  readonly cassette?: string;
  readonly expect: Expectations;
  /** How the calls approval rules hold are answered; none: such a call fails the case (approval_pending). */
  readonly approvals?: readonly ApprovalAnswer[];
  /** Only this step runs (a case's `step`), with these bindings as its scope; priced at its own worst case. */
  readonly step?: { readonly at: JsonPath; readonly bindings: JsonObject; readonly estimate?: Estimate };
}

export interface TestSuite {
  /** The test file, as given. */
  readonly file: string;
  readonly planFile: string;
  readonly planText: string;
  readonly profile: HostProfile;
  /** The plan's worst case, when it parses (an invalid plan still runs, and fails, as a case). */
  readonly estimate?: Estimate;
  /** Its worst case in money under the profile's prices, in its currency (`test --max-cost cost=N`). */
  readonly money?: MoneyEstimate & { readonly currency: string };
  readonly cases: readonly TestCase[];
  /**
   * What is likely a mistake but does not stop a run: inputs the plan never reads or lacks,
   * mocks for tools and providers the plan never calls. Located like errors.
   */
  readonly warnings: readonly HostProfileError[];
  /** `baseline.cost_tolerance`: how far (a fraction) each cost counter may move from the blessed run's; none is 0. */
  readonly costTolerance?: number;
}
