// Trade index against the bench worker (bench/serve-worker.mjs, queue bound as in production) on a MANUAL localnet:
// produce slots, run the cron through the bench's control server (POST /__bench/scheduled) so ranges go through the
// trade-ingest queue, wait for the frontier, then: D1 rows written per 1,000 trades (from the worker's
// {"ingest":"range",...,"rowsWritten"} log lines: D1's meta.rows_written of the batches that stored the blocks), and
// p50/p95 latency of /api/v1/trend, /api/v1/ohlcv, /api/v1/trades.
// env: BASE_URL, CONTROL_URL, LOCALNET_URL (manual mode), API_KEY, WORKER_LOG (the worker's stdout file),
//      SLOTS (normal slots, default 600), STEP (slots per cron run, default 100: over inlineMaxSlots so the queue takes them),
//      HEAVY_SLOTS (mainnet-sized slots in a second phase, default 70; 0 = none), N (requests per measurement, default 500)
import { readFileSync } from "node:fs";
import { percentile, sequentialGets } from "./http-bench.mjs";

const { BASE_URL, CONTROL_URL, LOCALNET_URL, API_KEY, WORKER_LOG } = process.env;
const SLOTS = Number(process.env.SLOTS ?? 600);
const STEP = Number(process.env.STEP ?? 100);
const HEAVY_SLOTS = Number(process.env.HEAVY_SLOTS ?? 70);
const N = Number(process.env.N ?? 500);
const headers = { "x-api-key": API_KEY };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : String(x));

async function post(url) {
  const res = await fetch(url, { method: "POST" });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}
async function sql(statement, params = []) {
  const res = await fetch(`${CONTROL_URL}/__bench/sql`, { method: "POST", body: JSON.stringify({ sql: statement, params }) });
  const body = await res.json();
  if (!res.ok) throw new Error(`sql ${statement}: ${body.error}`);
  return body.results;
}
const status = async () => (await fetch(`${LOCALNET_URL}/__localnet/status`)).json();
async function advance(slots, heavy = false) {
  for (let left = slots; left > 0; ) {
    const n = Math.min(left, heavy ? 10 : 500);
    await post(`${LOCALNET_URL}/__localnet/advance?slots=${n}${heavy ? "&heavy=1" : ""}`);
    left -= n;
  }
}
const cronMs = [];
async function cron() {
  const r = await post(`${CONTROL_URL}/__bench/scheduled`);
  if (r.outcome !== "ok") console.log(`cron outcome ${r.outcome}`);
  cronMs.push(r.ms);
  return r;
}
const cursor = async (name) => (await sql("SELECT slot FROM ingest_cursor WHERE name = ?", [name]))[0]?.slot ?? null;

/** Cron runs until the frontier reaches the chain's confirmed slot (every range done), at most `timeoutMs`. */
async function waitFrontier(timeoutMs = 900_000) {
  const target = (await status()).confirmed;
  const t0 = Date.now();
  for (;;) {
    await cron();
    const frontier = await cursor("trades-frontier");
    if (frontier !== null && frontier >= target) return { target, frontier, ms: Date.now() - t0 };
    if (Date.now() - t0 > timeoutMs) return { target, frontier, ms: Date.now() - t0, timedOut: true };
    await sleep(2000);
  }
}

/** The worker's log lines (JSON objects) from byte `from` of its stdout file. */
function logLines(from) {
  const text = readFileSync(WORKER_LOG, "utf8").slice(from);
  const out = [];
  for (const line of text.split("\n")) {
    const i = line.indexOf("{");
    if (i < 0) continue;
    try {
      out.push(JSON.parse(line.slice(i)));
    } catch {}
  }
  return out;
}
const logSize = () => readFileSync(WORKER_LOG, "utf8").length;

