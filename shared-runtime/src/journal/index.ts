// The run journal, as one entry (`@rlm-plan/core/journal`): where it is kept, its store, the
// recorder a run writes through, the queries `rlm-plan runs` asks and the replay of a resumed run.

export * from "./location";
export * from "./journalStore";
export * from "./recorder";
export * from "./runOrigin";
export * from "./queries";
export { costRangeOf, type CostRange } from "./runCost";
export * from "./replay";
export * from "./replayRun";
export * from "./runId";
export { JOURNAL_FILE } from "./schema";
export * from "./runDiff";
export * from "./recordedSteps";
export * from "./approvals";
export * from "./caseVerdicts";
export * from "./approvalVote";
export * from "./decisionWait";
