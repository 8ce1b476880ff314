// The plan session: the one place a plan, its host profile, the analysis policy, the mocks, the
// secret mask and the host are assembled, for every front end.

export * from "./planSession";
export * from "./openSession";
export * from "./sessionOptions";
export * from "./analysisPolicy";
export * from "./hostProfiles";
export * from "./secretMask";
// Types only: the journal (node:crypto, SQLite) is required when a session records (planSession.ts).
export type { RecordedSession, RecordingStart, RecordRequest, SessionRecording } from "./runRecording";
