// The values the runtime uses from the MCP SDK, in one module that is loaded on first use
// (lazySdk.ts). The SDK and the zod schemas it is built on are about half of the language
// server's bundle, and only host profiles with MCP servers need them: the bundle script builds
// this module as a file of its own (dist/mcp-sdk.js) so that starting the server never parses it.

export { Client } from "@modelcontextprotocol/sdk/client/index.js";
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
export { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
