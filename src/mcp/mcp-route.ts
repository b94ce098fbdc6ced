/**
 * `POST /mcp`: a Model Context Protocol server over streamable HTTP (stateless: every POST carries its own JSON-RPC
 * message, answered as JSON), built with the official SDK. The API key is presented as on REST (`Authorization:
 * Bearer`, `x-api-key`); a missing or bad one is the REST 401 before any MCP work. Each tool call is dispatched through
 * the app itself as the REST request it stands for, with the same key, so it is authenticated, metered, rate-limited
 * and validated exactly as that request would be; its refusals (400, 402, 429, …) come back as tool errors carrying the
 * REST error envelope.
 */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod/mini";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { AppContext } from "../app-context";
import { presentedApiKey, requireApiKey } from "../middleware/auth";
import { errorResponse, restErrors, type Operation } from "../routes/openapi/operation";
import { mcpToolsOf, toolCallUrl, type McpTool } from "./mcp-tools";

/**
 * The SDK imports classic zod, which installs its English messages for every zod schema of the bundle at load time. Our
 * schemas are zod/mini and our refusals say what was expected in our own words when zod's text is its bare "Invalid
 * input" (routes/openapi/operation.ts, streams/stream-protocol.ts): put that default back, once the SDK has loaded
 * (imports are evaluated before this line).
 */
z.config({ localeError: () => undefined });

/** Answers one REST request with the app (auth, metering and all); the MCP route's caller supplies it. */
export type AppDispatch = (request: Request, env: AppContext["Bindings"], ctx: AppContextExecution) => Response | Promise<Response>;
type AppContextExecution = Parameters<Hono<AppContext>["fetch"]>[2];

const serverInfo = { name: "token-market-data", version: "0.1.0" };
const instructions =
  "Solana token market data: prices, token profiles, trending tokens, windowed trading stats, recent trades and OHLCV candles. " +
  "Every tool call is one REST call of the same name and is metered and rate-limited like it.";

/**
 * Our tools take no schemas from clients (no elicitation), so the SDK's JSON Schema validator is never asked for one;
 * this stands in for its default (Ajv, which compiles validators with `new Function`: not allowed in Workers).
 */
const noClientSchemas: jsonSchemaValidator = {
  getValidator() {
    throw new McpError(ErrorCode.InvalidRequest, "This server validates no client-supplied schema");
  },
};

/**
 * The message is read (≤ limits.maxMcpBodyBytes, app.ts) before the key is judged: a 401 sent while the client is still
 * sending its body leaves that body on a kept-alive connection, and the client's next request on it fails.
 */
const readBodyFirst = createMiddleware<AppContext & { Variables: { mcpBody: string } }>(async (c, next) => {
  c.set("mcpBody", await c.req.text());
  await next();
});

/** The route serving the tools of `operations` (the app's own REST operations), calling `dispatch` for each tool call. */
export function mcpRoutes(operations: readonly Operation[], dispatch: AppDispatch) {
  const tools = mcpToolsOf(operations);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema }));

  return new Hono<AppContext>().post(mcpOperation.path, readBodyFirst, requireApiKey, async (c) => {
    const key = presentedApiKey(c.req)!;
    const server = new Server(serverInfo, { capabilities: { tools: { listChanged: false } }, instructions, jsonSchemaValidator: noClientSchemas });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = byName.get(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      return callTool(tool, request.params.arguments, key, c.req.url, (req) => dispatch(req, c.env, c.executionCtx));
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(new Request(c.req.raw.url, { method: "POST", headers: c.req.raw.headers, body: c.get("mcpBody") }));
  });
}

/** One tool call: the REST GET it stands for, with the caller's key; a non-2xx answer is a tool error with its envelope. */
async function callTool(tool: McpTool, args: Record<string, unknown> | undefined, key: string, mcpUrl: string, dispatch: (req: Request) => Response | Promise<Response>): Promise<CallToolResult> {
  const url = toolCallUrl(tool, args, new URL(mcpUrl).origin);
  const response = await dispatch(new Request(url, { headers: { "x-api-key": key } }));
  const text = await response.text();
  return response.ok ? { content: [{ type: "text", text }] } : { isError: true, content: [{ type: "text", text }] };
}

const jsonRpc = z.object({ jsonrpc: z.literal("2.0"), id: z.optional(z.union([z.string(), z.number()])), method: z.optional(z.string()), params: z.optional(z.unknown()) });

export const mcpOperation: Operation = {
  method: "post",
  path: "/mcp",
  operationId: "mcp",
  summary: "Model Context Protocol server (streamable HTTP): the price, quote, overview, security, holders, trend, stats, trades and OHLCV routes as tools",
  description:
    "For AI agents and MCP clients. Stateless: each POST carries one JSON-RPC message (`initialize`, `tools/list`, `tools/call`, …) and is answered as JSON. " +
    "A tool's input schema and description are its REST route's; a call is that REST call, with the same key, credits and rate limits, and a refusal comes back as a tool error holding the REST error envelope. " +
    "See the README (MCP) for client configuration.",
  tags: ["mcp"],
  authenticated: true,
  requestBody: {
    description: "One MCP JSON-RPC message",
    contentType: "application/json",
    schema: jsonRpc,
    examples: { list: { summary: "List the tools", value: { jsonrpc: "2.0", id: 1, method: "tools/list" } } },
  },
  responses: {
    200: {
      description: "The JSON-RPC answer (tool results carry the REST answer as text)",
      schema: jsonRpc,
      examples: { result: { summary: "A tool call's result", value: { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: '{"hour":1,"limit":10,"updatedAt":null,"slot":null}' }] } } } },
    },
    401: restErrors[401],
    413: errorResponse("PAYLOAD_TOO_LARGE", "A message over the body cap"),
    500: restErrors[500],
  },
};
