// The core's readers of text, as one entry (`@rlm-plan/core/text`): bounded file reads, the
// Content-Length framer, strict JSON text, plan documents, offsets as line and column and XML text.

export * from "./boundedFile";
export * from "./contentLengthFrames";
export * from "./jsonText";
export * from "./planDocument";
export * from "./lineColumn";
export * from "./shownPath";
export * from "./xmlText";
