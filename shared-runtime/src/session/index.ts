// The plan session: the one place a plan, its host profile, the analysis policy, the mocks, the
// secret mask and the host are assembled, for every front end.

export * from "./planSession";
export * from "./analysisPolicy";
export * from "./hostProfiles";
export * from "./secretMask";
export * from "./runRecording";
