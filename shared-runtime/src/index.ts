// The shared runtime's public surface: everything the CLI, the language server and hosts use.

export * from "./json";
export * from "./plan/ast";
export * from "./plan/problems";
export * from "./plan/parse";
export * from "./plan/normalize";
export * from "./plan/budget";
export * from "./plan/capabilities";
export * from "./plan/estimate";
export * from "./plan/validate";
export * from "./text/jsonText";
export * from "./text/planDocument";
export * from "./analysis";
export * from "./context/store";
export * from "./run/errors";
export * from "./run/host";
export * from "./run/preflight";
export * from "./run/transitions";
export * from "./run/interpreter";
export * from "./run/pipeline";
export * from "./host";
export * from "./graph";
