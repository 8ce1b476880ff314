// Loads sdk.ts the first time an MCP server is started or listed, never at start-up. Everything
// that needs the SDK's values calls mcpSdk(); types come from the SDK directly (they cost nothing
// at run time). scripts/bundle.mjs points this require at dist/mcp-sdk.js in the bundles.

type Sdk = typeof import("./sdk");

let loaded: Sdk | undefined;

export function mcpSdk(): Sdk {
  // A plain require (not import()): it runs synchronously inside code that is already starting
  // a server, and the bundler can map it to a file beside the bundle.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("./sdk") as Sdk;
  return loaded;
}
