import { describe, expect, it } from "vitest";
import { operations } from "../../../src/app";
import { buildOpenApiDocument } from "../../../src/routes/openapi/document";
import { mcpToolsOf, toolCallUrl } from "../../../src/mcp/mcp-tools";

type Param = { name: string; required: boolean; description: string; schema: Record<string, unknown> };

describe("MCP tools from the routes' operations", () => {
  const doc = buildOpenApiDocument({ title: "t", version: "0", description: "d" }, operations) as { paths: Record<string, { get?: { operationId: string; summary: string; description?: string; parameters: Param[] } }> };
  const tools = mcpToolsOf(operations);

  it("offers price, overview, trend, stats, trades and ohlcv, each with its route's documented parameters and text", () => {
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["price", "quote", "overview", "security", "holders", "trend", "stats", "trades", "ohlcv"]));
    for (const tool of tools) {
      // Given the route's entry in the OpenAPI document
      const op = doc.paths[tool.path]!.get!;
      expect(op.operationId).toBe(tool.name);
      // Then the tool's input schema is its parameters, property for property, and the same ones are required
      expect(Object.keys(tool.inputSchema.properties)).toEqual(op.parameters.map((p) => p.name));
      for (const p of op.parameters) expect(tool.inputSchema.properties[p.name], `${tool.name} ${p.name}`).toEqual({ ...p.schema, description: p.description });
      expect(tool.inputSchema.required).toEqual(op.parameters.filter((p) => p.required).map((p) => p.name));
      expect(tool.description).toBe(op.description ? `${op.summary}. ${op.description}` : op.summary);
    }
  });

  it("a call's arguments become the route's query: text as given, numbers as digits, lists joined, undeclared ones dropped", () => {
    const ohlcv = tools.find((t) => t.name === "ohlcv")!;
    const url = toolCallUrl(ohlcv, { ca: "Mint111", interval: "1h", limit: 10, fillEmpty: true, unknown: "x", from: null }, "https://api.example");
    expect(url.pathname).toBe("/api/v1/ohlcv");
    expect([...url.searchParams.entries()]).toEqual([["ca", "Mint111"], ["interval", "1h"], ["limit", "10"], ["fillEmpty", "true"]]);
    const stats = tools.find((t) => t.name === "stats")!;
    expect(toolCallUrl(stats, { ca: ["A", "B"] }, "https://api.example").search).toBe("?ca=A%2CB");
  });
});
