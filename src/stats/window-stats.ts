/**
 * Windowed stats of mints (5m, 1h, 6h, 24h) from the trade index, ending where the trend windows end (the index's last
 * block: trend/window-span.ts). Volumes, counts, open and last price come from the buckets, the live minute from the
 * stored trades; distinct buyers and sellers are exact: count(DISTINCT wallet) over the window's `wallet_minutes` rows
 * (one per mint, minute, side and wallet) and the live minute's trades. Every window of every mint is read in one D1
 * batch (two statements per window, each over all the mints asked).
 */
import { z } from "zod/mini";
import { spanBinds, tradeOrderKeySql, windowSpan } from "../trend/window-span";

/** The windows, by name, in minutes (the live minute included). */
export const statsWindows = { "5m": 5, "1h": 60, "6h": 360, "24h": 1440 } as const;
export type StatsWindowName = keyof typeof statsWindows;
const windowNames = Object.keys(statsWindows) as StatsWindowName[];

const price = z.nullable(z.number());
export const windowStatsSchema = z.object({
  /** unix seconds: the window holds trades with block times from `from` (a minute start) to `to` (the index's end) */
  from: z.number(),
  to: z.number(),
  buys: z.number(),
  sells: z.number(),
  /** distinct wallets that bought / sold */
  buyers: z.number(),
  sellers: z.number(),
  buyVolumeUsd: z.number(),
  sellVolumeUsd: z.number(),
  /** the same volumes in SOL (each trade at its own SOL price) */
  buyVolumeSol: z.number(),
  sellVolumeSol: z.number(),
  /** the same volumes in the token itself, human units */
  buyVolumeToken: z.number(),
  sellVolumeToken: z.number(),
  /** USD price of the window's first and last priced trade; null when none was priced */
  openPriceUsd: price,
  lastPriceUsd: price,
  /** (last − open) / open × 100; null without both prices */
  priceChangePercent: price,
});
export type WindowStats = z.infer<typeof windowStatsSchema>;

export const mintStatsSchema = z.object({
  ca: z.string(),
  /** the last slot the windows hold (null before the index holds a block) */
  slot: z.nullable(z.number()),
  /** the moment the windows end (the block time of `slot`), ISO; null with `slot` */
  updatedAt: z.nullable(z.string()),
  "5m": windowStatsSchema,
  "1h": windowStatsSchema,
  "6h": windowStatsSchema,
  "24h": windowStatsSchema,
});
export type MintStats = z.infer<typeof mintStatsSchema>;

/** The end the trend windows were last computed at: their slot, time, and the first slot of the live minute. */
interface StatsEnd {
  slot: number;
  time: number;
  liveFromSlot: number;
}

// The trend cron writes the end once per run (trend_windows.updated_at = the end's block time, in ms); stats read it
// back so both end at the same block.
const endQuery = `SELECT slot, updated_at / 1000 AS time,
  (SELECT min(b.slot) FROM ingested_blocks b WHERE b.block_time >= (tw.updated_at / 60000) * 60 AND b.slot <= tw.slot) AS live_from
  FROM trend_windows tw WHERE hour = 1`;

const bucketColumns = "mint, buys, sells, buy_usd, sell_usd, buy_sol, sell_sol, buy_base, sell_base, first_key, last_key, open_usd, close_usd";
const liveTradeColumns = `mint, side = 'buy', side = 'sell',
  CASE side WHEN 'buy' THEN coalesce(value_usd, 0) ELSE 0 END, CASE side WHEN 'sell' THEN coalesce(value_usd, 0) ELSE 0 END,
  CASE side WHEN 'buy' THEN coalesce(price_sol, 0) * (CAST(base_amount AS REAL) / pow(10, base_decimals)) ELSE 0 END,
  CASE side WHEN 'sell' THEN coalesce(price_sol, 0) * (CAST(base_amount AS REAL) / pow(10, base_decimals)) ELSE 0 END,
  CASE side WHEN 'buy' THEN CAST(base_amount AS REAL) / pow(10, base_decimals) ELSE 0 END,
  CASE side WHEN 'sell' THEN CAST(base_amount AS REAL) / pow(10, base_decimals) ELSE 0 END,
  ${tradeOrderKeySql}, ${tradeOrderKeySql}, price_usd, price_usd`;
const asked = "mint IN (SELECT value FROM json_each(?1))";

/**
 * Sums of one window per mint. Binds: ?1 the mints (JSON), ?2..?7 the bucket parts (window-span.ts spanBinds), ?8..?9
 * the live minute's slots, ?10 its first second. Open: the open of the part with the earliest first trade among those
 * with a price; last: the close of the part with the latest one (as a candle's).
 */
