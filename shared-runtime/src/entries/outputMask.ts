// The secret mask, as one entry (`@rlm-plan/core/secrets`): the mask itself and the session's way
// of filling it. Every front end masks its output through these; none builds a mask of its own
// (the plan session does).

export * from "../mask/secretMask";
export * from "../session/sessionMask";
