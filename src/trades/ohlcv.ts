/**
 * OHLCV candles of one mint from the per-mint buckets the cron writes (migrations/0002): `minute_buckets` for 1m, 5m
 * and 15m candles, `hour_buckets` for 1h, 4h and 1d. A candle gathers the buckets whose time falls in its interval
 * (start = floor(bucket time / interval) × interval, UTC, so a 1d candle starts at 00:00 UTC). Candle building is
 * pure (buildCandles, fillEmptyCandles); readOhlcv is the one bounded D1 query in front of it.
 */
import { z } from "zod/mini";
import { limits } from "../limits";

export const ohlcvIntervals = {
  "1m": { seconds: 60, table: "minute_buckets" },
  "5m": { seconds: 300, table: "minute_buckets" },
  "15m": { seconds: 900, table: "minute_buckets" },
  "1h": { seconds: 3600, table: "hour_buckets" },
  "4h": { seconds: 4 * 3600, table: "hour_buckets" },
  "1d": { seconds: 86_400, table: "hour_buckets" },
} as const;
export type OhlcvInterval = keyof typeof ohlcvIntervals;
export const ohlcvIntervalNames = Object.keys(ohlcvIntervals) as [OhlcvInterval, ...OhlcvInterval[]];

export const ohlcvCurrencies = ["usd", "sol"] as const;
export type OhlcvCurrency = (typeof ohlcvCurrencies)[number];

/** Seconds of one bucket of each table: minute buckets are unix minutes, hour buckets unix hours. */
const bucketSeconds = { minute_buckets: 60, hour_buckets: 3600 } as const;

const price = z.nullable(z.number());
export const candleSchema = z.object({
  /** start of the interval, unix seconds */
  time: z.number(),
  open: price,
  high: price,
  low: price,
  close: price,
  /** buy + sell volume in the answer's currency */
  volume: z.number(),
  /** buy + sell volume in the base token, human units */
  volumeBase: z.number(),
  buys: z.number(),
  sells: z.number(),
});
export type Candle = z.infer<typeof candleSchema>;

export const ohlcvAnswerSchema = z.object({
  ca: z.string(),
  interval: z.enum(ohlcvIntervalNames),
  currency: z.enum(ohlcvCurrencies),
  /** oldest first */
  candles: z.array(candleSchema),
});
export type OhlcvAnswer = z.infer<typeof ohlcvAnswerSchema>;

/** One bucket row in one currency: prices are null when the bucket's trades had no price in it. */
export interface BucketRow {
  /** bucket start, unix seconds */
  time: number;
  /** order keys (slot·2^20 + tx_index·2^6 + ordinal) of the bucket's first and last trade */
  firstKey: number;
  lastKey: number;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  volume: number;
  volumeBase: number;
  buys: number;
  sells: number;
}

interface Building extends Candle {
  buckets: number;
  openKey: number;
  closeKey: number;
}

/**
 * Candles of `rows` (any order), oldest first, at most `limit` (the newest ones). open is the open of the earliest
 * bucket (smallest first key) that has a price, close the close of the latest (largest last key); high and low the
 * extremes; volumes and counts are sums. `truncated`: the rows are the newest ones of a read cut at its row cap, so the
 * oldest candle may lack buckets: it is left out unless it holds a full interval's worth of buckets.
 */
export function buildCandles(
  rows: readonly BucketRow[],
  options: { intervalSeconds: number; bucketSeconds: number; limit: number; truncated: boolean },
): Candle[] {
  const { intervalSeconds, limit } = options;
  const byTime = new Map<number, Building>();
  for (const row of rows) {
    const time = Math.floor(row.time / intervalSeconds) * intervalSeconds;
    let candle = byTime.get(time);
    if (!candle) {
      candle = { time, open: null, high: null, low: null, close: null, volume: 0, volumeBase: 0, buys: 0, sells: 0, buckets: 0, openKey: Infinity, closeKey: -Infinity };
      byTime.set(time, candle);
    }
    candle.buckets += 1;
    candle.volume += row.volume;
    candle.volumeBase += row.volumeBase;
    candle.buys += row.buys;
    candle.sells += row.sells;
    if (row.open !== null && row.firstKey < candle.openKey) {
      candle.openKey = row.firstKey;
      candle.open = row.open;
    }
    if (row.close !== null && row.lastKey > candle.closeKey) {
      candle.closeKey = row.lastKey;
      candle.close = row.close;
    }
    if (row.high !== null && (candle.high === null || row.high > candle.high)) candle.high = row.high;
    if (row.low !== null && (candle.low === null || row.low < candle.low)) candle.low = row.low;
  }
  const built = [...byTime.values()].sort((a, b) => a.time - b.time);
  const full = options.intervalSeconds / options.bucketSeconds;
  if (options.truncated && built.length > 0 && built[0]!.buckets < full) built.shift();
  return built.slice(-limit).map(({ buckets: _b, openKey: _o, closeKey: _c, ...candle }) => candle);
}

