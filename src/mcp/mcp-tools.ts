/**
 * The MCP tools, one per REST route an agent needs, each made from that route's own `Operation` (the declaration that
 * also validates the route and becomes its entry in `GET /openapi.json`): the tool's name is the operation id, its
 * description the operation's summary and description, its input schema the query's JSON Schema as the document
 * renders it (routes/openapi/document.ts `queryInputSchema`). A tool call is the REST call: arguments become the query
 * of a GET on the route's path, answered by the app itself (auth, metering, limits and all).
 */
import type { Operation } from "../routes/openapi/operation";
import { queryInputSchema } from "../routes/openapi/document";

/** The routes offered as tools, by operation id, in the order tools are listed. */
export const mcpToolOperationIds = ["price", "price_history", "quote", "overview", "security", "holders", "trend", "stats", "trades", "ohlcv"] as const;

export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ReturnType<typeof queryInputSchema>;
  /** the route a call makes */
  path: string;
}

/** The tools of `operations` (those named in `mcpToolOperationIds` that the app serves; a missing one is left out). */
export function mcpToolsOf(operations: readonly Operation[]): McpTool[] {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return mcpToolOperationIds.flatMap((id) => {
    const op = byId.get(id);
    if (!op || op.method !== "get" || !op.query) return [];
    return [{ name: op.operationId, title: op.summary, description: op.description ? `${op.summary}. ${op.description}` : op.summary, inputSchema: queryInputSchema(op.query), path: op.path }];
  });
}

/**
 * The REST URL a call of `tool` with `args` makes: each declared parameter given becomes a query parameter (numbers and
 * booleans as text, a list joined by commas, as the query takes them); undeclared ones are not sent, as the REST route
 * does not read them.
 */
export function toolCallUrl(tool: McpTool, args: Record<string, unknown> | undefined, origin: string): URL {
  const url = new URL(tool.path, origin);
  for (const name of Object.keys(tool.inputSchema.properties)) {
    const value = args?.[name];
    if (value === undefined || value === null) continue;
    url.searchParams.set(name, Array.isArray(value) ? value.map(String).join(",") : String(value));
  }
  return url;
}
