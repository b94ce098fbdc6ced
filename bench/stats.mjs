// /api/v1/stats latency against a worker whose trade index holds minutes of trades (run after bench/trend-lag.mjs on
// the same real-time localnet and worker): first the cron runs every CRON_INTERVAL_MS, as under `npm start`, until the
// index spans STATS_INDEX_MINUTES of block time; then p50/p99 of N sequential GETs, one client, for one mint (the most
// traded one that is no quote asset: a memecoin, as most asks are) and for a 100-mint list (every traded mint, most
// traded first, then never-traded addresses up to 100), with the cron still running (ingest competing), then with it
// stopped (the index still).
// The route keeps no answer cache: every request reads D1 twice (the windows' end, then one batch of two statements per
// window, 8 in all, over the asked mints), so there is no warm/cold split to measure.
// env: BASE_URL, CONTROL_URL, API_KEY, N (default 300), CRON_INTERVAL_MS (10000), STATS_INDEX_MINUTES (5)
import { randomBytes } from "node:crypto";
import { nearestRank, startBenchCron } from "./cron-driver.mjs";
import { requiredEnv, sequentialGets } from "./http-bench.mjs";

const { BASE_URL, CONTROL_URL, API_KEY } = requiredEnv("BASE_URL", "CONTROL_URL", "API_KEY");
const N = Number(process.env.N ?? 300);
const CRON_INTERVAL_MS = Number(process.env.CRON_INTERVAL_MS ?? 10_000);
const INDEX_MINUTES = Number(process.env.STATS_INDEX_MINUTES ?? 5);
const headers = { "x-api-key": API_KEY };
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

async function sql(statement, params = []) {
  const res = await fetch(`${CONTROL_URL}/__bench/sql`, { method: "POST", body: JSON.stringify({ sql: statement, params }) });
  const body = await res.json();
  if (!res.ok) throw new Error(`sql ${statement}: ${body.error}`);
  return body.results;
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** A random 32-byte address in base58: a well-formed mint no trade names. */
function randomAddress() {
  let n = BigInt(`0x${randomBytes(32).toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  return out;
}

const indexNow = async () =>
  (
    await sql(
      "SELECT (SELECT COUNT(*) FROM trades) AS trades, (SELECT COUNT(DISTINCT mint) FROM trades) AS mints, (SELECT MIN(block_time) FROM ingested_blocks) AS t0, (SELECT MAX(block_time) FROM ingested_blocks) AS t1",
    )
  )[0];
const cron = startBenchCron(CONTROL_URL, CRON_INTERVAL_MS);
const waitStarted = Date.now();
let index = await indexNow();
while (!(index.t1 - index.t0 >= INDEX_MINUTES * 60) && Date.now() - waitStarted < (INDEX_MINUTES + 2) * 60_000) {
  await new Promise((r) => setTimeout(r, 5000));
  index = await indexNow();
}
if (!index.trades) {
  await cron.stop();
  console.log(`the trade index holds no trade after ${f((Date.now() - waitStarted) / 1000, 0)} s of cron runs (${cron.failures} failed)`);
  process.exit(0);
}
// a mint that is no pool's quote asset (WSOL, USDC, … are the most traded): a memecoin, as most asks are
const [top] = await sql("SELECT mint, COUNT(*) AS n FROM trades WHERE mint NOT IN (SELECT DISTINCT quote_mint FROM trades) GROUP BY mint ORDER BY n DESC LIMIT 1");
const traded = (await sql("SELECT mint, COUNT(*) AS n FROM trades GROUP BY mint ORDER BY n DESC LIMIT 100")).map((r) => r.mint);
const list = [...traded];
while (list.length < 100) list.push(randomAddress());
console.log(
  `index: ${index.trades} trades of ${index.mints} mints over ${f((index.t1 - index.t0) / 60, 1)} min of block time (after ${f((Date.now() - waitStarted) / 1000, 0)} s more of cron runs); ` +
    `one mint = the most traded non-quote mint (${top.mint}, ${top.n} trades); the list = ${traded.length} traded mints + ${100 - traded.length} never-traded addresses`,
);

async function latency(label, path) {
  await fetch(`${BASE_URL}${path}`, { headers }).then((r) => r.arrayBuffer());
  const { samples, status: statusCode, bytes } = await sequentialGets(`${BASE_URL}${path}`, headers, N);
  console.log(`${label.padEnd(60)} p50 ${f(nearestRank(samples, 0.5))} ms  p99 ${f(nearestRank(samples, 0.99))} ms  max ${f(samples.at(-1))} ms  (n=${N}, HTTP ${statusCode}, ${bytes} B)`);
}

async function measure(condition) {
  await latency(`GET /api/v1/stats?ca=MINT (${condition})`, `/api/v1/stats?ca=${top.mint}`);
  await latency(`GET /api/v1/stats?ca=<100 mints> (${condition})`, `/api/v1/stats?ca=${list.join(",")}`);
}
console.log("-- sequential GETs, one client; no answer cache (each reads D1: the end, then a batch of 8 statements)");
const runsBefore = cron.runs.length;
await measure(`cron every ${CRON_INTERVAL_MS / 1000} s: ingesting`);
await cron.stop();
console.log(`  (${cron.runs.length - runsBefore} cron runs during that pair, ${cron.failures} failed in all)`);
await measure("cron off: index still");