/**
 * `candles` (oldest first, each on an interval start) with the empty intervals between the first and the last filled
 * in, as GeckoTerminal's `include_empty_intervals` does: open = high = low = close = the previous candle's close,
 * volumes and counts 0. At most `limit` candles, the newest: a long gap never makes an unbounded answer.
 */
export function fillEmptyCandles(candles: readonly Candle[], intervalSeconds: number, limit: number): Candle[] {
  if (candles.length === 0) return [];
  const last = candles.at(-1)!;
  const start = Math.max(candles[0]!.time, last.time - (limit - 1) * intervalSeconds);
  const byTime = new Map(candles.map((c) => [c.time, c]));
  // The close carried into the first slot shown: the newest candle before it.
  let previous: Candle | undefined;
  for (const candle of candles) {
    if (candle.time >= start) break;
    previous = candle;
  }
  const out: Candle[] = [];
  for (let time = start; time <= last.time; time += intervalSeconds) {
    const candle = byTime.get(time) ?? empty(time, previous?.close ?? null);
    out.push(candle);
    previous = candle;
  }
  return out;
}

function empty(time: number, close: number | null): Candle {
  return { time, open: close, high: close, low: close, close, volume: 0, volumeBase: 0, buys: 0, sells: 0 };
}

export interface OhlcvQuery {
  mint: string;
  interval: OhlcvInterval;
  currency: OhlcvCurrency;
  /** unix seconds, inclusive bounds on candle start times; no `from`: as far back as `limit` reaches */
  from?: number;
  to: number;
  limit: number;
  fillEmpty: boolean;
}

// Columns per currency: fixed text chosen by an enum, never request text.
const currencyColumns = {
  usd: "open_usd, high_usd, low_usd, close_usd, buy_usd + sell_usd",
  sol: "open_sol, high_sol, low_sol, close_sol, buy_sol + sell_sol",
} as const;

type RawBucket = [bucket: number, firstKey: number, lastKey: number, open: number | null, high: number | null, low: number | null, close: number | null, volume: number, volumeBase: number, buys: number, sells: number];

/**
 * The candles of `query`: the newest `limit` intervals with trades whose start lies in [from, to]. One D1 query over
 * the table's primary key (mint, bucket), newest buckets first, at most `limit` × buckets per candle rows (capped by
 * `limits.ohlcvMaxBucketRows`), read as arrays.
 */
export async function readOhlcv(db: D1Database, query: OhlcvQuery): Promise<OhlcvAnswer> {
  const { seconds: intervalSeconds, table } = ohlcvIntervals[query.interval];
  const bucketSize = bucketSeconds[table];
  const answer: OhlcvAnswer = { ca: query.mint, interval: query.interval, currency: query.currency, candles: [] };
  const firstStart = query.from === undefined ? 0 : Math.ceil(query.from / intervalSeconds) * intervalSeconds;
  const lastStart = Math.floor(query.to / intervalSeconds) * intervalSeconds;
  if (firstStart > lastStart) return answer;
  const perCandle = intervalSeconds / bucketSize;
  const cap = Math.min(query.limit * perCandle, limits.ohlcvMaxBucketRows);
  const sql =
    `SELECT bucket, first_key, last_key, ${currencyColumns[query.currency]}, buy_base + sell_base, buys, sells FROM ${table} ` +
    "WHERE mint = ? AND bucket BETWEEN ? AND ? ORDER BY bucket DESC LIMIT ?";
  const raw = await db
    .prepare(sql)
    .bind(query.mint, firstStart / bucketSize, (lastStart + intervalSeconds) / bucketSize - 1, cap)
    .raw<RawBucket>();
  const rows: BucketRow[] = raw.map(([bucket, firstKey, lastKey, open, high, low, close, volume, volumeBase, buys, sells]) => ({
    time: bucket * bucketSize,
    firstKey,
    lastKey,
    open,
    high,
    low,
    close,
    volume,
    volumeBase,
    buys,
    sells,
  }));
  const candles = buildCandles(rows, { intervalSeconds, bucketSeconds: bucketSize, limit: query.limit, truncated: raw.length === cap });
  answer.candles = query.fillEmpty ? fillEmptyCandles(candles, intervalSeconds, query.limit) : candles;
  return answer;
}
