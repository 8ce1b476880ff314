// An MCP server reached over streamable HTTP on 127.0.0.1: a real node HTTP server in this
// process, serving the SDK's own server side (stateless), and a plan whose tool call goes there.

import assert from "node:assert/strict";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createRunHost, parseHostProfile } from "@rlm-plan/core/host";
import { runPlan } from "@rlm-plan/core/run/startRun";
import { type JsonValue } from "@rlm-plan/core";

let http: HttpServer;
let url = "";

/** A fresh MCP server per request: the stateless mode of the streamable HTTP transport. */
function mcpServer(): Server {
  const server = new Server({ name: "http-test", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "upper", inputSchema: { type: "object", properties: { text: { type: "string" } } } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: "text", text: String(request.params.arguments?.text ?? "").toUpperCase() }],
  }));
  return server;
}

before(async () => {
  http = createServer((req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = mcpServer();
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});
after(() => new Promise<void>((done) => http.close(() => done())));

test("a plan calls a tool of an MCP server reached at its url", async () => {
  const parsed = parseHostProfile(
    JSON.stringify({ capabilities: ["tool(web.upper)"], mcpServers: { web: { type: "http", url } } }),
    "/tmp/rlmplan.host.json",
  );
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  const created = await createRunHost(parsed.profile);
  try {
    const plan = {
      steps: [
        { op: "tool", name: "web.upper", args: { text: "quiet" }, bind: "r" },
        { op: "final", value: { ref: "var", name: "r" } },
      ],
    };
    const outcome = await runPlan({ kind: "value", value: plan as unknown as JsonValue }, created.policy, created.host);
    assert.equal(outcome.ok && outcome.value, "QUIET");
  } finally {
    await created.close();
  }
});
