/**
 * GET /api/v1/ohlcv over buckets seeded in D1 as the cron writes them (migrations/0002 `minute_buckets`, `hour_buckets`).
 * Every expected candle below is worked out by hand from the seeded rows (listed in the comments).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { limits } from "../../src/limits";
import { newApiKey } from "../helpers/keys";
import { callWorker } from "../helpers/worker";

const mint = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
const other = "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump";
/** 2025-11-24T16:00:00Z: a multiple of 3600 (and so of 900, 300, 60); the day starts at 1763942400. */
const T = 1_764_000_000;
const day = 1_763_942_400;

type Prices = [open: number, high: number, low: number, close: number] | null;
interface Bucket {
  mint?: string;
  bucket: number;
  keys: [first: number, last: number];
  counts: [buys: number, sells: number];
  usd: [buy: number, sell: number];
  sol: [buy: number, sell: number];
  base: [buy: number, sell: number];
  usdPrices: Prices;
  solPrices: Prices;
}

function insert(table: "minute_buckets" | "hour_buckets", b: Bucket) {
  return env.DB.prepare(
    `INSERT INTO ${table} (mint, bucket, buys, sells, buy_usd, sell_usd, buy_sol, sell_sol, buy_base, sell_base, wallets, first_key, last_key, ` +
      "open_usd, high_usd, low_usd, close_usd, open_sol, high_sol, low_sol, close_sol) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ).bind(b.mint ?? mint, b.bucket, ...b.counts, ...b.usd, ...b.sol, ...b.base, ...b.keys, ...(b.usdPrices ?? [null, null, null, null]), ...(b.solPrices ?? [null, null, null, null]));
}

const m0 = T / 60;
// Minute buckets of `mint` (time: usd o/h/l/c; volumes):
//   T+0    keys 100..150  usd 1.00/1.20/0.95/1.10  buys 2 sells 1  usd 30+10    sol 0.25+0.125  base 25+10
//   T+180  keys 200..260  usd 1.10/1.50/1.05/1.40  buys 1 sells 0  usd 50+0     sol 0.5+0       base 40+0
//   T+420  keys 300..310  usd 1.40/1.45/0.80/0.90  buys 0 sells 2  usd 0+20     sol 0+0.25      base 0+22
//   T+960  keys 400..420  usd none (no USD price)  buys 1 sells 0  usd 0+0      sol 0.1+0       base 5+0
const minutes: Bucket[] = [
  { bucket: m0, keys: [100, 150], counts: [2, 1], usd: [30, 10], sol: [0.25, 0.125], base: [25, 10], usdPrices: [1.0, 1.2, 0.95, 1.1], solPrices: [0.01, 0.012, 0.009, 0.011] },
  { bucket: m0 + 3, keys: [200, 260], counts: [1, 0], usd: [50, 0], sol: [0.5, 0], base: [40, 0], usdPrices: [1.1, 1.5, 1.05, 1.4], solPrices: [0.011, 0.015, 0.0105, 0.014] },
  { bucket: m0 + 7, keys: [300, 310], counts: [0, 2], usd: [0, 20], sol: [0, 0.25], base: [0, 22], usdPrices: [1.4, 1.45, 0.8, 0.9], solPrices: [0.014, 0.0145, 0.008, 0.009] },
  { bucket: m0 + 16, keys: [400, 420], counts: [1, 0], usd: [0, 0], sol: [0.1, 0], base: [5, 0], usdPrices: null, solPrices: [0.009, 0.0095, 0.0085, 0.0092] },
  // another mint in the same minutes: never mixed in
  { mint: other, bucket: m0 + 1, keys: [170, 171], counts: [9, 9], usd: [999, 999], sol: [9, 9], base: [9, 9], usdPrices: [9, 99, 0.1, 9], solPrices: [9, 9, 9, 9] },
];

const h0 = T / 3600;
// Hour buckets of `mint`: 16:00 and 19:00 of day D, 00:00 and 01:00 of day D+1 (no SOL prices; SOL volumes exact in binary)
const hours: Bucket[] = [
  { bucket: h0, keys: [1000, 1100], counts: [3, 1], usd: [100, 40], sol: [1, 0.5], base: [10, 4], usdPrices: [2, 2.5, 1.9, 2.2], solPrices: null },
  { bucket: h0 + 3, keys: [2000, 2100], counts: [1, 2], usd: [10, 20], sol: [0.125, 0.25], base: [1, 2], usdPrices: [2.2, 2.3, 1.5, 1.6], solPrices: null },
  { bucket: h0 + 8, keys: [3000, 3100], counts: [5, 0], usd: [60, 0], sol: [0.5, 0], base: [6, 0], usdPrices: [1.6, 3, 1.6, 2.9], solPrices: null },
  { bucket: h0 + 9, keys: [4000, 4100], counts: [0, 1], usd: [0, 7], sol: [0, 0.0625], base: [0, 0.5], usdPrices: [2.9, 2.95, 2.7, 2.75], solPrices: null },
];

let key = "";
beforeAll(async () => {
  key = await newApiKey();
  await env.DB.batch([...minutes.map((b) => insert("minute_buckets", b)), ...hours.map((b) => insert("hour_buckets", b))]);
});

async function candles(query: string): Promise<any[]> {
  const res = await callWorker({ path: `/api/v1/ohlcv?ca=${mint}&${query}` }, { key });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { ca: string; candles: any[] };
  expect(body.ca).toBe(mint);
  return body.candles;
}

const range = `from=${T - 3600}&to=${T + 3600}`;
const c = (time: number, ohlc: Prices, volume: number, volumeBase: number, buys: number, sells: number) => {
  const [open, high, low, close] = ohlc ?? [null, null, null, null];
  return { time, open, high, low, close, volume, volumeBase, buys, sells };
};

describe("GET /api/v1/ohlcv from minute buckets", () => {
  it("1m: one candle per bucket, oldest first", async () => {
    expect(await candles(`interval=1m&${range}`)).toEqual([
      c(T, [1.0, 1.2, 0.95, 1.1], 40, 35, 2, 1),
      c(T + 180, [1.1, 1.5, 1.05, 1.4], 50, 40, 1, 0),
      c(T + 420, [1.4, 1.45, 0.8, 0.9], 20, 22, 0, 2),
      c(T + 960, null, 0, 5, 1, 0),
    ]);
  });

  it("5m: T+0 and T+180 form one candle (open of key 100, close of key 260, high 1.50, low 0.95)", async () => {
    expect(await candles(`interval=5m&${range}`)).toEqual([
      c(T, [1.0, 1.5, 0.95, 1.4], 90, 75, 3, 1),
      c(T + 300, [1.4, 1.45, 0.8, 0.9], 20, 22, 0, 2),
      c(T + 900, null, 0, 5, 1, 0),
    ]);
  });

  it("15m: the first three buckets together", async () => {
    expect(await candles(`interval=15m&${range}`)).toEqual([c(T, [1.0, 1.5, 0.8, 0.9], 110, 97, 3, 3), c(T + 900, null, 0, 5, 1, 0)]);
  });

  it("currency=sol: SOL prices and SOL volume", async () => {
    expect(await candles(`interval=5m&currency=sol&${range}`)).toEqual([
      c(T, [0.01, 0.015, 0.009, 0.014], 0.875, 75, 3, 1),
      c(T + 300, [0.014, 0.0145, 0.008, 0.009], 0.25, 22, 0, 2),
      c(T + 900, [0.009, 0.0095, 0.0085, 0.0092], 0.1, 5, 1, 0),
    ]);
  });

  it("fillEmpty=true: the empty 5m interval at T+600 carries the previous close, with no volume", async () => {
    expect(await candles(`interval=5m&fillEmpty=true&${range}`)).toEqual([
      c(T, [1.0, 1.5, 0.95, 1.4], 90, 75, 3, 1),
      c(T + 300, [1.4, 1.45, 0.8, 0.9], 20, 22, 0, 2),
      c(T + 600, [0.9, 0.9, 0.9, 0.9], 0, 0, 0, 0),
      c(T + 900, null, 0, 5, 1, 0),
    ]);
  });

  it("from and to bound candle start times, inclusive", async () => {
    // start ≥ T+1 → from T+300; start ≤ T+899 → up to T+600: only the T+300 candle
    expect((await candles(`interval=5m&from=${T + 1}&to=${T + 899}`)).map((x) => x.time)).toEqual([T + 300]);
    expect((await candles(`interval=5m&from=${T + 300}&to=${T + 900}`)).map((x) => x.time)).toEqual([T + 300, T + 900]);
    expect((await candles(`interval=1m&from=${T}&to=${T}`)).map((x) => x.time)).toEqual([T]);
    // a range inside one interval holds no candle start
    expect(await candles(`interval=15m&from=${T + 1}&to=${T + 899}`)).toEqual([]);
  });

  it("limit keeps the newest candles of the range", async () => {
    expect((await candles(`interval=5m&limit=2&${range}`)).map((x) => x.time)).toEqual([T + 300, T + 900]);
    expect((await candles(`interval=1m&limit=1&${range}`)).map((x) => x.time)).toEqual([T + 960]);
  });
});

describe("GET /api/v1/ohlcv from hour buckets", () => {
  const hourRange = `from=${day - 86_400}&to=${day + 2 * 86_400}`;

  it("1h: one candle per bucket", async () => {
    expect((await candles(`interval=1h&${hourRange}`)).map((x) => [x.time, x.open, x.close, x.volume])).toEqual([
      [T, 2, 2.2, 140],
      [T + 3 * 3600, 2.2, 1.6, 30],
      [T + 8 * 3600, 1.6, 2.9, 60],
      [T + 9 * 3600, 2.9, 2.75, 7],
    ]);
  });

  it("4h: 16:00 (16:00 + 19:00) and 00:00 (00:00 + 01:00)", async () => {
    expect(await candles(`interval=4h&${hourRange}`)).toEqual([c(T, [2, 2.5, 1.5, 1.6], 170, 17, 4, 3), c(day + 86_400, [1.6, 3, 1.6, 2.75], 67, 6.5, 5, 1)]);
  });

  it("1d: candles start at 00:00 UTC", async () => {
    expect(await candles(`interval=1d&${hourRange}`)).toEqual([c(day, [2, 2.5, 1.5, 1.6], 170, 17, 4, 3), c(day + 86_400, [1.6, 3, 1.6, 2.75], 67, 6.5, 5, 1)]);
  });

  it("1d with no SOL prices: null prices, SOL volume still summed", async () => {
    expect(await candles(`interval=1d&currency=sol&${hourRange}`)).toEqual([c(day, null, 1.875, 17, 4, 3), c(day + 86_400, null, 0.5625, 6.5, 5, 1)]);
  });

  it("fillEmpty=true on 4h fills 20:00 of day D with the 19:00 close", async () => {
    const filled = await candles(`interval=4h&fillEmpty=true&${hourRange}`);
    expect(filled.map((x) => [x.time, x.close, x.volume])).toEqual([
      [T, 1.6, 170],
      [T + 4 * 3600, 1.6, 0],
      [day + 86_400, 2.75, 67],
    ]);
  });
});

describe("GET /api/v1/ohlcv without from/to", () => {
  it("ends at now: a bucket of the current minute is the last candle", async () => {
    // Given a mint traded this minute and 10 minutes ago
    const fresh = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
    const now = Math.floor(Date.now() / 60_000);
    const bucket = (b: number, close: number): Bucket => ({ mint: fresh, bucket: b, keys: [b, b], counts: [1, 0], usd: [1, 0], sol: [0.01, 0], base: [1, 0], usdPrices: [close, close, close, close], solPrices: null });
    await env.DB.batch([insert("minute_buckets", bucket(now - 10, 3)), insert("minute_buckets", bucket(now, 4))]);
    // When asked with no range
    const res = await callWorker({ path: `/api/v1/ohlcv?ca=${fresh}&interval=1m` }, { key });
    const body = (await res.json()) as { candles: any[] };
    // Then both, oldest first, the last at the current minute
    expect(body.candles.map((x) => [x.time, x.close])).toEqual([
      [(now - 10) * 60, 3],
      [now * 60, 4],
    ]);
  });
});

describe("GET /api/v1/ohlcv: the bucket read cap (limits.ohlcvMaxBucketRows)", () => {
  // One minute bucket every minute from S (a 15m boundary), volume 1, prices = the minute's offset from S.
  const S = T / 60;
  const seedRun = (mintOf: string, count: number) =>
    env.DB.prepare(
      "INSERT INTO minute_buckets (mint, bucket, buys, sells, buy_usd, sell_usd, buy_sol, sell_sol, buy_base, sell_base, wallets, first_key, last_key, open_usd, high_usd, low_usd, close_usd, open_sol, high_sol, low_sol, close_sol) " +
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2) " +
        "SELECT ?1, ?3 + i, 1, 0, 1, 0, 0.5, 0, 1, 0, NULL, i, i, i, i, i, i, NULL, NULL, NULL, NULL FROM n",
    )
      .bind(mintOf, count, S)
      .run();
  const ask = async (mintOf: string) => {
    const res = await callWorker({ path: `/api/v1/ohlcv?ca=${mintOf}&interval=15m&limit=1000&from=${S * 60}&to=${(S + 6000) * 60}` }, { key });
    return ((await res.json()) as { candles: any[] }).candles;
  };

  it(`${limits.ohlcvMaxBucketRows} buckets (N) are all read: 334 candles, the oldest complete`, async () => {
    const atCap = "So11111111111111111111111111111111111111112";
    await seedRun(atCap, limits.ohlcvMaxBucketRows);
    const got = await ask(atCap);
    // minutes S..S+4999: 333 full candles and one of 5 buckets (S+4995..S+4999)
    expect(got).toHaveLength(334);
    expect(got[0]).toEqual({ time: S * 60, open: 0, high: 14, low: 0, close: 14, volume: 15, volumeBase: 15, buys: 15, sells: 0 });
    expect(got.at(-1)).toMatchObject({ time: (S + 4995) * 60, open: 4995, close: 4999, volume: 5 });
  });

  it(`${limits.ohlcvMaxBucketRows + 1} buckets (N+1): the newest ${limits.ohlcvMaxBucketRows} are read, and the oldest candle, cut, is left out`, async () => {
    const overCap = "11111111111111111111111111111111";
    await seedRun(overCap, limits.ohlcvMaxBucketRows + 1);
    const got = await ask(overCap);
    // minutes S+1..S+5000 read: the candle at S would have 14 of its 15 buckets → left out; never a partial candle
    expect(got).toHaveLength(333);
    expect(got[0]).toEqual({ time: (S + 15) * 60, open: 15, high: 29, low: 15, close: 29, volume: 15, volumeBase: 15, buys: 15, sells: 0 });
    expect(got.at(-1)).toMatchObject({ time: (S + 4995) * 60, open: 4995, close: 5000, volume: 6 });
  });
});