/** One ingest phase: produce `slots` (heavy or not) in steps of STEP with a cron run after each, then wait for the frontier. */
async function phase(label, slots, heavy) {
  const logFrom = logSize();
  cronMs.length = 0;
  const frontierBefore = (await cursor("trades-frontier")) ?? (await status()).confirmed - 150;
  const t0 = Date.now();
  let produced = 0;
  while (produced < slots) {
    const n = Math.min(STEP, slots - produced);
    if (heavy) {
      await advance(n, true);
      if (n <= 64) await advance(65 - n); // more than inlineMaxSlots waiting: the cron hands them to the queue
    } else await advance(n);
    produced += n;
    // the last step's slots confirmed (confirmed = processed − 1) before its cron run, so no tail is left to an inline run
    if (produced >= slots) await advance(2);
    await cron();
  }
  const produceMs = Date.now() - t0;
  const wait = await waitFrontier();
  const lines = logLines(logFrom);
  const ranges = lines.filter((l) => l.ingest === "range");
  const crons = lines.filter((l) => l.cron === "ingest");
  const sum = (xs, k) => xs.reduce((a, x) => a + (x[k] ?? 0), 0);
  const blocks = sum(ranges, "blocks");
  const trades = sum(ranges, "trades");
  const rowsWritten = sum(ranges, "rowsWritten");
  const inlineRanges = sum(crons, "inline");
  const inlineTrades = sum(crons, "trades");
  const stored = await sql("SELECT COUNT(*) AS blocks, COALESCE(SUM(trades), 0) AS trades, MIN(slot) AS lo, MAX(slot) AS hi FROM ingested_blocks WHERE slot > ?", [frontierBefore]);
  const failures = lines.filter((l) => l.ingest === "block-skipped" || l.ingest === "range-retry" || l.ingest === "range-failed").length;
  const slotSpan = wait.frontier - frontierBefore;
  console.log(
    `${label}: ${slots} slots produced${heavy ? ` (heavy: ~1,100 transactions, ~70% votes${Math.min(STEP, slots) <= 64 ? "; padded to 65 slots per step with normal ones so the queue takes them" : ""})` : ""}, ` +
      `frontier ${frontierBefore} → ${wait.frontier} (chain confirmed ${wait.target})${wait.timedOut ? " TIMED OUT" : ""}; ` +
      `${ranges.length} ranges via the queue, ${inlineRanges} inline (${inlineTrades} trades), ${failures} failure/retry lines; ` +
      `ingest wall ${f((produceMs + wait.ms) / 1000, 1)} s (${f(wait.ms / 1000, 1)} s after the last slot); ` +
      `${cronMs.length} cron runs (dispatch, frontier, 24 trend windows, upkeep) p50 ${f(percentile([...cronMs].sort((a, b) => a - b), 50), 0)} ms`,
  );
  console.log(
    `  D1 rows written (range logs, meta.rows_written of the storing batches): ${rowsWritten} for ${trades} trades in ${blocks} blocks → ` +
      `${f((rowsWritten / trades) * 1000, 0)} rows per 1,000 trades, ${f(rowsWritten / blocks, 1)} rows per block; ` +
      `traffic ${f(trades / slotSpan, 2)} trades/slot (${f(trades / blocks, 2)} per block; D1 ingested_blocks over the span: ${stored[0].blocks} blocks, ${stored[0].trades} trades)`,
  );
  return { blocks, trades, rowsWritten };
}

/** p50/p95 of N sequential GETs; `before` (not timed) runs ahead of each one (the cold-cache measurements drop the key). */
async function latency(label, path, before) {
  const { samples, status: statusCode, bytes } = await sequentialGets(`${BASE_URL}${path}`, headers, N, before);
  console.log(`${label.padEnd(52)} p50 ${f(percentile(samples, 50))} ms  p95 ${f(percentile(samples, 95))} ms  (n=${N}, HTTP ${statusCode}, ${bytes} B)`);
}