const sumsQuery = `WITH parts AS (
    SELECT ${bucketColumns} FROM minute_buckets WHERE ${asked} AND bucket BETWEEN ?2 AND ?3
    UNION ALL SELECT ${bucketColumns} FROM minute_buckets WHERE ${asked} AND bucket BETWEEN ?4 AND ?5
    UNION ALL SELECT ${bucketColumns} FROM hour_buckets WHERE ${asked} AND bucket BETWEEN ?6 AND ?7
    UNION ALL SELECT ${liveTradeColumns} FROM trades WHERE ${asked} AND slot BETWEEN ?8 AND ?9 AND block_time >= ?10
  )
  SELECT mint, sum(buys) AS buys, sum(sells) AS sells, sum(buy_usd) AS buy_usd, sum(sell_usd) AS sell_usd, sum(buy_sol) AS buy_sol,
    sum(sell_sol) AS sell_sol, sum(buy_base) AS buy_base, sum(sell_base) AS sell_base,
    (SELECT o.open_usd FROM parts o WHERE o.mint = p.mint AND o.open_usd IS NOT NULL ORDER BY o.first_key ASC LIMIT 1) AS open_usd,
    (SELECT l.close_usd FROM parts l WHERE l.mint = p.mint AND l.close_usd IS NOT NULL ORDER BY l.last_key DESC LIMIT 1) AS close_usd
  FROM parts p GROUP BY mint`;

/** Distinct wallets per mint and side over a window's whole minutes (?2..?3) and its live minute (?4..?5 slots, ?6 first second). */
const walletsQuery = `SELECT mint, side, count(DISTINCT wallet) AS n FROM (
    SELECT mint, side, wallet FROM wallet_minutes WHERE ${asked} AND bucket BETWEEN ?2 AND ?3
    UNION ALL SELECT mint, side, wallet FROM trades WHERE ${asked} AND slot BETWEEN ?4 AND ?5 AND block_time >= ?6
  ) GROUP BY mint, side`;

interface SumsRow {
  mint: string;
  buys: number;
  sells: number;
  buy_usd: number;
  sell_usd: number;
  buy_sol: number;
  sell_sol: number;
  buy_base: number;
  sell_base: number;
  open_usd: number | null;
  close_usd: number | null;
}

/** A window with no trade. */
function emptyWindow(from: number, to: number): WindowStats {
  return {
    from, to, buys: 0, sells: 0, buyers: 0, sellers: 0, buyVolumeUsd: 0, sellVolumeUsd: 0, buyVolumeSol: 0, sellVolumeSol: 0,
    buyVolumeToken: 0, sellVolumeToken: 0, openPriceUsd: null, lastPriceUsd: null, priceChangePercent: null,
  };
}

/** The stats of each of `mints` (distinct), in no particular order: keyed by mint. */
export async function readWindowStats(db: D1Database, mints: readonly string[]): Promise<Map<string, MintStats>> {
  const out = new Map<string, MintStats>();
  const end = await db.prepare(endQuery).first<{ slot: number; time: number; live_from: number | null }>();
  if (!end) {
    for (const ca of mints) out.set(ca, { ca, slot: null, updatedAt: null, ...perWindow(() => emptyWindow(0, 0)) });
    return out;
  }
  const stats: StatsEnd = { slot: end.slot, time: end.time, liveFromSlot: end.live_from ?? end.slot };
  const json = JSON.stringify(mints);
  const spans = windowNames.map((name) => windowSpan(stats.time, statsWindows[name]));
  const statements = spans.flatMap((span) => [
    db.prepare(sumsQuery).bind(json, ...spanBinds(span.whole), stats.liveFromSlot, stats.slot, span.liveMinute * 60),
    db.prepare(walletsQuery).bind(json, span.startMinute, span.liveMinute - 1, stats.liveFromSlot, stats.slot, span.liveMinute * 60),
  ]);
  const results = await db.batch(statements);
  const updatedAt = new Date(stats.time * 1000).toISOString();
  for (const ca of mints) out.set(ca, { ca, slot: stats.slot, updatedAt, ...perWindow((name, i) => emptyWindow(spans[i]!.startMinute * 60, stats.time)) });
  windowNames.forEach((name, i) => {
    for (const row of results[2 * i]!.results as SumsRow[]) {
      const w = out.get(row.mint)![name];
      Object.assign(w, {
        buys: row.buys,
        sells: row.sells,
        buyVolumeUsd: row.buy_usd,
        sellVolumeUsd: row.sell_usd,
        buyVolumeSol: row.buy_sol,
        sellVolumeSol: row.sell_sol,
        buyVolumeToken: row.buy_base,
        sellVolumeToken: row.sell_base,
        openPriceUsd: row.open_usd,
        lastPriceUsd: row.close_usd,
        priceChangePercent: row.open_usd !== null && row.close_usd !== null && row.open_usd !== 0 ? ((row.close_usd - row.open_usd) / row.open_usd) * 100 : null,
      });
    }
    for (const row of results[2 * i + 1]!.results as { mint: string; side: string; n: number }[]) {
      const w = out.get(row.mint)![name];
      if (row.side === "buy") w.buyers = row.n;
      else w.sellers = row.n;
    }
  });
  return out;
}

function perWindow(make: (name: StatsWindowName, index: number) => WindowStats): Record<StatsWindowName, WindowStats> {
  return Object.fromEntries(windowNames.map((name, i) => [name, make(name, i)])) as Record<StatsWindowName, WindowStats>;
}
