// The plan session: the one place a plan, its host profile, the analysis policy, the mocks, the
// secret mask and the host are assembled, for every front end.

export * from "./planSession";
export * from "./openSession";
export * from "./sessionOptions";
export * from "./analysisPolicy";
export * from "./hostProfiles";
export * from "./sessionMask";
// What session.propose() returns.
export type { Proposal, ProposalProblem } from "../providers/proposal";
// Types only: the journal (node:crypto, SQLite) is required when a session records (planSession.ts).
export type { RecordedSession, RecordingStart, RecordRequest, SessionRecording } from "./runRecording";
// A dry run's mocks as the session reads them, and the warnings for mocked names a plan never calls.
export { MOCKS_FILE_SUFFIX, parseMocks, type Mocks } from "../host/mocks";
export { mockNameWarnings, planCalls } from "../host/mockNames";
// The folders the user allows outside the workspace: every session's profile and test files are
// read under the boundary, so a front end sets them here (the static CLI bundle has no host door).
export { allowOutsidePaths } from "../host/workspaceBoundary";
