// Security report and holders page latency and upstream cost, against a running worker and the localnet it reads.
//
//   BASE_URL=http://127.0.0.1:18787 LOCALNET_URL=http://127.0.0.1:18899 API_KEY=tmd_… [N=200] node bench/security.mjs
//
// Standalone (also run by bench/run.sh; BENCH_ONLY=security runs only this). For each route it prints p50/p99 and the
// upstream JSON-RPC HTTP requests per answer (counted by localnet per `x-request-id`, which the worker forwards):
//   cold  the first request for each distinct mint of the world (its census, report and price not cached yet).
//         /security runs first, so a mint's census is cached when /holders sees it: /holders' cold line uses mints
//         /security was not asked about (the second half of the list) — the census read alone.
//   warm  N requests over the same mints, each right after that mint's previous one (report / census cached 30 s).
import { requiredEnv, timedWithUpstream, upstreamReport } from "./http-bench.mjs";

const { BASE_URL, LOCALNET_URL, API_KEY } = requiredEnv("BASE_URL", "LOCALNET_URL", "API_KEY");
const N = Number(process.env.N ?? 200);

const manifest = await (await fetch(`${LOCALNET_URL}/__localnet/world`)).json();
const security = await (await fetch(`${LOCALNET_URL}/__localnet/security`)).json();
const mints = [...manifest.tokens.map((t) => t.mint), ...security.tokens.map((t) => t.mint)];
const half = Math.floor(mints.length / 2);
const reportMints = mints.slice(0, half);
const holderMints = mints.slice(half);

const timed = (path) => timedWithUpstream(BASE_URL, LOCALNET_URL, { "x-api-key": API_KEY }, path);
const report = (label, samples) => upstreamReport(label, 16, "answer", samples);

async function measure(label, pathOf, coldMints, warmMints) {
  const coldRuns = [];
  for (const mint of coldMints) coldRuns.push(await timed(pathOf(mint)));
  const cold = coldRuns.filter((s) => s.requests > 0);
  report(`${label} cold`, cold);
  if (cold.length < coldRuns.length) console.log(`                 (${coldRuns.length - cold.length} answers reached no upstream: already cached, left out)`);
  const warm = [];
  for (let i = 0; i < N; i++) warm.push(await timed(pathOf(warmMints[i % warmMints.length])));
  report(`${label} warm`, warm);
}

await measure("/security", (m) => `/api/v1/security?ca=${m}`, reportMints, reportMints);
await measure("/holders", (m) => `/api/v1/holders?ca=${m}&limit=100`, holderMints, holderMints);
