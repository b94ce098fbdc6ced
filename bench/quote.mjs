// Quote benchmarks: latency per pool kind (warm and cold), the worker's own time per quote, and upstream requests per
// cold quote, counted at localnet by request id. A quote is never cached: every one reads the chain (the pools and
// their related accounts, then what the quote needs besides: fee configs, tick or bin arrays, the Clock).
// env: BASE_URL (worker, normal TTL), COLD_BASE_URL (worker with PRICE_CACHE_TTL_MS=0), LOCALNET_URL, API_KEY, N (default 50)
import { percentile } from "./http-bench.mjs";
const { BASE_URL, COLD_BASE_URL, LOCALNET_URL, API_KEY } = process.env;
const N = Number(process.env.N ?? 50);
const headers = { "x-api-key": API_KEY };
const WSOL = "So11111111111111111111111111111111111111112";
const USD = new Set(["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB"]);
const KINDS = ["pumpfun", "pumpswap", "raydium-amm-v4", "raydium-cpmm", "raydium-clmm", "meteora-dlmm", "meteora-damm-v1", "meteora-damm-v2", "meteora-dbc", "raydium-launchlab", "orca-whirlpool"];

const CURVE_KINDS = new Set(["pumpfun", "meteora-dbc", "raydium-launchlab"]);

const manifest = await (await fetch(`${LOCALNET_URL}/__localnet/world`)).json();
const f2 = (x) => (x === undefined || Number.isNaN(x) ? "—" : x.toFixed(2));

/** A small buy of the pool's quote token: 0.01 SOL or 1 USD. */
const urlOf = (base, pool) => `${base}/api/v1/quote?ca=${pool.baseMint}&side=buy&amount=${pool.quoteMint === WSOL ? "0.01&unit=sol" : "1&unit=usd"}&poolId=${pool.address}`;

async function quote(base, pool) {
  const t = performance.now();
  const res = await fetch(urlOf(base, pool), { headers });
  await res.arrayBuffer();
  const ms = performance.now() - t;
  const timing = Object.fromEntries((res.headers.get("server-timing") ?? "").split(",").map((e) => e.trim().split(";")).map(([name, ...ps]) => [name, Number((ps.find((q) => q.startsWith("dur=")) ?? "dur=NaN").slice(4))]));
  return { status: res.status, ms, own: timing.total - (timing.upstream ?? 0), id: res.headers.get("x-request-id") };
}
const stats = async (id) => (await fetch(`${LOCALNET_URL}/__localnet/stats?requestId=${id}`)).json();

console.log("kind              pools  cold p50/p99 ms (n)   warm p50/p99 ms   worker's own ms p50 (warm)   upstream requests / accounts per cold quote");
for (const kind of KINDS) {
  // pools that trade: a launchpad curve only while its token has not graduated (a PumpSwap pool is a graduated coin's)
  const curve = CURVE_KINDS.has(kind);
  const pools = manifest.tokens.flatMap((t) => t.pools.filter((p) => p.kind === kind && (p.quoteMint === WSOL || USD.has(p.quoteMint)) && !(curve && t.tags.includes("graduated"))));
  if (pools.length === 0) {
    console.log(`${kind.padEnd(18)}none in this world`);
    continue;
  }
  // cold: the first quote of each mint of the kind on the TTL-0 worker (nothing of that mint cached)
  const cold = [];
  const requests = [];
  const accounts = [];
  const statuses = new Set();
  for (const pool of pools.slice(0, 20)) {
    const q = await quote(COLD_BASE_URL, pool);
    statuses.add(q.status);
    if (q.status !== 200) continue;
    cold.push(q.ms);
    const s = await stats(q.id);
    requests.push(s.requests);
    accounts.push(s.accounts);
  }
  // warm: the same pool quoted again and again (derivations, registry and SOL/USD warm; the chain is read every time)
  const warm = [];
  const own = [];
  const pool = pools[0];
  await quote(BASE_URL, pool);
  for (let i = 0; i < N; i++) {
    const q = await quote(BASE_URL, pool);
    statuses.add(q.status);
    if (q.status !== 200) continue;
    warm.push(q.ms);
    own.push(q.own);
  }
  for (const a of [cold, warm, own, requests, accounts]) a.sort((x, y) => x - y);
  const not200 = [...statuses].filter((s) => s !== 200);
  console.log(
    `${kind.padEnd(18)}${String(pools.length).padEnd(7)}${`${f2(percentile(cold, 50))}/${f2(percentile(cold, 99))} (${cold.length})`.padEnd(22)}${`${f2(percentile(warm, 50))}/${f2(percentile(warm, 99))}`.padEnd(18)}${f2(percentile(own, 50)).padEnd(29)}` +
      `${percentile(requests, 50) ?? "—"} (max ${requests.at(-1) ?? "—"}) / ${percentile(accounts, 50) ?? "—"}${not200.length ? `   statuses also ${not200.join(",")}` : ""}`,
  );
}
