// The core's readers of text, as one entry (`@rlm-plan/core/text`): bounded file reads, the
// Content-Length framer, strict JSON text, plan documents and offsets as line and column.

export * from "./boundedFile";
export * from "./contentLengthFrames";
export * from "./jsonText";
export * from "./planDocument";
export * from "./lineColumn";
