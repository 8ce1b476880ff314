// What the VS Code client takes from the core, as one entry (`@rlm-plan/core/editor`): only
// dependency-free leaves (names, the graph's ids and style, the mask), so the extension bundle
// carries no validator, analysis or ajv (test/integration/bundle.client-contents.test.ts holds that).
// Everything else the client knows of plans it asks the language server.

export { HOST_PROFILE_FILENAME } from "./host/filename";
export { OPERATIONS } from "./plan/ast";
export { pathId, ROOT_PLAN_ID } from "./graph/ids";
export { GRAPH_STYLE } from "./graph/style";
export { maskedMethods, type SecretMask } from "./mask/secretMask";
export { sessionMask } from "./session/sessionMask";
