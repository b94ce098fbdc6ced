/**
 * The MCP server at `/mcp` through the official MCP client SDK over real HTTP: the bundled worker served by Miniflare
 * (what ships), localnet's tiny world behind it. The client lists the tools and calls each; every tool's input schema
 * and description are those `GET /openapi.json` shows for its route; a call answers what the REST call answers; a FREE
 * key is limited through MCP exactly as through REST (one meter: 429 as a tool error, then REST refused too); a missing
 * or bad key is a 401 before any MCP work.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { plans } from "../../src/accounts/plans";
import type { TinyChain } from "../localnet/helpers/local-chain";
import { closeWorkerAndChain, serveWorkerOnTinyChain, type ServedWorker } from "./helpers/served-worker";
import { newAccount } from "../helpers/ids";
import { sleep } from "../helpers/wait";

const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

let chain: TinyChain;
let worker: ServedWorker;
let key = "";

beforeAll(async () => {
  ({ chain, worker } = await serveWorkerOnTinyChain({ slotMs: 100 }));
  key = await worker.newApiKey();
});

afterAll(() => closeWorkerAndChain({ chain, worker }));

/** A connected MCP client presenting `headers` (the key as `Authorization: Bearer`, unless told otherwise). */
async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${worker.origin}/mcp`), { requestInit: { headers } }));
  return client;
}
const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
const rest = (k: string, path: string) => fetch(`${worker.origin}${path}`, { headers: { "x-api-key": k } });
const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { type: string; text: string }[])[0]!.text;

/** Each tool, with arguments for a call and the REST query those arguments are. */
const calls: { tool: string; args: Record<string, unknown>; query: string }[] = [
  { tool: "price", args: { ca: SOL }, query: `/api/v1/price?ca=${SOL}` },
  { tool: "price_history", args: { ca: USDC, time: "1700000000" }, query: `/api/v1/price/history?ca=${USDC}&time=1700000000` },
  { tool: "overview", args: { ca: USDC }, query: `/api/v1/overview?ca=${USDC}` },
  { tool: "quote", args: { ca: USDC, side: "sell", amount: "1", unit: "token" }, query: `/api/v1/quote?ca=${USDC}&side=sell&amount=1&unit=token` },
  { tool: "security", args: { ca: USDC }, query: `/api/v1/security?ca=${USDC}` },
  { tool: "holders", args: { ca: USDC, limit: "5" }, query: `/api/v1/holders?ca=${USDC}&limit=5` },
  { tool: "trend", args: { hour: "1", limit: "5" }, query: "/api/v1/trend?hour=1&limit=5" },
  { tool: "stats", args: { ca: `${SOL},${USDC}` }, query: `/api/v1/stats?ca=${SOL},${USDC}` },
  { tool: "trades", args: { ca: USDC, limit: 3 }, query: `/api/v1/trades?ca=${USDC}&limit=3` },
  { tool: "ohlcv", args: { ca: USDC, interval: "1h", limit: "10" }, query: `/api/v1/ohlcv?ca=${USDC}&interval=1h&limit=10` },
];

describe("MCP at /mcp through the official client", () => {
  it("lists one tool per route, each with its route's input schema and description as /openapi.json documents them", async () => {
    // Given a client connected with an API key as a bearer token
    const client = await connect(bearer(key));
    // When it lists the tools
    const { tools } = await client.listTools();
    // Then they are the routes' tools (a quote route, where the service has one, would be listed too)
    const doc = (await (await fetch(`${worker.origin}/openapi.json`)).json()) as { paths: Record<string, any> };
    const expected = ["price", "price_history", "quote", "overview", "security", "holders", "trend", "stats", "trades", "ohlcv"].filter((id) => Object.values(doc.paths).some((p) => p.get?.operationId === id));
    expect(tools.map((t) => t.name)).toEqual(expected);
    expect(expected).toEqual(expect.arrayContaining(calls.map((c) => c.tool)));
    for (const tool of tools) {
      const [path, item] = Object.entries(doc.paths).find(([, p]) => p.get?.operationId === tool.name)!;
      const op = item.get;
      // And each input schema is the route's documented parameters, property by property, with the same required ones
      const params = op.parameters as { name: string; required: boolean; description: string; schema: Record<string, unknown> }[];
      expect(Object.keys(tool.inputSchema.properties ?? {}), path).toEqual(params.map((p) => p.name));
      for (const p of params) expect((tool.inputSchema.properties as Record<string, unknown>)[p.name], `${path} ${p.name}`).toEqual({ ...p.schema, description: p.description });
      expect(tool.inputSchema.required ?? [], path).toEqual(params.filter((p) => p.required).map((p) => p.name));
      expect(tool.description, path).toBe(op.description ? `${op.summary}. ${op.description}` : op.summary);
      expect(tool.title, path).toBe(op.summary);
    }
    await client.close();
  });

  it("calls each tool: the answer is the REST route's answer for the same query", async () => {
    const client = await connect(bearer(key));
    const outcomes: Record<string, number> = {};
    for (const { tool, args, query } of calls) {
      // When the tool is called, and the REST route asked the same
      const result = await client.callTool({ name: tool, arguments: args });
      const res = await rest(key, query);
      const restBody = await res.json();
      // Then both succeed or fail alike, with the same body (price and overview carry times: compared by their identity)
      expect(result.isError ?? false, `${tool}: ${textOf(result)}`).toBe(!res.ok);
      // (the trade-index routes answer an empty index with 200: those calls must succeed; the chain-reading ones answer
      // from the tiny world, which has no pools)
      const chainRead = ["price", "quote", "overview", "security", "holders"].includes(tool);
      // (price history on that empty index is its 404 naming the retention, the same body through both)
      if (!chainRead) expect(res.status, tool).toBe(tool === "price_history" ? 404 : 200);
      outcomes[tool] = res.status;
      const mcpBody = JSON.parse(textOf(result));
      // chain reads carry slots and times: a success is compared by its identity, a refusal by its status and code
      if (chainRead && res.ok) expect({ ca: mcpBody.ca ?? mcpBody.mint, dex: mcpBody.dex }, tool).toEqual({ ca: (restBody as any).ca ?? (restBody as any).mint, dex: (restBody as any).dex });
      else if (chainRead) expect({ status: mcpBody.status, code: mcpBody.error?.code }, tool).toEqual({ status: (restBody as any).status, code: (restBody as any).error?.code });
      else expect(mcpBody, tool).toEqual(restBody);
    }
    console.log(JSON.stringify({ mcpToolStatuses: outcomes }));
    await client.close();
  });

  it("bad arguments are the route's 400, as a tool error naming the parameter; an unknown tool is a protocol error", async () => {
    const client = await connect({ "x-api-key": key });
    const bad = await client.callTool({ name: "trend", arguments: { hour: "0", limit: "5" } });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(textOf(bad))).toEqual({ status: "error", error: { code: 400, message: "Invalid query parameter hour: must be at least 1" } });
    const missing = await client.callTool({ name: "stats", arguments: {} });
    expect(JSON.parse(textOf(missing))).toEqual({ status: "error", error: { code: 400, message: "Missing required query parameter: ca" } });
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow(/Unknown tool: nope/);
    await client.close();
  });

  it("a FREE key is limited through MCP as through REST: one meter, 429 as a tool error", async () => {
    // Given a FREE key (one request per second for the account, all surfaces together)
    expect(plans.free.requestsPerSecond).toBe(1);
    const free = await worker.newApiKey({ plan: "free", account: newAccount() });
    const client = await connect(bearer(free));
    await sleep(1100);
    // When it calls a tool twice within a second
    const first = await client.callTool({ name: "trend", arguments: { hour: "1", limit: "1" } });
    const second = await client.callTool({ name: "trend", arguments: { hour: "1", limit: "1" } });
    // Then the first is answered and the second refused as REST refuses it
    expect(first.isError ?? false, textOf(first)).toBe(false);
    expect(second.isError).toBe(true);
    const refusal = JSON.parse(textOf(second));
    expect(refusal.error.code).toBe(429);
    expect(refusal.error.message).toMatch(/^Rate limit exceeded: 1 requests per second on the FREE plan/);
    // And the same meter refuses the REST call in that second too, then both pass again after it
    expect((await rest(free, "/api/v1/trend?hour=1&limit=1")).status).toBe(429);
    await sleep(1100);
    expect((await client.callTool({ name: "trend", arguments: { hour: "1", limit: "1" } })).isError ?? false).toBe(false);
    await sleep(1100);
    expect((await rest(free, "/api/v1/trend?hour=1&limit=1")).status).toBe(200);
    await client.close();
  });

  it("a missing, malformed or unknown key is a 401 before any MCP work", async () => {
    for (const headers of [{}, { authorization: "Bearer" }, bearer("tmd_not-a-real-key"), { "x-api-key": "tmd_not-a-real-key" }] as Record<string, string>[]) {
      const err = await connect(headers).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(headers)).toBeInstanceOf(StreamableHTTPError);
      expect((err as StreamableHTTPError).code).toBe(401);
    }
    // The answer is the REST 401 envelope
    const res = await fetch(`${worker.origin}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { status: string }).status).toBe("error");
  });
});