describe("GET /api/v1/ohlcv interval=1s: from the stored trades, the last hour only", () => {
  // Trades of a mint in three seconds of the last minute and one 70 minutes ago (base 6 decimals, amounts raw).
  const secMint = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr";
  const now = Math.floor(Date.now() / 1000);
  const s0 = now - 30;
  type Row = [slot: number, tx: number, ordinal: number, blockTime: number, side: "buy" | "sell", base: string, priceSol: number | null, priceUsd: number | null, valueUsd: number | null];
  //   s0:     slot 10 tx 0 buy 2.0 @ usd 1.5 (value 3), slot 10 tx 1 sell 1.0 @ usd 1.25 (value 1.25), slot 11 tx 0 buy 0.5 @ usd 2 (value 1)
  //   s0+1:   nothing
  //   s0+2:   slot 15 tx 3 sell 4.0 @ usd 1 (value 4); sol prices 0.01
  //   s0-4200 (70 min ago): a buy that must not be answered
  const rows: Row[] = [
    [10, 0, 0, s0, "buy", "2000000", 0.0125, 1.5, 3],
    [10, 1, 0, s0, "sell", "1000000", 0.01, 1.25, 1.25],
    [11, 0, 0, s0, "buy", "500000", 0.02, 2, 1],
    [15, 3, 0, s0 + 2, "sell", "4000000", 0.01, 1, 4],
    [1, 0, 0, s0 - 4200, "buy", "1000000", 0.01, 9, 9],
  ];
  beforeAll(async () => {
    await env.DB.batch(
      rows.map(([slot, tx, ordinal, blockTime, side, base, priceSol, priceUsd, valueUsd]) =>
        env.DB.prepare(
          "INSERT INTO trades (slot, tx_index, ordinal, block_time, signature, pool, kind, mint, quote_mint, side, base_amount, quote_amount, base_decimals, quote_decimals, price_quote, price_sol, price_usd, value_usd, wallet) " +
            "VALUES (?, ?, ?, ?, 'sig', 'pool', 'pumpfun', ?, 'So11111111111111111111111111111111111111112', ?, ?, '1', 6, 9, 1, ?, ?, ?, 'wallet')",
        ).bind(slot, tx, ordinal, blockTime, secMint, side, base, priceSol, priceUsd, valueUsd),
      ),
    );
  });
  const ask = async (query: string) => {
    const res = await callWorker({ path: `/api/v1/ohlcv?ca=${secMint}&interval=1s&${query}` }, { key });
    expect(res.status).toBe(200);
    return ((await res.json()) as { candles: any[] }).candles;
  };

  it("one candle per second with trades, open/close by slot and transaction, volumes summed", async () => {
    expect(await ask("")).toEqual([c(s0, [1.5, 2, 1.25, 2], 5.25, 3.5, 2, 1), c(s0 + 2, [1, 1, 1, 1], 4, 4, 0, 1)]);
    expect(await ask("currency=sol")).toEqual([c(s0, [0.0125, 0.02, 0.01, 0.02], 0.0125 * 2 + 0.01 + 0.02 * 0.5, 3.5, 2, 1), c(s0 + 2, [0.01, 0.01, 0.01, 0.01], 0.04, 4, 0, 1)]);
  });

  it("fillEmpty fills the quiet second; limit keeps the newest; from/to bound it", async () => {
    expect((await ask("fillEmpty=true")).map((x) => [x.time, x.close, x.volume])).toEqual([
      [s0, 2, 5.25],
      [s0 + 1, 2, 0],
      [s0 + 2, 1, 4],
    ]);
    expect((await ask("limit=1")).map((x) => x.time)).toEqual([s0 + 2]);
    expect((await ask(`from=${s0 + 1}&to=${s0 + 2}`)).map((x) => x.time)).toEqual([s0 + 2]);
  });

  it(`a second older than ${limits.ohlcvSecondCandlesWindowSeconds} s is not answered, even when asked for by from/to`, async () => {
    expect(await ask(`from=${s0 - 4300}&to=${s0 - 4100}`)).toEqual([]);
    expect((await ask(`from=${s0 - 5000}`)).map((x) => x.time)).toEqual([s0, s0 + 2]);
  });
});
