// Trend lag under `npm start` conditions, measured as test/e2e/trend.npm-start.test.ts measures it: a localnet producing a
// slot every 400 ms in real time (the extras world, as npm start runs it), the bench worker (bench/serve-worker.mjs:
// the bundle under Miniflare, no wrangler dev proxy) and its cron run every CRON_INTERVAL_MS as npm start drives it
// (bench/cron-driver.mjs), started when this script starts. GET /api/v1/trend?hour=1&limit=100 every SAMPLE_MS for
// TREND_LAG_SECONDS after the first answer with data.
// Lag = now − the block time of the answer's `slot`: the time up to which the windows hold every trade (`updatedAt` is
// that time). Localnet's block times follow the wall clock, so this is how far the trend is behind the chain; the
// chain-relative figure (the newest confirmed block's time − `updatedAt`) is printed beside it, and the stats of the top
// token are read on each sample too (their 5m window must end at a block at least as new).
// env: BASE_URL, CONTROL_URL, LOCALNET_URL, API_KEY, TREND_LAG_SECONDS (90), CRON_INTERVAL_MS (10000), SAMPLE_MS (3000).
// The cron stops when the sampling ends.
import { nearestRank, startBenchCron } from "./cron-driver.mjs";
import { requiredEnv } from "./http-bench.mjs";

const { BASE_URL, CONTROL_URL, LOCALNET_URL, API_KEY } = requiredEnv("BASE_URL", "CONTROL_URL", "LOCALNET_URL", "API_KEY");
const SECONDS = Number(process.env.TREND_LAG_SECONDS ?? 90);
const CRON_INTERVAL_MS = Number(process.env.CRON_INTERVAL_MS ?? 10_000);
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 3000);
const FIRST_DATA_TIMEOUT_MS = 120_000;
const headers = { "x-api-key": API_KEY };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

async function rpc(method, params) {
  const res = await fetch(LOCALNET_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
const blockTime = (slot) => rpc("getBlockTime", [slot]);
/** The block time of the chain's newest confirmed block. */
const tipTime = async () => blockTime(await rpc("getSlot", [{ commitment: "confirmed" }]));

const status = await (await fetch(`${LOCALNET_URL}/__localnet/status`)).json();
if (status.mode !== "auto") throw new Error(`the localnet must produce slots in real time (is ${status.mode})`);

const cron = startBenchCron(CONTROL_URL, CRON_INTERVAL_MS);
const started = Date.now();
const lags = []; // now − updatedAt
const chainLags = []; // newest confirmed block time − updatedAt
const statsLags = []; // now − the top token's stats 5m `to`
let firstData = 0;
let ranked = 0;
let mismatches = 0; // updatedAt ≠ block time of slot, or stats ending before the trend
let errors = 0;
const sampling = () => (firstData === 0 ? Date.now() - started < FIRST_DATA_TIMEOUT_MS : Date.now() - firstData < SECONDS * 1000);
while (sampling()) {
  const res = await fetch(`${BASE_URL}/api/v1/trend?hour=1&limit=100`, { headers });
  const body = await res.json();
  if (res.status !== 200) {
    errors++;
    console.log(`trend answered HTTP ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  } else if (body.slot !== null) {
    const now = Date.now() / 1000;
    firstData ||= Date.now();
    ranked = Math.max(ranked, Object.keys(body).filter((k) => /^\d+$/.test(k)).length);
    const coveredUntil = await blockTime(body.slot);
    lags.push(now - coveredUntil);
    chainLags.push((await tipTime()) - coveredUntil);
    if (new Date(body.updatedAt).getTime() / 1000 !== coveredUntil) mismatches++;
    const top = body["0"]?.token_address;
    if (top) {
      const stats = await (await fetch(`${BASE_URL}/api/v1/stats?ca=${top}`, { headers })).json();
      statsLags.push(Date.now() / 1000 - stats["5m"].to);
      if (stats.slot < body.slot) mismatches++;
    }
  }
  await sleep(SAMPLE_MS);
}
await cron.stop();

const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `p50 ${f(nearestRank(s, 0.5))} s  p95 ${f(nearestRank(s, 0.95))} s  max ${f(s.at(-1))} s  (min ${f(s[0])} s)`;
};
if (lags.length === 0) {
  console.log(`no trend answer with data within ${FIRST_DATA_TIMEOUT_MS / 1000} s (${cron.runs.length} cron runs, ${cron.failures} failed)`);
  process.exit(0);
}
const sorted = [...lags].sort((a, b) => a - b);
const p95 = nearestRank(sorted, 0.95);
const max = sorted.at(-1);
console.log(
  `worker: the bundle under Miniflare (bench/serve-worker.mjs), not wrangler dev; cron every ${CRON_INTERVAL_MS / 1000} s through the control server; ` +
    `first data ${f((firstData - started) / 1000)} s after the cron started; ${lags.length} samples every ${SAMPLE_MS / 1000} s over ${f((Date.now() - firstData) / 1000, 0)} s`,
);
console.log(`trend lag (now − block time of the answer's slot, i.e. − updatedAt)          ${summary(lags)}`);
console.log(`  e2e bounds (test/e2e/trend.npm-start.test.ts: p95 ≤ 30 s, max ≤ 45 s): ${p95 <= 30 && max <= 45 ? "met" : "NOT met"}`);
console.log(`behind the chain (newest confirmed block's time − updatedAt)              ${summary(chainLags)}`);
if (statsLags.length) console.log(`stats of the top token (now − its 5m window's end), ${statsLags.length} samples        ${summary(statsLags)}`);
const cronMs = cron.runs.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  `cron: ${cron.runs.length} runs, run time p50 ${f(nearestRank(cronMs, 0.5), 0)} ms max ${f(cronMs.at(-1), 0)} ms, ${cron.skipped} ticks skipped (a run in flight), ` +
    `${cron.failures} failed; up to ${ranked} tokens ranked; ${mismatches} answers whose updatedAt was not their slot's time or whose stats ended before the trend; ${errors} non-200`,
);
