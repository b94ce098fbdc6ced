// MCP tool-call overhead vs the REST route, warm: per tool (price, overview, trend), N rounds, each round one REST GET
// and the same call as an MCP tools/call on POST /mcp (stateless streamable HTTP, answered as JSON), two ways:
//   plain fetch  one JSON-RPC POST per call (no initialize needed: the server is stateless), the key as Bearer;
//   SDK client   the official client (@modelcontextprotocol/sdk, StreamableHTTPClientTransport), connected once, as
//                test/e2e/mcp.client.test.ts uses it: callTool adds the client's own parsing.
// The three are interleaved in a rotating order, so the caches (price PRICE_CACHE_TTL_MS, trend's few seconds of Cache
// API, overview's parts) are in the same state for each; a request that lands after an entry expired pays the read,
// whichever way it came. Each sample is the time to the whole body. Prints p50/p99 of each and the overhead: the
// difference of the p50s and p99s, and the median of the per-round differences (MCP − REST of the same round).
// env: BASE_URL, LOCALNET_URL, API_KEY, MCP_N (default 300)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { nearestRank } from "./cron-driver.mjs";
import { requiredEnv } from "./http-bench.mjs";

const { BASE_URL, LOCALNET_URL, API_KEY } = requiredEnv("BASE_URL", "LOCALNET_URL", "API_KEY");
const N = Number(process.env.MCP_N ?? 300);
const WARMUP = 20;
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

const world = await (await fetch(`${LOCALNET_URL}/__localnet/world`)).json();
const mint = (world.tokens.find((t) => t.venues.includes("pumpswap")) ?? world.tokens[0]).mint;
const calls = [
  { tool: "price", args: { ca: mint }, path: `/api/v1/price?ca=${mint}` },
  { tool: "overview", args: { ca: mint }, path: `/api/v1/overview?ca=${mint}` },
  { tool: "trend", args: { hour: "1", limit: "10" }, path: "/api/v1/trend?hour=1&limit=10" },
];

const mcpHeaders = { authorization: `Bearer ${API_KEY}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
let id = 0;
const problems = [];

async function rest(call) {
  const t = performance.now();
  const res = await fetch(`${BASE_URL}${call.path}`, { headers: { "x-api-key": API_KEY } });
  const text = await res.text();
  const ms = performance.now() - t;
  if (!res.ok) problems.push(`REST ${call.tool}: HTTP ${res.status} ${text.slice(0, 120)}`);
  return { ms, bytes: text.length };
}
async function mcpFetch(call) {
  const t = performance.now();
  const res = await fetch(`${BASE_URL}/mcp`, { method: "POST", headers: mcpHeaders, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: call.tool, arguments: call.args } }) });
  const text = await res.text();
  const ms = performance.now() - t;
  const body = res.ok ? JSON.parse(text) : undefined;
  if (!body?.result || body.result.isError) problems.push(`MCP fetch ${call.tool}: HTTP ${res.status} ${text.slice(0, 160)}`);
  return { ms, bytes: text.length };
}
const client = new Client({ name: "bench", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL(`${BASE_URL}/mcp`), { requestInit: { headers: { authorization: `Bearer ${API_KEY}` } } }));
async function mcpSdk(call) {
  const t = performance.now();
  const result = await client.callTool({ name: call.tool, arguments: call.args });
  const ms = performance.now() - t;
  if (result.isError) problems.push(`MCP SDK ${call.tool}: ${JSON.stringify(result.content).slice(0, 160)}`);
  return { ms };
}

const ways = [
  ["REST GET", rest],
  ["MCP tools/call, plain fetch", mcpFetch],
  ["MCP tools/call, SDK client", mcpSdk],
];
console.log(`-- warm, sequential, one client; ${N} rounds per tool after ${WARMUP} unmeasured; mint ${mint} (a PumpSwap token)`);
for (const call of calls) {
  for (let i = 0; i < WARMUP; i++) for (const [, way] of ways) await way(call);
  const samples = ways.map(() => []);
  let bytes = {};
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < ways.length; k++) {
      const w = (i + k) % ways.length;
      const r = await ways[w][1](call);
      samples[w][i] = r.ms;
      if (r.bytes) bytes[w] = r.bytes;
    }
  }
  const restSamples = samples[0];
  const restSorted = [...restSamples].sort((a, b) => a - b);
  const [r50, r99] = [nearestRank(restSorted, 0.5), nearestRank(restSorted, 0.99)];
  console.log(`${call.tool}: ${call.path.replace(mint, "MINT")} (REST body ${bytes[0]} B, MCP JSON-RPC body ${bytes[1]} B)`);
  ways.forEach(([label], w) => {
    const sorted = [...samples[w]].sort((a, b) => a - b);
    const [p50, p99] = [nearestRank(sorted, 0.5), nearestRank(sorted, 0.99)];
    let line = `  ${label.padEnd(30)} p50 ${f(p50)} ms  p99 ${f(p99)} ms`;
    if (w > 0) {
      const paired = samples[w].map((ms, i) => ms - restSamples[i]).sort((a, b) => a - b);
      line += `   overhead vs REST: p50 ${f(p50 - r50)} ms (${f(((p50 - r50) / r50) * 100, 0)}%), p99 ${f(p99 - r99)} ms; median per-round ${f(nearestRank(paired, 0.5))} ms`;
    }
    console.log(line);
  });
}
await client.close();
if (problems.length) console.log(`${problems.length} failed calls, first: ${problems.slice(0, 3).join(" | ")}`);
else console.log("every call answered (no tool error, no non-2xx)");
