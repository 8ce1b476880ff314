// The plan session: the one place a plan, its host profile, the analysis policy, the mocks, the
// secret mask and the host are assembled, for every front end.

export * from "./planSession";
export type { ForkRequest, ForkStart } from "./runFork";
export type { RecordedScope, ScopedBinding } from "./recordedScope";
export type { StepRequest, StepStart } from "./stepRun";
export * from "./openSession";
export * from "./sessionOptions";
export * from "./analysisPolicy";
export * from "./hostProfiles";
export * from "./sessionMask";
// What session.propose() returns.
export type { Proposal, ProposalProblem } from "../providers/proposal";
// Types only: the journal (node:crypto, SQLite) is required when a session records (planSession.ts).
export type { RecordedSession, RecordingStart, RecordRequest, SessionRecording } from "./runRecording";
export type { RecordedRef, RunLife, SessionRun } from "./runLife";
export { osUserName } from "./runLife";
export type { RecordedOptions, RecordedRun, RecordedRunLookup } from "./recordedRun";
// What session.pinTools() (`rlm-plan lock`) returns.
export type { PinOutcome } from "../host/lock/pinProfile";
export type { PinChange } from "../host/lock/lockDrift";
export { LOCK_FILENAME } from "../host/lock/lockFormat";
// A dry run's mocks as the session reads them, and the warnings for mocked names a plan never calls.
export { MOCKS_FILE_SUFFIX, parseMocks, type Mocks } from "../host/mocks";
export { mockNameWarnings, planCalls } from "../host/mockNames";
// The folders the user allows outside the workspace: every session's profile and test files are
// read under the boundary, so a front end sets them here (the static CLI bundle has no host door).
export { allowOutsidePaths } from "../host/workspaceBoundary";
export { approvalForecast, approvalStepText, type ApprovalForecast, type ApprovalStep } from "../host/approvalSteps";
export type { ApprovalRule } from "../host/approvalRules";

// A recorded run to resume or replay (recordedRun.ts): the journal (node:crypto, SQLite) is
// required on the first call, so that a check loads none of it.
type RecordedRuns = typeof import("./recordedRun");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const recordedRuns = (): RecordedRuns => require("./recordedRun") as RecordedRuns;
/** Run `id` of the journal in `dir`, to resume or to replay, or why not (recordedRun.ts). */
export const openRecordedRun: RecordedRuns["openRecordedRun"] = (...args) => recordedRuns().openRecordedRun(...args);
/** The latest unfinished run of a worker's job, held open to resume (recordedRun.ts). */
export const unfinishedJobRun: RecordedRuns["unfinishedJobRun"] = (...args) => recordedRuns().unfinishedJobRun(...args);
/** Why a worker's job still waits for approval, or undefined (recordedRun.ts). */
export const jobAwaitingApproval: RecordedRuns["jobAwaitingApproval"] = (...args) =>
  recordedRuns().jobAwaitingApproval(...args);
/** What a session that runs a recorded run again is opened with (recordedRun.ts). */
export const recordedSessionOptions: RecordedRuns["recordedSessionOptions"] = (...args) =>
  recordedRuns().recordedSessionOptions(...args);
// A recorded run's worst case in tokens and money, for the run browser (no journal is opened).
export {
  recordedApprovalForecast,
  recordedWorstCase,
  type RunWorstCase,
  type StepWorstCase,
} from "./recordedWorstCase";
// The what-if of `check --against` and the editor's lens: a plan against its file at a git base.
export * from "./sessionWhatIf";
