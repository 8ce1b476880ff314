// The core's readers of text, as one entry (`@rlm-plan/core/text`): bounded file reads, the
// Content-Length framer, strict JSON text, plan documents and the ranges of paths in them, offsets
// as line and column, the nearest of a list of names, and XML text.

export * from "./boundedFile";
export * from "./contentLengthFrames";
export * from "./jsonText";
export * from "./planDocument";
export * from "./lineColumn";
export * from "./shownPath";
export * from "./xmlText";
export { type ProblemTarget } from "./pathRanges";
export * from "./nearestName";