// ---- ingest ----
const start = await status();
if (start.mode !== "manual") throw new Error(`the localnet must run in manual mode (is ${start.mode})`);
await advance(200); // the world warms up (the first cron run starts initialSlots back from the tip)
await cron();
const normal = await phase("normal traffic", SLOTS, false);
const heavy = HEAVY_SLOTS > 0 ? await phase("mainnet-sized blocks", HEAVY_SLOTS, true) : null;
const all = [normal, heavy].filter(Boolean);
const tot = (k) => all.reduce((a, p) => a + p[k], 0);
console.log(`all phases: ${tot("rowsWritten")} rows for ${tot("trades")} trades in ${tot("blocks")} blocks → ${f((tot("rowsWritten") / tot("trades")) * 1000, 0)} rows per 1,000 trades, ${f(tot("rowsWritten") / tot("blocks"), 1)} rows per block`);

// ---- reads ----
// the most traded token that is not itself a quote (WSOL, USDC, ...): a memecoin-like mint, as most OHLCV asks are
const [top] = await sql(
  "SELECT mint, COUNT(*) AS n, MIN(block_time) AS t0, MAX(block_time) AS t1 FROM trades WHERE mint NOT IN (SELECT DISTINCT quote_mint FROM trades) GROUP BY mint ORDER BY n DESC LIMIT 1",
);
const [span] = await sql("SELECT MIN(block_time) AS t0, MAX(block_time) AS t1 FROM ingested_blocks");
const [wallet] = await sql("SELECT wallet, COUNT(*) AS n FROM trades GROUP BY wallet ORDER BY n DESC LIMIT 1");
const tables = await sql(
  "SELECT (SELECT COUNT(*) FROM trades) AS trades, (SELECT COUNT(*) FROM minute_buckets) AS minute_buckets, (SELECT COUNT(*) FROM hour_buckets) AS hour_buckets, (SELECT COUNT(DISTINCT mint) FROM trades) AS mints",
);
console.log(
  `D1 now: ${tables[0].trades} trades of ${tables[0].mints} mints, ${tables[0].minute_buckets} minute and ${tables[0].hour_buckets} hour buckets; ` +
    `most traded non-quote mint ${top.mint} (${top.n} trades), busiest wallet ${wallet.n} trades; the index spans ${f((span.t1 - span.t0) / 60, 1)} min of block time, ` +
    `so hour=1 and hour=24 read windows of the same trades (their cost is one D1 row either way)`,
);
const from = top.t0 - 3600;
const to = top.t1 + 3600; // localnet's manual slots run ahead of the wall clock: an explicit range, not "now"
const trendKey = (hour, limit) => `https://trend-cache.internal/v1/${hour}/${limit}`;
const dropKey = (hour, limit) => () => post(`${CONTROL_URL}/__bench/cache-delete?url=${encodeURIComponent(trendKey(hour, limit))}`);
console.log(`-- sequential GETs, one client (warm: the same request just answered; cold: trend's Cache API entry dropped before each request)`);
for (const hour of [1, 24]) {
  const path = `/api/v1/trend?hour=${hour}&limit=100`;
  await fetch(`${BASE_URL}${path}`, { headers }).then((r) => r.arrayBuffer());
  await latency(`GET ${path} (warm, Cache API hit)`, path);
  await latency(`GET ${path} (cold, D1)`, path, dropKey(hour, 100));
}
for (const interval of ["1m", "1h"]) {
  const path = `/api/v1/ohlcv?ca=${top.mint}&interval=${interval}&from=${from}&to=${to}&currency=usd`;
  await latency(`GET /api/v1/ohlcv interval=${interval} (no cache: D1 each time)`, path);
}
await latency(`GET /api/v1/trades?ca= (first page, D1 each time)`, `/api/v1/trades?ca=${top.mint}`);
await latency(`GET /api/v1/trades?wallet= (first page, D1 each time)`, `/api/v1/trades?wallet=${wallet.wallet}`);
