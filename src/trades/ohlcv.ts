/**
 * OHLCV candles of one mint from the per-mint buckets the cron writes (migrations/0002): `minute_buckets` for 1m, 5m
 * and 15m candles, `hour_buckets` for 1h, 4h and 1d. A candle gathers the buckets whose time falls in its interval
 * (start = floor(bucket time / interval) × interval, UTC, so a 1d candle starts at 00:00 UTC). 1s candles come from the
 * stored trades themselves (`trades`, kept two hours), folded one by one (`foldTrade`, the same fold the live candles
 * of /ws use), for the last hour only (`limits.ohlcvSecondCandlesWindowSeconds`). Candle building is pure
 * (buildCandles, fillEmptyCandles, foldTrade); readOhlcv is the one bounded D1 query in front of it.
 */
import { z } from "zod/mini";
import { limits } from "../limits";
import { orderKey } from "./trade-buckets";
import { uiAmount } from "./trade-pricing";

export const ohlcvIntervals = {
  "1s": { seconds: 1, table: "trades" },
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

/** Seconds of one bucket of each table: minute buckets are unix minutes, hour buckets unix hours, a trade its block's second. */
const bucketSeconds = { trades: 1, minute_buckets: 60, hour_buckets: 3600 } as const;

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

/** What a candle needs of one trade: a stored trade row, or a trade the chain tail just read (src/streams/candle-book.ts). */
export interface CandleTrade {
  slot: number;
  txIndex: number;
  ordinal: number;
  blockTime: number;
  side: "buy" | "sell";
  baseAmount: bigint;
  baseDecimals: number;
  priceSol: number | null;
  priceUsd: number | null;
  valueUsd: number | null;
}

interface FoldSide {
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  openKey: number;
  closeKey: number;
  buy: number;
  sell: number;
}

/** A candle being gathered trade by trade, in both currencies (the bucket rows' arithmetic, trade-buckets.ts). */
export interface CandleFold {
  /** start of the interval, unix seconds */
  time: number;
  buys: number;
  sells: number;
  buyBase: number;
  sellBase: number;
  usd: FoldSide;
  sol: FoldSide;
}

const newSide = (): FoldSide => ({ open: null, high: null, low: null, close: null, openKey: Infinity, closeKey: -Infinity, buy: 0, sell: 0 });

export function newCandleFold(time: number): CandleFold {
  return { time, buys: 0, sells: 0, buyBase: 0, sellBase: 0, usd: newSide(), sol: newSide() };
}

/**
 * Adds one trade to a candle: counts and volumes summed, open/close by the order key (slot, transaction, swap), high and
 * low the extremes — the same rules as the cron's buckets. Folding the same trades in the same order gives the same
 * numbers to the last bit, which is why the live 1s candles of /ws equal the 1s candles read here.
 */
export function foldTrade(fold: CandleFold, trade: CandleTrade): void {
  const key = orderKey(trade);
  const base = uiAmount(trade.baseAmount, trade.baseDecimals);
  const sol = trade.priceSol === null ? 0 : trade.priceSol * base;
  const buy = trade.side === "buy";
  if (buy) (fold.buys++, (fold.buyBase += base), (fold.usd.buy += trade.valueUsd ?? 0), (fold.sol.buy += sol));
  else (fold.sells++, (fold.sellBase += base), (fold.usd.sell += trade.valueUsd ?? 0), (fold.sol.sell += sol));
  foldPrice(fold.usd, key, trade.priceUsd);
  foldPrice(fold.sol, key, trade.priceSol);
}

function foldPrice(side: FoldSide, key: number, price: number | null): void {
  if (price === null) return;
  if (key < side.openKey) (side.openKey = key), (side.open = price);
  if (key > side.closeKey) (side.closeKey = key), (side.close = price);
  side.high = side.high === null ? price : Math.max(side.high, price);
  side.low = side.low === null ? price : Math.min(side.low, price);
}

/** A folded candle in one currency, as the REST answer shows it. */
export function candleOfFold(fold: CandleFold, currency: OhlcvCurrency): Candle {
  const side = fold[currency];
  return {
    time: fold.time,
    open: side.open,
    high: side.high,
    low: side.low,
    close: side.close,
    volume: side.buy + side.sell,
    volumeBase: fold.buyBase + fold.sellBase,
    buys: fold.buys,
    sells: fold.sells,
  };
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
  /** unix seconds: 1s candles reach back `limits.ohlcvSecondCandlesWindowSeconds` from it */
  now: number;
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
  const answer: OhlcvAnswer = { ca: query.mint, interval: query.interval, currency: query.currency, candles: [] };
  let firstStart = query.from === undefined ? 0 : Math.ceil(query.from / intervalSeconds) * intervalSeconds;
  const lastStart = Math.floor(query.to / intervalSeconds) * intervalSeconds;
  if (table === "trades") {
    // 1s candles: the last hour only (the trades table keeps two; a wider read would be thousands of rows per candle answer)
    firstStart = Math.max(firstStart, query.now - limits.ohlcvSecondCandlesWindowSeconds + 1);
    if (firstStart > lastStart) return answer;
    answer.candles = await readSecondCandles(db, query, firstStart, lastStart);
    return answer;
  }
  const bucketSize = bucketSeconds[table];
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

type RawTrade = [slot: number, txIndex: number, ordinal: number, blockTime: number, side: string, baseAmount: string, baseDecimals: number, priceSol: number | null, priceUsd: number | null, valueUsd: number | null];

/**
 * 1s candles of [firstStart, lastStart] from the stored trades of the mint: one read of the mint's index, newest first,
 * at most `limits.ohlcvMaxTradeRows` rows (a cut read leaves out its oldest second, which may lack trades), folded
 * oldest first like the live candles.
 */
async function readSecondCandles(db: D1Database, query: OhlcvQuery, firstStart: number, lastStart: number): Promise<Candle[]> {
  const cap = limits.ohlcvMaxTradeRows;
  const raw = await db
    .prepare(
      "SELECT slot, tx_index, ordinal, block_time, side, base_amount, base_decimals, price_sol, price_usd, value_usd FROM trades " +
        "WHERE mint = ? AND block_time BETWEEN ? AND ? ORDER BY slot DESC, tx_index DESC, ordinal DESC LIMIT ?",
    )
    .bind(query.mint, firstStart, lastStart, cap)
    .raw<RawTrade>();
  const folds = new Map<number, CandleFold>();
  for (let i = raw.length - 1; i >= 0; i--) {
    const [slot, txIndex, ordinal, blockTime, side, baseAmount, baseDecimals, priceSol, priceUsd, valueUsd] = raw[i]!;
    let fold = folds.get(blockTime);
    if (fold === undefined) folds.set(blockTime, (fold = newCandleFold(blockTime)));
    foldTrade(fold, { slot, txIndex, ordinal, blockTime, side: side === "buy" ? "buy" : "sell", baseAmount: BigInt(baseAmount), baseDecimals, priceSol, priceUsd, valueUsd });
  }
  const built = [...folds.values()].sort((a, b) => a.time - b.time).map((fold) => candleOfFold(fold, query.currency));
  if (raw.length === cap) built.shift();
  const candles = built.slice(-query.limit);
  return query.fillEmpty ? fillEmptyCandles(candles, 1, query.limit) : candles;
}
