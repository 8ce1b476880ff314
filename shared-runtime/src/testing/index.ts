// `rlm-plan test`'s core, as one entry (`@rlm-plan/core/testing`): test files, their cases run
// and priced, and cassette files.

export * from "./testFile";
export * from "./runCase";
export * from "./testRun";
export * from "./cassetteFiles";
export * from "./cassetteRecording";
export * from "./baselineFiles";
export { BASELINE_COST_COUNTERS, type CaseBaseline } from "./baseline";
export * from "./testFileView";
export { inExpectedOrder } from "./diffOrder";
export { runAnsweringApprovals, waitsForApproval } from "./caseApprovals";
