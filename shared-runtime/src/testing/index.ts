// `rlm-plan test`'s core, as one entry (`@rlm-plan/core/testing`): test files, their cases run
// and priced, and cassette files.

export * from "./testFile";
export * from "./runCase";
export * from "./testRun";
export * from "./cassetteFiles";
export * from "./cassetteRecording";
export * from "./testFileView";
export { inExpectedOrder } from "./diffOrder";
