// Overview latency and upstream cost, against a running worker and the localnet it reads.
//
//   BASE_URL=http://127.0.0.1:18787 LOCALNET_URL=http://127.0.0.1:18899 API_KEY=tmd_… [N=200] [SKIP_TTL_WAIT=1] node bench/overview.mjs
//
// Standalone (also run by bench/run.sh). Prints p50/p99 latency and upstream JSON-RPC HTTP requests per request,
// counted by localnet per `x-request-id` (the worker forwards it upstream), for three cache states:
//   cold       nothing cached: the FIRST request for each distinct world mint (profile, holders, price all missing).
//              There are only as many cold samples as mints (~40), not N: a mint's profile stays cached for 5 min,
//              so a second "cold" request would need a 5-minute wait or a fresh worker. Samples that reached no
//              upstream (the worker had already seen the mint) are reported as not cold and left out.
//              The token whose metadata URI is deliberately slow (3 s fetch deadline) is reported on its own line.
//   holders    profile cached, holders (30 s TTL) and price expired: measured after waiting 31 s (SKIP_TTL_WAIT=1 skips).
//   warm       everything cached: N requests over the mints, each right after that mint's previous request. The price
//              part lives PRICE_CACHE_TTL_MS (1 s by default), so a request that lands after it expired costs the
//              price read (1 request); the count of such requests is printed, not hidden.
import { requiredEnv, timedWithUpstream, upstreamReport } from "./http-bench.mjs";

const { BASE_URL, LOCALNET_URL, API_KEY } = requiredEnv("BASE_URL", "LOCALNET_URL", "API_KEY");
const N = Number(process.env.N ?? 200);

const manifest = await (await fetch(`${LOCALNET_URL}/__localnet/world`)).json();
const slowToken = manifest.tokens.find((t) => t.tags.includes("broken-metadata:slow"));
const mints = manifest.tokens.filter((t) => t !== slowToken).map((t) => t.mint);

const timedOverview = (mint) => timedWithUpstream(BASE_URL, LOCALNET_URL, { "x-api-key": API_KEY }, `/api/v1/overview?ca=${mint}`);
const report = (label, samples) => upstreamReport(label, 8, "request", samples);

// 1) Cold: first request per mint.
const coldRuns = [];
for (const mint of mints) coldRuns.push(await timedOverview(mint));
const cold = coldRuns.filter((s) => s.requests > 0);
report("cold", cold);
if (cold.length < coldRuns.length) console.log(`         (${coldRuns.length - cold.length} mints were already cached by this worker: not cold, left out)`);
if (slowToken) {
  const slow = await timedOverview(slowToken.mint);
  console.log(`slow-metadata token: ${slow.ms.toFixed(0)} ms (3 s fetch deadline), ${slow.requests} upstream requests, HTTP ${slow.status}`);
}

// 2) Warm: round-robin over the mints, each request right after the same mint's previous one.
const warm = [];
for (let i = 0; i < 2 * N; i++) {
  const mint = mints[Math.floor(i / 2) % mints.length]; // pairs: the first of a pair re-warms an expired price part
  const sample = await timedOverview(mint);
  if (i % 2 === 1) warm.push(sample);
}
report("warm", warm);
const refreshed = warm.filter((s) => s.requests > 0).length;
console.log(`         ${warm.length - refreshed} of ${warm.length} warm requests reached no upstream; ${refreshed} refreshed an expired price part`);

// 3) Holders and price expired, profile cached.
if (process.env.SKIP_TTL_WAIT !== "1") {
  await new Promise((resolve) => setTimeout(resolve, 31_000));
  const semi = [];
  for (const mint of mints) semi.push(await timedOverview(mint));
  report("holders", semi);
}
