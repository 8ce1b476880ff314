// The secret mask, as one entry (`@rlm-plan/core/secrets`): the mask itself and the session's way
// of filling it. Every front end masks its output through these; none builds a mask of its own
// (the plan session does).

export * from "./run/secrets";
export * from "./session/secretMask";
