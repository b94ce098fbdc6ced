// Price benchmarks that need no wrk: cold latency vs one direct getMultipleAccounts, and upstream requests per request.
// env: BASE_URL (worker, normal TTL), COLD_BASE_URL (worker with PRICE_CACHE_TTL_MS=0), LOCALNET_URL, API_KEY, N (default 200)
import { percentile } from "./http-bench.mjs";
const { BASE_URL, COLD_BASE_URL, LOCALNET_URL, API_KEY } = process.env;
const N = Number(process.env.N ?? 200);
const headers = { "x-api-key": API_KEY };

const manifest = await (await fetch(`${LOCALNET_URL}/__localnet/world`)).json();
const tokens = manifest.tokens.filter((t) => t.pools.length > 0 && !t.tags.includes("complete"));
const pick = tokens.find((t) => t.venues.includes("pumpswap")) ?? tokens[0];

async function timeLoop(fn) {
  const samples = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}
const ms = (x) => `${x.toFixed(2)} ms`;

// The worker forwards its own request id (answered in x-request-id) upstream: localnet counts by it.
async function countedPrice(base, ca) {
  const res = await fetch(`${base}/api/v1/price?ca=${ca}`, { headers });
  await res.arrayBuffer();
  const id = res.headers.get("x-request-id");
  const counts = await (await fetch(`${LOCALNET_URL}/__localnet/stats?requestId=${id}`)).json();
  return { status: res.status, requests: counts.requests, accounts: counts.accounts };
}

// 1) Cold price (every request misses the price cache: TTL 0) next to the SAME upstream request sent directly: the body
//    the worker sent (replayed from localnet's stats), so the ratio is the worker's own overhead on top of one read.
await fetch(`${COLD_BASE_URL}/api/v1/price?ca=${pick.mint}`, { headers }); // static facts (derivations) warm, as in steady state
const probeRes = await fetch(`${COLD_BASE_URL}/api/v1/price?ca=${pick.mint}`, { headers });
await probeRes.arrayBuffer();
const probeId = probeRes.headers.get("x-request-id");
const probe = await (await fetch(`${LOCALNET_URL}/__localnet/stats?requestId=${probeId}`)).json();
const gmaBody = probe.lastBody;
// Each cold answer's Server-Timing (stage → ms): the worker's own view of where the time went.
const stageSamples = new Map();
const cold = await timeLoop(async () => {
  const res = await fetch(`${COLD_BASE_URL}/api/v1/price?ca=${pick.mint}`, { headers });
  await res.arrayBuffer();
  const stages = Object.fromEntries((res.headers.get("server-timing") ?? "").split(",").map((e) => e.trim().split(";")).map(([name, ...ps]) => [name, Number((ps.find((q) => q.startsWith("dur=")) ?? "dur=NaN").slice(4))]));
  stages["total − upstream"] = stages.total - (stages.upstream ?? 0);
  for (const [name, v] of Object.entries(stages)) (stageSamples.get(name) ?? stageSamples.set(name, []).get(name)).push(v);
});
const direct = await timeLoop(async () => (await fetch(LOCALNET_URL, { method: "POST", headers: { "content-type": "application/json" }, body: gmaBody })).arrayBuffer());
console.log(`cold price p50 ${ms(cold.p50)} p99 ${ms(cold.p99)}   the same getMultipleAccounts sent directly (${probe.accounts} addresses, ${probe.requests} request) p50 ${ms(direct.p50)} p99 ${ms(direct.p99)}   ratio p50 ${(cold.p50 / direct.p50).toFixed(2)}x`);
const breakdown = [...stageSamples].map(([name, v]) => `${name} ${percentile(v.sort((a, b) => a - b), 50).toFixed(2)}`).join(", ");
console.log(`cold path breakdown, Server-Timing p50 (ms): ${breakdown}; client-side p50 beyond the direct call ${ms(cold.p50 - direct.p50)}`);

if (process.env.COLD_ONLY) process.exit(0);

// 2) Upstream HTTP requests per request, counted at localnet by request id.
const coldCount = await countedPrice(COLD_BASE_URL, pick.mint);
await fetch(`${BASE_URL}/api/v1/price?ca=${pick.mint}`, { headers });
const warmCount = await countedPrice(BASE_URL, pick.mint);
const hundred = manifest.tokens.map((t) => t.mint).slice(0, 100);
while (hundred.length < 100) hundred.push(hundred[hundred.length % manifest.tokens.length]);
const listCount = await countedPrice(COLD_BASE_URL, hundred.join(","));
console.log(
  `upstream requests: cold single ${coldCount.requests} (${coldCount.accounts} addresses), warm single ${warmCount.requests}, ` +
    `100 mints (${new Set(hundred).size} distinct) ${listCount.requests} for ${listCount.accounts} addresses (ceil/100 = ${Math.ceil(listCount.accounts / 100)}) ` +
    `(HTTP ${coldCount.status}/${warmCount.status}/${listCount.status})`,
);
