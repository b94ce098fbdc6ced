// First price of a never-seen mint whose only pools cannot be derived from the mint (AMM v4 by market, DBC by config,
// a DAMM v2 pool under a config no derivation enumerates): the price service finds them with a getProgramAccounts scan
// on first ask. Each round starts a fresh worker (a fresh isolate and an empty D1 registry: every mint is never seen)
// on a localnet running the extra world (`--extras`, its quiet never-traded pools), asks each such mint once, and
// counts the upstream requests it caused at localnet by request id.
// env: LOCALNET_URL, LOCALNET_WS_URL, API_KEY, PORT (the workers' port), ROUNDS (default 4)
import { spawn } from "node:child_process";

const { LOCALNET_URL, LOCALNET_WS_URL, API_KEY } = process.env;
const PORT = Number(process.env.PORT ?? 18794);
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const headers = { "x-api-key": API_KEY };

const manifest = await (await fetch(`${LOCALNET_URL}/__localnet/world`)).json();
// Mints whose every pool is non-derivable, except the world's pools that open later (refused by design until they open;
// the chain's clock, not ours, says when).
const mints = manifest.tokens
  .filter((t) => t.pools.length > 0 && t.pools.every((p) => !p.derivable) && !t.tags.includes("opens-later"))
  .map((t) => ({ mint: t.mint, symbol: t.symbol, quiet: t.tags.includes("quiet"), kinds: [...new Set(t.pools.map((p) => p.kind))].join("+") }));

function startWorker(log) {
  const child = spawn("node", ["bench/serve-worker.mjs"], {
    detached: true, // its own process group: stopped with its workerd
    env: { ...process.env, PORT: String(PORT), PRICE_CACHE_TTL_MS: "1000", BENCH_API_KEY: API_KEY, UPSTREAM_RPC_URL: LOCALNET_URL, UPSTREAM_WS_URL: LOCALNET_WS_URL, METADATA_DEV_HOSTS: new URL(LOCALNET_URL).host },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker not ready: ${out.slice(-2000)}`)), 120_000);
    const poll = setInterval(() => {
      if (!/^ready/m.test(out)) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ stop: () => new Promise((done) => { child.once("exit", done); process.kill(-child.pid, "SIGTERM"); }), log: () => out });
    }, 100);
  });
}

const samples = [];
for (let round = 0; round < ROUNDS; round++) {
  const worker = await startWorker();
  try {
    for (const m of mints) {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${PORT}/api/v1/price?ca=${m.mint}`, { headers });
      const body = await res.json().catch(() => ({}));
      const ms = performance.now() - started;
      const id = res.headers.get("x-request-id");
      const counts = await (await fetch(`${LOCALNET_URL}/__localnet/stats?requestId=${id}`)).json();
      samples.push({ ...m, round, status: res.status, ms, requests: counts.requests, scans: counts.methods?.getProgramAccounts ?? 0, methods: counts.methods, priced: body?.status === "success" });
    }
  } finally {
    await worker.stop();
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (list) => {
  const ms = list.map((s) => s.ms).sort((a, b) => a - b);
  const req = list.map((s) => s.requests).sort((a, b) => a - b);
  const scans = list.map((s) => s.scans).sort((a, b) => a - b);
  return `n=${list.length}, answered 200 ${list.filter((s) => s.status === 200).length}; latency p50 ${percentile(ms, 50).toFixed(1)} ms p99 ${percentile(ms, 99).toFixed(1)} ms; upstream HTTP requests p50 ${percentile(req, 50)} p99 ${percentile(req, 99)} (getProgramAccounts calls p50 ${percentile(scans, 50)} p99 ${percentile(scans, 99)})`;
};
console.log(`first price of a never-seen mint whose only pools are non-derivable (${ROUNDS} fresh workers × ${mints.length} mints: ${mints.map((m) => `${m.symbol} ${m.kinds}${m.quiet ? " quiet" : ""}`).join(", ")})`);
console.log(`  all: ${summary(samples)}`);
const quiet = samples.filter((s) => s.quiet);
if (quiet.length > 0) console.log(`  quiet (never traded, so never registered by the chain tail): ${summary(quiet)}`);
const byRequests = {};
for (const s of samples) {
  const key = Object.entries(s.methods ?? {}).sort().map(([k, v]) => `${k}×${v}`).join(" ");
  byRequests[key] = (byRequests[key] ?? 0) + 1;
}
console.log(`  upstream calls per first ask (methods in one request each, a batch counts once): ${Object.entries(byRequests).map(([k, n]) => `${n}× [${k}]`).join("; ")}`);
const failed = samples.filter((s) => s.status !== 200);
if (failed.length > 0) console.log(`  not answered 200: ${failed.map((s) => `${s.symbol} ${s.status}`).join(", ")}`);
